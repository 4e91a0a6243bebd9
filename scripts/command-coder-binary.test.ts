import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../apps/cli/src/testing/cli-fixture.js';

// Command-template coders through the built `snodo` binary, as a user declares them in config: the
// attacker writes the task text, and the coder's command tries to see secrets it was not given.

let fixture: CliFixture;

afterEach(() => {
  fixture?.cleanup();
});

/** Every file under a directory, recursively, as text (the audit log, transcripts, state files). */
function readAll(directory: string, except: readonly string[] = []): string {
  if (!existsSync(directory)) return '';
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !except.includes(join(entry.parentPath, entry.name)))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('a command-template coder run by the snodo binary', () => {
  it('refuses a {prompt} inside sh -c before any job exists, and keeps the hostile task literal in the safe form', async () => {
    fixture = createCliFixture();
    const pwned = join(fixture.directory, 'pwned');
    const hostile = `"; touch ${pwned} #`;

    fixture.writeConfig(
      'model: mock/pass\ncoders:\n  mine:\n    command: ["sh", "-c", "printf %s \\"{prompt}\\" > task.txt"]\n',
    );
    const refused = await fixture.snodo(['run', hostile, '--coder', 'mine']);
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.stderr).toContain('coders.mine.command');
    expect(refused.stderr).toContain('["sh", "-c", "my-cli --prompt \\"$1\\"", "sh", "{prompt}"]');
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
    expect(existsSync(join(fixture.root, '.snodo', 'jobs'))).toBe(false);

    fixture.writeConfig(
      'model: mock/pass\ncoders:\n  mine:\n    command: ["sh", "-c", "printf %s \\"$1\\" > task.txt", "sh", "{prompt}"]\n',
    );
    const run = await fixture.snodo(['run', hostile, '--coder', 'mine']);
    expect(run.exitCode, run.all).toBe(0);
    expect(fixture.git(['show', 'main:task.txt'])).toContain(hostile);
    expect(existsSync(pwned)).toBe(false);
  }, 120_000);

  it('passes a declared credential to the command, no other secret, and keeps it out of the job records', async () => {
    fixture = createCliFixture();
    const key = 'acme-key-5f2b9c41d7e8';
    fixture.writeConfig(
      [
        'model: mock/pass',
        'coders:',
        '  mine:',
        '    command:',
        '      - sh',
        '      - -c',
        // The command records a digest of the key it saw, never the key (the secrets guard would refuse it).
        '      - \'printf %s "$ACME_API_KEY" | sha256sum | cut -c1-16 > key.txt; echo "$OTHER_API_KEY" > other.txt\'',
        '      - sh',
        '      - "{prompt}"',
        '    credentials: [ACME_API_KEY]',
        '',
      ].join('\n'),
    );
    const run = await fixture.snodo(['run', 'Record what you see', '--coder', 'mine'], {
      env: { ACME_API_KEY: key, OTHER_API_KEY: 'other-secret-value-1234' },
    });
    expect(run.exitCode, run.all).toBe(0);
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
    expect(fixture.git(['show', 'main:key.txt'])).toBe(digest);
    expect(fixture.git(['show', 'main:other.txt'])).toBe('');
    const records =
      readAll(join(fixture.root, '.snodo')) +
      readAll(fixture.snodoHome, [join(fixture.snodoHome, 'config.yml')]);
    expect(records.length).toBeGreaterThan(0);
    expect(records).not.toContain(key.slice(0, 12));
  }, 120_000);

  it('stops before anything is created when the declared credential is missing, naming it', async () => {
    fixture = createCliFixture();
    fixture.writeConfig(
      'model: mock/pass\ncoders:\n  mine:\n    command: ["true", "{prompt}"]\n    credentials: [ACME_API_KEY]\n',
    );
    const run = await fixture.snodo(['run', 'Add a file', '--coder', 'mine']);
    expect(run.exitCode, run.all).toBe(3);
    expect(run.stderr).toContain('ACME_API_KEY');
    expect(run.stderr).toContain('snodo config add mine');
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
  }, 60_000);
});
