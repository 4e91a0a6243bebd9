import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SnodoError } from '@snodo/coder-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoderRegistry } from './coder-registry.js';
import { createConfigCoderRegistrations } from './config-coder-registrations.js';
import { createPackageCoderRegistration } from './package-coder-registration.js';
import { resolveCoderName } from './resolve-coder-name.js';

/** The body of a coder-v1 adapter object literal for coder `id`, as package source text. */
const adapterSource = (id: string, extra = '') => `{
  specificationVersion: 'coder-v1',
  id: '${id}',
  displayName: 'Coder ${id}',
  kind: 'in-place',
  modelPrefix: '${id}/',
  installHint: 'npm install snodo-coder-${id}',
  credentials: { envVars: [] },
  checkAvailability: async () => ({ ready: true, installed: true, credentials: 'not-needed' }),
  doRun: async () => ({ status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 }),
  ${extra}
}`;

/** Writes a tiny npm package into `nodeModules`. */
function writePackage(
  nodeModules: string,
  name: string,
  manifest: object,
  files: Record<string, string>,
): void {
  const directory = join(nodeModules, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(directory, file, '..'), { recursive: true });
    writeFileSync(join(directory, file), text);
  }
  writeFileSync(join(directory, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
}

let root: string;
let repository: string;
let cliDirectory: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'snodo-coder-package-'));
  repository = join(root, 'repository');
  const repositoryModules = join(repository, 'node_modules');
  mkdirSync(repositoryModules, { recursive: true });
  writeFileSync(join(repository, 'package.json'), '{"name":"app","private":true}');

  // ESM-only, `import` condition only: what createRequire().resolve() alone could not resolve.
  writePackage(
    repositoryModules,
    'snodo-coder-x',
    {
      type: 'module',
      exports: {
        './package.json': './package.json',
        '.': { types: './dist/index.d.ts', import: './dist/index.js' },
      },
    },
    {
      'dist/index.js': `export default (settings) => (${adapterSource('x', 'flavour: settings.flavour,')});`,
    },
  );
  writePackage(
    repositoryModules,
    'snodo-coder-named',
    { type: 'module', main: 'lib.js' },
    {
      'lib.js': `export const createCoder = async () => (${adapterSource('named')});`,
    },
  );
  writePackage(
    repositoryModules,
    'snodo-coder-object',
    { type: 'module', exports: './main.js' },
    {
      'main.js': `export const coder = ${adapterSource('object')};`,
    },
  );
  writePackage(
    repositoryModules,
    'snodo-coder-empty',
    { type: 'module', main: 'index.js' },
    {
      'index.js': 'export const somethingElse = 1;',
    },
  );
  writePackage(
    repositoryModules,
    'snodo-coder-future',
    { type: 'module', main: 'index.js' },
    {
      'index.js': `export default ${adapterSource('future', "specificationVersion: 'coder-v2',")};`,
    },
  );

  // A global install: npm puts it next to the global snodo, in <prefix>/lib/node_modules.
  const globalModules = join(root, 'prefix', 'lib', 'node_modules');
  cliDirectory = join(globalModules, 'snodo');
  mkdirSync(cliDirectory, { recursive: true });
  writePackage(
    globalModules,
    'snodo-coder-global',
    { type: 'module', main: 'index.js' },
    {
      'index.js': `export default ${adapterSource('global')};`,
    },
  );
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function registryFor(id: string, packageName: string, settings: Record<string, unknown> = {}) {
  return createCoderRegistry({
    registrations: [
      createPackageCoderRegistration({ id, packageName, resolveFrom: [repository, cliDirectory] }),
    ],
    defaultCoderId: id,
    settings: { [id]: settings },
  });
}

describe('package coders', () => {
  it('loads an ESM-only package from the repository and calls its default factory with the settings', async () => {
    const registry = registryFor('x', 'snodo-coder-x', { package: 'snodo-coder-x', flavour: 'dry' });
    expect(resolveCoderName({ registry, coderFlag: 'x' })).toEqual({ coderId: 'x', source: 'coder-flag' });
    const coder = await registry.get('x');
    expect(coder).toMatchObject({ id: 'x', displayName: 'Coder x', flavour: 'dry' });
    await expect(coder.checkAvailability({ env: {} })).resolves.toMatchObject({ ready: true });
  });

  it('takes a createCoder factory or a coder object when there is no default export', async () => {
    await expect(registryFor('named', 'snodo-coder-named').get('named')).resolves.toMatchObject({
      id: 'named',
    });
    await expect(registryFor('object', 'snodo-coder-object').get('object')).resolves.toMatchObject({
      id: 'object',
    });
  });

  it('finds a globally installed package next to the CLI', async () => {
    await expect(registryFor('global', 'snodo-coder-global').get('global')).resolves.toMatchObject({
      displayName: 'Coder global',
    });
  });

  it('says which npm install to run when the package is missing', async () => {
    const error = await registryFor('mine', 'snodo-coder-mine')
      .get('mine')
      .catch((caught: unknown) => caught);
    expect(SnodoError.isInstance(error)).toBe(true);
    expect((error as SnodoError).code).toBe('CODER_NOT_INSTALLED');
    const message = (error as Error).message;
    expect(message).toContain('`npm install snodo-coder-mine` in the repository');
    expect(message).toContain('npm install -g snodo-coder-mine');
    expect(message).toContain('coders.mine.package');
  });

  it('refuses a package that exports no coder as installed, listing what it exports and what to export', async () => {
    const error = await registryFor('empty', 'snodo-coder-empty')
      .get('empty')
      .catch((caught: unknown) => caught);
    expect((error as SnodoError).code).toBe('CODER_PACKAGE_INVALID');
    const message = (error as Error).message;
    expect(message).toContain('is installed, but exports no coder: it exports somethingElse');
    expect(message).toContain('export `registration`');
    expect(message).not.toContain('npm install');
  });

  it('refuses a package built for another specification version', async () => {
    const error = await registryFor('future', 'snodo-coder-future')
      .get('future')
      .catch((caught: unknown) => caught);
    expect((error as SnodoError).code).toBe('CODER_SPECIFICATION_UNSUPPORTED');
    expect((error as Error).message).toContain('"coder-v2"');
  });

  it('refuses a package whose coder has another id than its config key', async () => {
    const error = await registryFor('mine', 'snodo-coder-x')
      .get('mine')
      .catch((caught: unknown) => caught);
    expect((error as SnodoError).code).toBe('CODER_REGISTRATION_INVALID');
    expect((error as Error).message).toContain('rename the config key coders.mine to coders.x');
  });

  it('builds package registrations from config, with metadata from config and defaults', async () => {
    const registrations = createConfigCoderRegistrations({
      coders: {
        x: { package: 'snodo-coder-x', display_name: 'Team X' },
        agy: { binary: '/opt/agy' },
      },
      resolveFrom: [repository],
      createCommandAdapter: () => {
        throw new Error('no command coders here');
      },
    });
    expect(registrations).toHaveLength(1);
    expect(registrations[0]).toMatchObject({
      id: 'x',
      displayName: 'Team X',
      kind: 'in-place',
      modelPrefix: 'x/',
      installHint: expect.stringContaining('npm install snodo-coder-x'),
    });
    const registry = createCoderRegistry({ registrations, defaultCoderId: 'x' });
    expect(resolveCoderName({ registry, model: 'x/large' })).toEqual({
      coderId: 'x',
      source: 'model-prefix',
    });
  });
});
