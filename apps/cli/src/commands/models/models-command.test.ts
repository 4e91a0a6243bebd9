import { afterEach, describe, expect, it } from 'vitest';
import { modelsJsonSchema } from '../../json/environment-json-schemas.js';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';

describe('snodo models', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('lists the price catalog per million tokens, filtered by provider', async () => {
    fixture = createCliFixture({ git: false });
    const models = await fixture.snodo(['models', '--provider', 'anthropic'], { cwd: fixture.home });
    expect(models.exitCode, models.all).toBe(0);
    expect(models.stdout).toMatch(/^model\s+input\s+output\s+cache read\s+cache write\s+context$/m);
    expect(models.stdout).toMatch(/^anthropic\/claude-\S+\s+\$\d+\.\d\d\s+\$\d+\.\d\d/m);
    expect(models.stdout).not.toMatch(/^openai\//m);
    expect(models.stdout).toContain('USD per million tokens');

    const json = modelsJsonSchema.parse(
      parseJson(await fixture.snodo(['models', '--json'], { cwd: fixture.home })),
    );
    expect(json.models.length).toBe(json.catalog.modelCount);
    expect(new Set(json.models.map((model) => model.provider))).toContain('openai');
  });

  it('names the providers it has for an unknown one (exit 2)', async () => {
    fixture = createCliFixture({ git: false });
    const models = await fixture.snodo(['models', '--provider', 'nobody'], { cwd: fixture.home });
    expect(models.exitCode).toBe(2);
    expect(models.stderr).toContain('The catalog has no provider "nobody"');
    expect(models.stderr).toContain('anthropic');
  });
});
