import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFakeCli } from '../testing/fake-cli.js';
import { FakeCoder, makeRequest } from '../testing/fake-coder.js';
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

function head(): string {
  return repository.git(['rev-parse', 'HEAD']).trim();
}

describe('SubprocessCoderAdapter commits', () => {
  it('makes exactly one commit whose diff is the change, with snodo message, trailers and fallback identity', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.appendFileSync('src/app.txt', 'hello\\n');
       fs.mkdirSync('docs');
       fs.writeFileSync('docs/notes.md', 'notes\\n');
       fs.unlinkSync('README.md');
       fs.mkdirSync('node_modules');
       fs.writeFileSync('node_modules/cache.js', 'ignored');`,
    );
    const start = head();

    const result = await new FakeCoder().doRun(makeRequest(repository));

    expect(result.status).toBe('changed');
    expect(result.commit).toBe(head());
    expect(repository.git(['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1');
    expect(repository.git(['rev-parse', 'HEAD~1']).trim()).toBe(start);
    expect(result.changedFiles).toEqual(['README.md', 'docs/notes.md', 'src/app.txt']);
    expect(repository.git(['diff', '--name-status', 'HEAD~1', 'HEAD'])).toBe(
      'D\tREADME.md\nA\tdocs/notes.md\nM\tsrc/app.txt\n',
    );
    expect(repository.git(['log', '-1', '--format=%B'])).toBe(
      'snodo(j_test1): Add a greeting to the app\n\nSnodo-Job: j_test1\nSnodo-Coder: fake-coder@1.2.3\n\n',
    );
    expect(repository.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>']).trim()).toBe(
      'snodo <snodo@localhost>|snodo <snodo@localhost>',
    );
    expect(repository.git(['status', '--porcelain'])).toBe('');
    expect(existsSync(path.join(repository.workspace, 'node_modules', 'cache.js'))).toBe(true);
    expect(result.exitCode).toBe(0);
    expect(result.cliVersion).toBe('1.2.3');
    expect(result.usage).toBeNull();
    expect(result.transcriptPath).toBe(path.join(repository.jobDirectory, 'transcript.log'));
  });

  it("uses the repository's configured identity when it has one", async () => {
    repository.git(['config', 'user.name', 'Ada Lovelace'], repository.main);
    repository.git(['config', 'user.email', 'ada@example.com'], repository.main);
    writeFakeCli(repository.binDirectory, 'fake-coder', `fs.appendFileSync('src/app.txt', 'x\\n');`);

    await new FakeCoder().doRun(makeRequest(repository));

    expect(repository.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>']).trim()).toBe(
      'Ada Lovelace <ada@example.com>|Ada Lovelace <ada@example.com>',
    );
  });

  it('squashes commits the CLI made itself into one and scrubs its attribution', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.appendFileSync('src/app.txt', 'one\\n');
       commitAs('feat: first\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>');
       fs.writeFileSync('second.txt', 'two\\n');
       commitAs('feat: second\\n\\n\u{1F916} Generated with [Claude Code](https://claude.com/claude-code)\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>');`,
    );
    const start = head();

    const result = await new FakeCoder().doRun(makeRequest(repository));

    expect(repository.git(['rev-list', '--count', `${start}..HEAD`]).trim()).toBe('1');
    expect(result.changedFiles).toEqual(['second.txt', 'src/app.txt']);
    const message = repository.git(['log', '-1', '--format=%B']);
    expect(message).not.toMatch(/co-authored-by/i);
    expect(message).not.toContain('Generated with');
    expect(repository.git(['log', '-1', '--format=%an']).trim()).toBe('snodo');
  });

  it('keeps the attribution lines the CLI wrote when keepAttribution is on', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.appendFileSync('src/app.txt', 'one\\n');
       commitAs('feat: first\\n\\n\u{1F916} Generated with [Claude Code](https://claude.com/claude-code)\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>');`,
    );

    await new FakeCoder({ keepAttribution: true }).doRun(makeRequest(repository));

    expect(repository.git(['log', '-1', '--format=%B'])).toBe(
      'snodo(j_test1): Add a greeting to the app\n\n' +
        '\u{1F916} Generated with [Claude Code](https://claude.com/claude-code)\n\n' +
        'Snodo-Job: j_test1\nSnodo-Coder: fake-coder@1.2.3\nCo-Authored-By: Claude <noreply@anthropic.com>\n\n',
    );
    expect(repository.git(['log', '-1', '--format=%(trailers:key=Snodo-Job,valueonly)']).trim()).toBe(
      'j_test1',
    );
  });

  it('returns no-changes and leaves HEAD alone when nothing changed, even after a commit and its revert', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.appendFileSync('src/app.txt', 'temporary\\n');
       commitAs('wip');
       fs.writeFileSync('src/app.txt', 'first line\\n');`,
    );
    const start = head();

    const result = await new FakeCoder().doRun(makeRequest(repository));

    expect(result).toMatchObject({ status: 'no-changes', changedFiles: [] });
    expect(result.commit).toBeUndefined();
    expect(head()).toBe(start);
    expect(repository.git(['status', '--porcelain'])).toBe('');
  });

  it('places the instructions file for the CLI, excluded from git, and leaves the worktree clean', async () => {
    const seen = path.join(repository.evidence, 'seen.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify({
         instructions: fs.readFileSync('.snodo-instructions.md', 'utf8'),
         status: git('status', '--porcelain'),
       }));
       fs.appendFileSync('src/app.txt', 'x\\n');
       git('add', '-A');`,
    );

    const request = makeRequest(repository);
    await new FakeCoder().doRun(request);

    const evidence = JSON.parse(readFileSync(seen, 'utf8')) as { instructions: string; status: string };
    expect(evidence.instructions).toBe(request.instructions);
    expect(evidence.status).toBe('');
    expect(repository.git(['show', '--name-only', '--format=', 'HEAD']).trim()).toBe('src/app.txt');
    expect(existsSync(path.join(repository.workspace, '.snodo-instructions.md'))).toBe(false);
    expect(repository.git(['status', '--porcelain', '--ignored'])).not.toContain('snodo-instructions');
    const exclude = readFileSync(path.join(repository.main, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.match(/^\/\.snodo-instructions\.md$/gm)).toHaveLength(1);

    await new FakeCoder().doRun(makeRequest(repository));
    const excludeAfterSecondRun = readFileSync(path.join(repository.main, '.git', 'info', 'exclude'), 'utf8');
    expect(excludeAfterSecondRun).toBe(exclude);
  });

  it('passes the prompt as one argument and the model flag only when a model is given, prefix stripped', async () => {
    const argvFile = path.join(repository.evidence, 'argv.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.appendFileSync(${JSON.stringify(argvFile)}, JSON.stringify(args) + '\\n');`,
    );
    const prompt = 'Do "this"; $(touch /tmp/pwn) --model evil\nsecond line';

    await new FakeCoder().doRun(makeRequest(repository, { prompt }));
    await new FakeCoder().doRun(makeRequest(repository, { prompt, model: 'fake/model-x' }));
    await new FakeCoder().doRun(makeRequest(repository, { prompt, model: 'model-y' }));

    const calls = readFileSync(argvFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
    expect(calls).toEqual([
      ['run', '--dir', repository.workspace, prompt],
      ['run', '--dir', repository.workspace, '--model', 'model-x', prompt],
      ['run', '--dir', repository.workspace, '--model', 'model-y', prompt],
    ]);
  });

  it("never runs the repository's own hooks for snodo's commit", async () => {
    const canary = path.join(repository.evidence, 'hook-ran');
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
      const hookPath = path.join(repository.main, '.git', 'hooks', hook);
      writeFileSync(hookPath, `#!/bin/sh\necho ${hook} >> ${JSON.stringify(canary)}\nexit 1\n`, {
        mode: 0o755,
      });
    }
    writeFakeCli(repository.binDirectory, 'fake-coder', `fs.appendFileSync('src/app.txt', 'x\\n');`);

    const result = await new FakeCoder().doRun(makeRequest(repository));

    expect(result.status).toBe('changed');
    expect(existsSync(canary)).toBe(false);
  });
});
