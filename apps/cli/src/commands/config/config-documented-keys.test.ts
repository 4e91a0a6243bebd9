import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
// The loop over ~40 keys runs the CLI in process: a process per key cost this test over a minute. The
// other tests of this file go through the built binary.
import { snodoInProcess } from '../../testing/in-process-cli.js';

const PACKAGES = join(import.meta.dirname, '..', '..', '..', '..', '..', 'packages');

/** A documented `coders.<id>.<key>`, and the README that documents it. */
interface DocumentedKey {
  readonly coder: string;
  readonly key: string;
  readonly readme: string;
}

/**
 * The settings tables of every coder README: the first table after the line that names `coders.<id>`
 * (`coders.<id>` itself, in coder-litellm, names the coders of the package). Rows marked "programmatic
 * only" are not config keys, and rows that point back at snodo's top-level config (`providers`, `prices`:
 * "as in snodo's config") are set there.
 */
function documentedCoderKeys(): DocumentedKey[] {
  const keys: DocumentedKey[] = [];
  for (const directory of readdirSync(PACKAGES).filter((name) => name.startsWith('coder-'))) {
    const readme = join(PACKAGES, directory, 'README.md');
    let text: string;
    try {
      text = readFileSync(readme, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n');
    const id = directory.slice('coder-'.length);
    const isHeader = (line: string | undefined) => line !== undefined && /^\| *`?key/i.test(line);
    const mentions = lines.flatMap((line, index) =>
      line.includes(`coders.${id}`) || (id === 'litellm' && line.includes('`coders.<id>`')) ? [index] : [],
    );
    const tableStart = mentions
      .flatMap((mention) => [0, 1, 2, 3, 4, 5, 6].map((offset) => mention + offset))
      .find((index) => isHeader(lines[index]));
    if (tableStart === undefined) continue;
    for (const line of lines.slice(tableStart + 2)) {
      if (!line.startsWith('|')) break;
      const [first = '', ...rest] = line.split('|').slice(1);
      const meaning = rest.join('|');
      if (/programmatic only|as in snodo's config/.test(meaning)) continue;
      for (const match of first.matchAll(/`([a-z_]+)`/g)) keys.push({ coder: id, key: match[1]!, readme });
    }
  }
  return keys;
}

/** A value of the right type for a documented key, as a user would type it. */
function sampleValue(key: string): string {
  if (key.endsWith('_seconds')) return '45';
  if (key === 'hermetic' || key === 'keep_attribution') return 'false';
  if (key === 'base_url' || key === 'url') return 'http://127.0.0.1:4000/v1';
  if (key === 'env') return '{"EXTRA_SETTING": "on"}';
  if (key === 'provider_config') return '{"local": {"npm": "@ai-sdk/openai-compatible"}}';
  if (key === 'permission') return '{"bash": "deny"}';
  if (key === 'api_key_env') return 'LOCAL_LLM_KEY';
  if (key === 'max_tokens' || key === 'max_tool_turns' || key === 'max_retries') return '3';
  if (key === 'temperature') return '0.2';
  if (key === 'runtime') return 'docker';
  if (key === 'model') return 'provider/some-model';
  return 'some-value';
}

describe('snodo config set/get: every key a README documents', () => {
  const documented = documentedCoderKeys();
  let fixture: CliFixture;
  beforeAll(() => {
    fixture = createCliFixture();
  });
  afterAll(() => fixture.cleanup());

  it('finds the settings tables of the coder READMEs (so the test below can fail)', () => {
    const names = documented.map(({ coder, key }) => `${coder}.${key}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'claude-code.base_url',
        'codex.base_url',
        'gemini-cli.base_url',
        'opencode-cli.api_key_env',
        'opencode.provider_config',
        'opencode.startup_timeout_seconds',
        'litellm.max_retries',
      ]),
    );
  });

  it('sets each documented coders.<id>.<key> and reads it back', { timeout: 240_000 }, async () => {
    const refused: string[] = [];
    const expected: Record<string, Record<string, unknown>> = {};
    for (const { coder, key, readme } of documented) {
      const dotted = `coders.${coder}.${key}`;
      const value = sampleValue(key);
      const set = await snodoInProcess(fixture, ['config', 'set', dotted, value]);
      // `config get` masks a secret (the password of a coder's server).
      const readBack = key === 'password' ? '********' : parse(value);
      if (set.exitCode === 0) expected[coder] = { ...expected[coder], [key]: readBack };
      else refused.push(`${dotted} (${readme}): ${set.all}`);
    }
    expect(refused).toEqual([]);
    // Read back one coder at a time (a `get` per key would double this test's minute).
    for (const [coder, values] of Object.entries(expected)) {
      const get = await snodoInProcess(fixture, ['config', 'get', `coders.${coder}`, '--json']);
      expect(get.exitCode, get.all).toBe(0);
      expect(JSON.parse(get.stdout), coder).toMatchObject(values);
    }
  });

  it('sets the keys the CLI README and SPEC §8 document for every coder', async () => {
    for (const [key, value] of [
      ['coders.my-cli.command', '["my-cli", "--", "{prompt}"]'],
      ['coders.my-cli.display_name', 'My CLI'],
      ['coders.my-cli.model_prefix', 'mine/'],
      ['coders.my-pkg.package', 'acme-snodo-coder'],
      ['coders.codex.timeout_seconds', '600'],
      ['coders.codex.env.CODEX_EXTRA', 'on'],
      ['coders.my-cli.credentials', '[ACME_API_KEY]'],
    ] as const) {
      const set = await fixture.snodo(['config', 'set', key, value]);
      expect(set.exitCode, set.all).toBe(0);
    }
    const get = await fixture.snodo(['config', 'get', 'coders.my-cli.credentials', '--json']);
    expect(JSON.parse(get.stdout)).toEqual(['ACME_API_KEY']);
  });

  it('refuses an unknown key with exit 2, naming the nearest known keys', async () => {
    const typo = await fixture.snodo(['config', 'set', 'coders.claude-code.base_ur', 'http://x.invalid']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('did you mean `base_url`?');
    expect(typo.stderr).toContain('coders.claude-code.base_url');
    expect(typo.stderr).toContain('snodo config keys');
    // Only the nearest keys, not the whole list of every key.
    expect(typo.stderr).not.toContain('prices.<model>');
  });

  it('lists every key with `snodo config keys`', async () => {
    const keys = await fixture.snodo(['config', 'keys']);
    expect(keys.exitCode, keys.all).toBe(0);
    const lines = keys.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['model', 'coders.<coder>.base_url', 'providers.<provider>.api_key']),
    );
  });

  it('keeps a documented password out of `config get`', async () => {
    const password = 'hunter2-the-server-password';
    expect((await fixture.snodo(['config', 'set', 'coders.opencode.password', password])).exitCode).toBe(0);
    const get = await fixture.snodo(['config', 'get', 'coders.opencode.password']);
    expect(get.stdout).not.toContain(password);
    const show = await fixture.snodo(['config', 'show']);
    expect(show.stdout).not.toContain(password);
  });
});

function parse(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
}
