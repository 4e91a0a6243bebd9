import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCoderEnvironment, type CoderV1Request, SnodoError } from '@snodo/coder-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnodoConfig } from '../config/index.js';
import { lookUpCoderCredentials } from '../pipeline/coder-credentials.js';
import type { CoderSettings } from './coder-registration.js';
import { createCoderRegistry } from './coder-registry.js';
import { createConfigCoderRegistrations } from './config-coder-registrations.js';

// Command-template coders, played by an attacker: the task text tries to become shell code, and the
// program tries to read secrets it was not given. Real runs through the SDK's subprocess base, real `sh`.

let root: string;
let repository: string;

const gitEnvironment = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repository,
    encoding: 'utf8',
    env: { ...process.env, ...gitEnvironment, HOME: root },
  }).trim();
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'snodo-command-safety-'));
  repository = join(root, 'repository');
  mkdirSync(repository);
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repository, 'README.md'), 'hello\n');
  git('add', 'README.md');
  git('commit', '--quiet', '-m', 'initial');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function configError(entry: CoderSettings): SnodoError {
  try {
    createConfigCoderRegistrations({ coders: { mine: entry }, resolveFrom: [] });
  } catch (error) {
    if (SnodoError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('the template was accepted');
}

async function run(coders: Record<string, CoderSettings>, prompt: string, env: Record<string, string>) {
  const registry = createCoderRegistry({
    registrations: createConfigCoderRegistrations({ coders, resolveFrom: [] }),
    defaultCoderId: 'mine',
    settings: coders,
  });
  const coder = await registry.get('mine');
  const request: CoderV1Request = {
    jobId: 'j_safety1',
    attempt: 1,
    task: 'write the file',
    prompt,
    workspace: repository,
    model: undefined,
    env: { PATH: process.env.PATH ?? '', HOME: root, ...gitEnvironment, ...env },
    timeoutMs: 60_000,
    abortSignal: new AbortController().signal,
    instructions: 'Write the file.',
    instructionsPath: join(root, 'instructions.md'),
    transcriptPath: join(root, 'transcript.log'),
    coderConfig: {},
    emit: () => {},
  };
  return { coder, result: await coder.doRun(request) };
}

describe('a placeholder inside a shell string', () => {
  it.each([
    [['sh', '-c', 'my-cli {prompt}']],
    [['/bin/bash', '-lc', "my-cli --task '{prompt}'"]],
    [['env', 'DEBUG=1', 'timeout', '60', 'zsh', '-c', 'my-cli {prompt}']],
    [['cmd.exe', '/C', 'my-cli {prompt}']],
    [['node', '-e', 'run(`{prompt}`)']],
    [['node', '--eval=run({prompt})']],
    [['python3', '-c', "print('{prompt}')"]],
    [['sh', '-c', 'cd {workspace} && my-cli "$1"', 'sh', '{prompt}']],
  ])('is refused at config load with the safe form: %j', (command) => {
    const error = configError({ command });
    expect(error.code).toBe('CODER_CONFIG_INVALID');
    expect(error.message).toContain('coders.mine.command');
    expect(error.message).toContain('so the task text would run as code');
    expect(error.message).toContain('["my-cli", "--prompt", "');
  });

  it.each([
    [['sh', '-c', 'eval "$1"', 'sh', '{prompt}']],
    [['sh', '-c', '"$1"', 'sh', '{prompt}']],
    [['bash', '-c', 'cd /src && bash -lc "$1"', 'bash', '{prompt}']],
    [['sh', '-c', 'exec "$@"', 'sh', '{prompt}', '--fast']],
  ])('refuses shell code that runs the placeholder argument as code: %j', (command) => {
    const error = configError({ command });
    expect(error.code).toBe('CODER_CONFIG_INVALID');
    expect(error.message).toContain('runs its arguments as code');
  });

  it.each([
    [['sh', '-c', 'my-cli --prompt "$1" | tee log.txt', 'sh', '{prompt}']],
    [['sh', '-c', 'exec "$@"', 'sh', 'my-cli', '{prompt}']],
    [['sh', '-c', 'cd "$2" && my-cli "$1"', 'sh', '{prompt}', '{workspace}']],
  ])('accepts shell code that only passes the placeholder on as data: %j', (command) => {
    expect(() =>
      createConfigCoderRegistrations({ coders: { mine: { command } }, resolveFrom: [] }),
    ).not.toThrow();
  });

  it('shows the positional form for a shell', () => {
    expect(configError({ command: ['sh', '-c', 'my-cli {prompt}'] }).message).toContain(
      '["sh", "-c", "my-cli --prompt \\"$1\\"", "sh", "{prompt}"]',
    );
  });

  it('never runs a hostile task text as shell: the refused form fails, the safe form keeps it literal', async () => {
    const pwned = join(root, 'pwned');
    const hostile = `"; touch ${pwned} #`;
    expect(configError({ command: ['sh', '-c', `printf %s "{prompt}" > {workspace}/out.txt`] }).code).toBe(
      'CODER_CONFIG_INVALID',
    );

    const { result } = await run(
      { mine: { command: ['sh', '-c', 'printf %s "$1" > "$2/out.txt"', 'sh', '{prompt}', '{workspace}'] } },
      hostile,
      {},
    );
    expect(result.status).toBe('changed');
    expect(readFileSync(join(repository, 'out.txt'), 'utf8')).toBe(hostile);
    expect(existsSync(pwned)).toBe(false);

    // The control: the refused template, expanded by hand, really is an attack.
    execFileSync('sh', ['-c', `printf %s "${hostile}" > /dev/null`]);
    expect(existsSync(pwned)).toBe(true);
  }, 30_000);
});

describe('coders.<id>.credentials', () => {
  const recordEnvironment = ['sh', '-c', 'env > "$1/env.txt"', 'sh', '{workspace}', '{prompt}'];

  it('passes a declared variable from the environment, and no other secret', async () => {
    const coders = { mine: { command: recordEnvironment, credentials: ['ACME_API_KEY'] } };
    const parentEnv = {
      PATH: process.env.PATH ?? '',
      ACME_API_KEY: 'acme-secret-123',
      OTHER_API_KEY: 'nope-456',
    };
    const registry = createCoderRegistry({
      registrations: createConfigCoderRegistrations({ coders, resolveFrom: [] }),
      defaultCoderId: 'mine',
      settings: coders,
    });
    const adapter = await registry.get('mine');
    expect(adapter.credentials.envVars).toEqual(['ACME_API_KEY']);
    // What the pipeline does before a run: only this coder's declared variable joins the allow-list.
    const lookup = lookUpCoderCredentials(adapter, {} as SnodoConfig, parentEnv);
    expect(lookup).toMatchObject({ variables: { ACME_API_KEY: 'acme-secret-123' }, source: 'environment' });
    const env = buildCoderEnvironment({ parentEnv, credentials: lookup.variables });
    await run(coders, 'go', env);
    const seen = readFileSync(join(repository, 'env.txt'), 'utf8');
    expect(seen).toContain('ACME_API_KEY=acme-secret-123');
    expect(seen).not.toContain('nope-456');
  }, 30_000);

  it('takes the key stored with snodo config add <id> for the first variable', async () => {
    const coders = { mine: { command: recordEnvironment, credentials: ['ACME_API_KEY'] } };
    const registry = createCoderRegistry({
      registrations: createConfigCoderRegistrations({ coders, resolveFrom: [] }),
      defaultCoderId: 'mine',
      settings: coders,
    });
    const adapter = await registry.get('mine');
    const config = { providers: { mine: { api_key: 'stored-key-789' } } } as unknown as SnodoConfig;
    expect(lookUpCoderCredentials(adapter, config, {})).toMatchObject({
      variables: { ACME_API_KEY: 'stored-key-789' },
      source: 'config',
    });
  });

  it('refuses a declared variable that is missing before anything runs, naming it', async () => {
    const coders = { mine: { command: recordEnvironment, credentials: ['ACME_API_KEY'] } };
    const failure = await run(coders, 'go', {}).catch((error: unknown) => error);
    expect((failure as SnodoError).code).toBe('CODER_CREDENTIALS_MISSING');
    expect((failure as Error).message).toContain('ACME_API_KEY');
    expect(existsSync(join(repository, 'env.txt'))).toBe(false);
  }, 30_000);

  it.each([[{ credentials: 'ACME_API_KEY' }], [{ credentials: ['ACME-KEY'] }]])(
    'refuses %j naming the setting',
    (entry) => {
      const error = configError({ command: ['my-cli', '{prompt}'], ...entry });
      expect(error.message).toContain('coders.mine.credentials');
    },
  );
});
