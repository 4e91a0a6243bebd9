import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availabilityError } from '../errors/availability-error.js';
import { CoderCliVersionUnsupportedError } from '../errors/coder-cli-version-unsupported-error.js';
import { CoderConfigInvalidError } from '../errors/coder-config-invalid-error.js';
import { CoderCredentialsMissingError } from '../errors/coder-credentials-missing-error.js';
import { CoderNotInstalledError } from '../errors/coder-not-installed-error.js';
import { writeFakeCli } from '../testing/fake-cli.js';
import { FAKE_API_KEY, FakeCoder, makeRequest } from '../testing/fake-coder.js';
import {
  createTemporaryRepository,
  isolateGitConfiguration,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';

let repository: TemporaryRepository;

beforeAll(() => isolateGitConfiguration());
beforeEach(() => {
  repository = createTemporaryRepository();
});
afterEach(() => repository.cleanup());

class VerifiedFakeCoder extends FakeCoder {
  override readonly supportedVersions = { min: '2.0.0', below: '3.0.0' };
}

class MissingFakeCoder extends FakeCoder {
  override readonly binary = 'fake-coder-that-is-not-installed';
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** The worktree, info/exclude and job directory must look untouched after a refused run. */
function expectNoSideEffects(request: { transcriptPath: string }): void {
  expect(existsSync(request.transcriptPath)).toBe(false);
  expect(existsSync(path.join(repository.workspace, '.snodo-instructions.md'))).toBe(false);
  expect(readFileSync(path.join(repository.main, '.git', 'info', 'exclude'), 'utf8')).toBe('/.snodo/jobs/\n');
  expect(repository.git(['status', '--porcelain', '--ignored'])).toBe('');
}

describe('SubprocessCoderAdapter environment and transcript', () => {
  it('gives the CLI only the allow-listed environment plus its own key, and redacts the key', async () => {
    const dump = path.join(repository.evidence, 'env.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.writeFileSync(${JSON.stringify(dump)}, JSON.stringify(process.env));
       process.stdout.write('FAKE_API_KEY=' + process.env.FAKE_API_KEY + '\\n');
       process.stdout.write('base64 ' + Buffer.from(process.env.FAKE_API_KEY).toString('base64') + '\\n');
       process.stderr.write('key in stderr ' + process.env.FAKE_API_KEY + '\\n');`,
    );
    const request = makeRequest(repository, {
      parentEnv: {
        ...process.env,
        AWS_SECRET_ACCESS_KEY: 'canary-aws-secret',
        OPENAI_API_KEY: 'canary-other-provider',
        GITHUB_TOKEN: 'canary-github',
        NODE_OPTIONS: '--require /tmp/evil.js',
        GIT_DIR: '/tmp/elsewhere',
      },
    });

    const result = await new FakeCoder().doRun(request);

    const environment = JSON.parse(readFileSync(dump, 'utf8')) as Record<string, string>;
    expect(environment.FAKE_API_KEY).toBe(FAKE_API_KEY);
    expect(environment.HOME).toBe(repository.home);
    for (const name of [
      'AWS_SECRET_ACCESS_KEY',
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'NODE_OPTIONS',
      'GIT_DIR',
    ]) {
      expect(environment[name]).toBeUndefined();
    }
    const transcript = readFileSync(request.transcriptPath, 'utf8');
    expect(transcript).not.toContain(FAKE_API_KEY);
    expect(transcript).not.toContain(Buffer.from(FAKE_API_KEY).toString('base64'));
    expect(transcript).toContain('FAKE_API_KEY=[redacted FAKE_API_KEY]');
    const emitted = request.events.map((event) => (event.type === 'coder-output' ? event.text : '')).join('');
    expect(emitted).toContain('[redacted FAKE_API_KEY]');
    expect(emitted).not.toContain(FAKE_API_KEY);
    expect(result.stderrTail).toBe('key in stderr [redacted FAKE_API_KEY]\n');
  });

  it('keeps a private key and keys it found elsewhere out of the transcript and the events', async () => {
    // What a prompt-injected coder does: print a signing key and someone else's token it came across.
    const key = [
      '-----BEGIN PRIVATE KEY-----',
      'MC4CAQAwBQYDK2VwBCIEIFNOT-A-REAL-ED25519-KEY-BUT-SHAPED',
      '-----END PRIVATE KEY-----',
    ];
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `const key = ${JSON.stringify(key.join('\n'))};
       process.stdout.write('$ cat signing.key\\n');
       for (const line of key.split('\\n')) process.stdout.write(line + '\\n');
       process.stdout.write(JSON.stringify({ type: 'tool_result', output: key + '\\n', token: ${JSON.stringify(token)} }) + '\\n');`,
    );
    const request = makeRequest(repository);

    await new FakeCoder().doRun(request);

    const transcript = readFileSync(request.transcriptPath, 'utf8');
    expect(transcript).toContain('$ cat signing.key\n[redacted private key]\n');
    expect(transcript).toContain('"output":"[redacted private key]\\n","token":"[redacted github token]"');
    const emitted = request.events.map((event) => (event.type === 'coder-output' ? event.text : '')).join('');
    for (const text of [transcript, emitted]) {
      expect(text).not.toContain('NOT-A-REAL');
      expect(text).not.toContain(token);
    }
  });

  it('refuses a missing binary with CODER_NOT_INSTALLED and writes nothing', async () => {
    const request = makeRequest(repository);

    const error = await failure(new MissingFakeCoder().doRun(request));

    expect(CoderNotInstalledError.isInstance(error)).toBe(true);
    expect((error as CoderNotInstalledError).installHint).toBe('npm install -g fake-coder');
    expect((error as CoderNotInstalledError).quickSetup).toContain('--coder');
    expectNoSideEffects(request);
  });

  it('uses coder_config.binary when given, and refuses a configured path that is not there', async () => {
    const elsewhere = writeFakeCli(
      repository.evidence,
      'renamed-coder',
      `fs.writeFileSync('ran.txt', 'yes\\n');`,
    );
    const configured = makeRequest(repository, { coderConfig: { binary: elsewhere } });
    const result = await new MissingFakeCoder().doRun(configured);
    expect(result.changedFiles).toEqual(['ran.txt']);

    const wrong = makeRequest(repository, { coderConfig: { binary: '/nowhere/fake-coder' } });
    const error = await failure(new FakeCoder().doRun(wrong));
    expect(CoderNotInstalledError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('/nowhere/fake-coder');

    const invalid = await failure(
      new FakeCoder().doRun(makeRequest(repository, { coderConfig: { binary: 42 } })),
    );
    expect(CoderConfigInvalidError.isInstance(invalid)).toBe(true);
  });

  it('refuses a CLI version outside the verified range before writing anything', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `fs.writeFileSync('ran.txt', 'yes\\n');`, {
      version: '3.1.0',
    });
    const request = makeRequest(repository);

    const error = await failure(new VerifiedFakeCoder().doRun(request));

    expect(CoderCliVersionUnsupportedError.isInstance(error)).toBe(true);
    expect((error as CoderCliVersionUnsupportedError).foundVersion).toBe('3.1.0');
    expect((error as Error).message).toContain('>= 2.0.0 and < 3.0.0');
    expectNoSideEffects(request);
  });

  it('refuses a missing key with CODER_CREDENTIALS_MISSING before writing anything', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `fs.writeFileSync('ran.txt', 'yes\\n');`);
    const base = makeRequest(repository);
    const { FAKE_API_KEY: _removed, ...withoutKey } = base.env;
    const request = { ...base, env: withoutKey };

    const error = await failure(new FakeCoder().doRun(request));

    expect(CoderCredentialsMissingError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('snodo config add fake <key>');
    expectNoSideEffects(request);
  });
});

describe('SubprocessCoderAdapter.checkAvailability', () => {
  it('reports ready with the binary path and version', async () => {
    const binaryPath = writeFakeCli(repository.binDirectory, 'fake-coder', '', { version: '2.4.1' });
    const { env } = makeRequest(repository);

    const availability = await new VerifiedFakeCoder().checkAvailability({ env });

    expect(availability).toEqual({
      ready: true,
      installed: true,
      binaryPath,
      version: '2.4.1',
      versionSupported: true,
      credentials: 'environment',
    });
  });

  it('reports a missing binary with the install hint as the fix', async () => {
    const { env } = makeRequest(repository);

    const adapter = new MissingFakeCoder();
    const availability = await adapter.checkAvailability({ env });

    expect(availability).toMatchObject({ ready: false, installed: false, fix: 'npm install -g fake-coder' });
    expect(CoderNotInstalledError.isInstance(availabilityError(adapter, availability))).toBe(true);
  });

  it('reports an unverified version and a missing key, each with its fix', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', '', { version: '1.0.0' });
    const { env } = makeRequest(repository);
    const adapter = new VerifiedFakeCoder();

    const oldVersion = await adapter.checkAvailability({ env });
    expect(oldVersion).toMatchObject({
      ready: false,
      installed: true,
      version: '1.0.0',
      versionSupported: false,
    });
    expect(CoderCliVersionUnsupportedError.isInstance(availabilityError(adapter, oldVersion))).toBe(true);

    const { FAKE_API_KEY: _removed, ...withoutKey } = env;
    const noKey = await new FakeCoder().checkAvailability({ env: withoutKey });
    expect(noKey).toMatchObject({ ready: false, credentials: 'missing' });
    expect(noKey.fix).toContain('snodo config add fake <key>');
    expect(CoderCredentialsMissingError.isInstance(availabilityError(new FakeCoder(), noKey))).toBe(true);
  });
});
