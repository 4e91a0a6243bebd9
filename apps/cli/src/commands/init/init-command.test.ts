import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initJsonSchema } from '../../json/environment-json-schemas.js';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';

describe('snodo init', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('writes the solo template and says what to do next', async () => {
    fixture = createCliFixture({ protocol: false });
    const init = await fixture.snodo(['init']);
    expect(init.exitCode, init.all).toBe(0);
    const text = readFileSync(join(fixture.root, '.snodo', 'protocol.yml'), 'utf8');
    expect(text).toContain('protocol_id: solo');
    expect(init.stdout).toContain('git add .snodo/protocol.yml');
    expect(init.stdout).toContain('--mock');
  });

  it('writes into the main checkout from a subdirectory, and another template with --template', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write('src/index.js', '');
    const init = await fixture.snodo(['init', '--template', 'team', '--json'], {
      cwd: join(fixture.root, 'src'),
    });
    expect(init.exitCode, init.all).toBe(0);
    const written = initJsonSchema.parse(JSON.parse(init.stdout));
    expect(written).toMatchObject({ template: 'team', path: join(fixture.root, '.snodo', 'protocol.yml') });
    expect(readFileSync(written.path, 'utf8')).toContain('protocol_id: team');
  });

  it('refuses to replace an existing protocol without --force (exit 2), and replaces it with --force', async () => {
    fixture = createCliFixture({ protocol: 'protocol_id: mine\n' });
    const refused = await fixture.snodo(['init']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('error: .snodo/protocol.yml already exists');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(fixture.root, '.snodo', 'protocol.yml'), 'utf8')).toBe('protocol_id: mine\n');

    const forced = await fixture.snodo(['init', '--force', '--template', '2+n']);
    expect(forced.exitCode, forced.all).toBe(0);
    expect(readFileSync(join(fixture.root, '.snodo', 'protocol.yml'), 'utf8')).not.toBe(
      'protocol_id: mine\n',
    );
  });

  it('refuses outside a git repository with the `git init` hint (exit 2)', async () => {
    fixture = createCliFixture({ git: false });
    const init = await fixture.snodo(['init'], { cwd: fixture.home });
    expect(init.exitCode).toBe(2);
    expect(init.stderr).toContain('git init');
  });

  it('names the templates for an unknown one (exit 2)', async () => {
    fixture = createCliFixture({ protocol: false });
    const init = await fixture.snodo(['init', '--template', 'duo']);
    expect(init.exitCode).toBe(2);
    expect(init.stderr).toContain("There is no protocol template 'duo'");
    expect(init.stderr).toContain('solo, team, 2+n, intent');
  });
});
