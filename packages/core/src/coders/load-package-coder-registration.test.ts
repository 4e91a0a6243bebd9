import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnodoConfig } from '../config/index.js';
import { checkCoder } from './check-coder.js';
import type { CoderSettings } from './coder-registration.js';
import { createCoderRegistry } from './coder-registry.js';
import {
  createConfigCoderRegistrations,
  loadConfigCoderRegistrations,
} from './config-coder-registrations.js';
import { resolveCoderName } from './resolve-coder-name.js';

// Third-party coder packages as an adapter author publishes them, installed into a repository's
// node_modules: the package's own metadata (not the config key) names and routes the coder.

const adapterSource = (id: string, displayName: string, modelPrefix: string) => `{
  specificationVersion: 'coder-v1',
  id: '${id}',
  displayName: '${displayName}',
  kind: 'in-place',
  modelPrefix: '${modelPrefix}',
  installHint: 'npm install snodo-coder-${id}',
  credentials: { envVars: [] },
  checkAvailability: async () => ({ ready: true, installed: true, credentials: 'not-needed' }),
  doRun: async () => ({ status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 }),
}`;

let root: string;
let repository: string;

function writePackage(name: string, manifest: object, files: Record<string, string>): void {
  const directory = join(repository, 'node_modules', name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(directory, file, '..'), { recursive: true });
    writeFileSync(join(directory, file), text);
  }
  writeFileSync(join(directory, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'snodo-coder-metadata-'));
  repository = join(root, 'repository');
  mkdirSync(repository, { recursive: true });
  writeFileSync(join(repository, 'package.json'), '{"name":"app","private":true}');
  // The SDK README's form: a `registration` export whose load builds the adapter.
  writePackage(
    'snodo-coder-acme',
    { type: 'module', exports: { '.': { import: './index.js', default: './index.js' } } },
    {
      'index.js': `export const registration = {
        id: 'acme', displayName: 'Acme Coder', kind: 'in-place', modelPrefix: 'acme-cli/',
        installHint: 'npm install -g acme-cli',
        load: (settings) => ({ ...${adapterSource('acme', 'Acme Coder', 'acme-cli/')}, flavour: settings.flavour }),
      };`,
    },
  );
  // A `./registration` subpath whose module is imported instead of the root (which would throw).
  writePackage(
    'snodo-coder-split',
    { type: 'module', exports: { '.': './index.js', './registration': './registration.js' } },
    {
      'index.js': "throw new Error('the root entry must not be imported for the metadata');",
      'registration.js': `export const registration = {
        id: 'split', displayName: 'Split Coder', kind: 'in-place', modelPrefix: 'split/',
        installHint: 'npm install snodo-coder-split',
        load: () => (${adapterSource('split', 'Split Coder', 'split/')}),
      };`,
    },
  );
  // The old form: a default factory; the metadata comes from the adapter it builds.
  writePackage(
    'snodo-coder-old',
    { type: 'module', main: 'index.js' },
    { 'index.js': `export default () => (${adapterSource('old', 'Old Style', 'oldie/')});` },
  );
  writePackage(
    'snodo-coder-empty',
    { type: 'module', main: 'index.js' },
    {
      'index.js':
        'export const somethingElse = 1; export class CustomCoder {}; export const createCustomCoder = () => new CustomCoder();',
    },
  );
  writePackage(
    'snodo-coder-throws',
    { type: 'module', main: 'index.js' },
    { 'index.js': "export default () => { throw new TypeError('settings.region is undefined'); };" },
  );
  writePackage(
    'snodo-coder-broken',
    { type: 'module', main: 'index.js' },
    { 'index.js': "import 'a-dependency-nobody-installed';\nexport default {};" },
  );
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function registryFrom(coders: Record<string, CoderSettings>) {
  const registrations = await loadConfigCoderRegistrations({ coders, resolveFrom: [repository] });
  return createCoderRegistry({
    registrations,
    defaultCoderId: Object.keys(coders)[0] ?? '',
    settings: coders,
  });
}

describe('package coders with their own metadata', () => {
  it('names and routes a coder by its registration export, and loads it with the config entry', async () => {
    const registry = await registryFrom({ acme: { package: 'snodo-coder-acme', flavour: 'dry' } });
    expect(registry.registration('acme')).toMatchObject({
      displayName: 'Acme Coder',
      modelPrefix: 'acme-cli/',
      installHint: 'npm install -g acme-cli',
    });
    expect(resolveCoderName({ registry, model: 'acme-cli/large' })).toEqual({
      coderId: 'acme',
      source: 'model-prefix',
    });
    await expect(registry.get('acme')).resolves.toMatchObject({ id: 'acme', flavour: 'dry' });
  });

  it('lets config override the display name and model prefix explicitly', async () => {
    const registry = await registryFrom({
      acme: { package: 'snodo-coder-acme', display_name: 'Our Acme', model_prefix: 'ours/' },
    });
    expect(registry.registration('acme')).toMatchObject({ displayName: 'Our Acme', modelPrefix: 'ours/' });
    expect(resolveCoderName({ registry, model: 'ours/x' })).toMatchObject({ coderId: 'acme' });
  });

  it('reads the metadata from the ./registration subpath without importing the root entry', async () => {
    const registry = await registryFrom({ split: { package: 'snodo-coder-split' } });
    expect(registry.registration('split')).toMatchObject({ displayName: 'Split Coder' });
    await expect(registry.get('split')).resolves.toMatchObject({ id: 'split' });
  });

  it('takes the metadata of the adapter a default factory builds', async () => {
    const registry = await registryFrom({ old: { package: 'snodo-coder-old' } });
    expect(registry.registration('old')).toMatchObject({ displayName: 'Old Style', modelPrefix: 'oldie/' });
    await expect(registry.get('old')).resolves.toMatchObject({ displayName: 'Old Style' });
  });
});

describe('snodo coders for a package coder that cannot give a coder', () => {
  const config = {} as SnodoConfig;

  async function statusOf(id: string, packageName: string) {
    const registry = await registryFrom({ [id]: { package: packageName } });
    return checkCoder(
      { registry, config: { ...config, coders: { [id]: { package: packageName } } }, env: {} },
      id,
    );
  }

  it('says installed, but exports no coder, with what it found and what to export', async () => {
    const status = await statusOf('empty', 'snodo-coder-empty');
    expect(status).toMatchObject({ installed: true, ready: false, installHint: null });
    expect(status.reason).toContain(
      'is installed, but exports no coder: it exports CustomCoder, createCustomCoder, somethingElse',
    );
    expect(status.fix).toContain('Export `registration`');
    expect(status.fix).toContain('`export { createCustomCoder as createCoder }`');
    expect(`${status.reason} ${status.fix}`).not.toContain('npm install');
  });

  it('says installed, but its import failed, with the import error', async () => {
    const status = await statusOf('broken', 'snodo-coder-broken');
    expect(status).toMatchObject({ installed: true, ready: false, installHint: null });
    expect(status.reason).toContain('is installed, but importing');
    expect(status.reason).toContain('a-dependency-nobody-installed');
  });

  it("shows the adapter's own name once loaded, even from a registration that imported nothing", async () => {
    const coders = { acme: { package: 'snodo-coder-acme' } };
    const registry = createCoderRegistry({
      registrations: createConfigCoderRegistrations({ coders, resolveFrom: [repository] }),
      defaultCoderId: 'acme',
      settings: coders,
    });
    expect(registry.registration('acme').displayName).toBe('acme');
    const status = await checkCoder({ registry, config: { ...config, coders }, env: {} }, 'acme');
    expect(status).toMatchObject({ displayName: 'Acme Coder', ready: true });
  });

  it('says installed, but building its coder failed, when its factory throws', async () => {
    const status = await statusOf('throws', 'snodo-coder-throws');
    expect(status).toMatchObject({ installed: true, ready: false, installHint: null });
    expect(status.reason).toContain(
      'is installed, but building its coder (export `default`) failed: settings.region is undefined',
    );
  });

  it('gives the npm hint only for a package that is not installed', async () => {
    const status = await statusOf('ghost', 'snodo-coder-ghost');
    expect(status).toMatchObject({ installed: false, ready: false });
    expect(status.installHint).toContain('npm install snodo-coder-ghost');
  });
});
