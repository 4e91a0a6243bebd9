import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every workspace package looks the same (STYLE.md, "The house"), so a reader knows where a line belongs. */
const root = join(import.meta.dirname, '..');
const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');

/**
 * Relative link targets of a README (`[x](./COMPAT.md)`), without anchors, outside code; absolute URLs are
 * not files.
 */
function relativeLinks(readme: string): string[] {
  const prose = readme.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => (match[1] ?? '').split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Whether `file` (relative to the package) is in the tarball by the manifest's `files` (npm adds package.json). */
function isPublished(manifest: { files?: string[] }, file: string): boolean {
  const normal = file.replace(/^\.\//, '');
  return (manifest.files ?? []).some((entry) => normal === entry || normal.startsWith(`${entry}/`));
}
const packageDirs = ['packages', 'apps'].flatMap((group) =>
  existsSync(join(root, group))
    ? readdirSync(join(root, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(group, entry.name))
    : [],
);

describe('package shape', () => {
  it('finds the workspace packages', () => {
    expect(packageDirs.length).toBeGreaterThan(0);
  });

  it('documents the /registration convention and the loader export names in the SDK README', () => {
    const readme = readFileSync(join(root, 'packages/coder-sdk/README.md'), 'utf8');
    expect(readme).toContain('/registration');
    for (const name of ['`registration`', '`default`', '`createCoder`', '`coder`'])
      expect(readme).toContain(name);
  });

  for (const dir of packageDirs) {
    describe(dir, () => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));

      it('has the house files', () => {
        for (const file of [
          'package.json',
          'README.md',
          'CHANGELOG.md',
          'tsconfig.json',
          'tsup.config.ts',
          'src/index.ts',
        ]) {
          expect(existsSync(join(root, dir, file)), `${dir}/${file}`).toBe(true);
        }
      });

      it('is ESM only, side-effect free, Node >= 20.19, exports starting with ./package.json and types first', () => {
        expect(manifest.type).toBe('module');
        expect(manifest.engines?.node).toBe('>=20.19');
        if (manifest.private) return;
        expect(manifest.sideEffects).toBe(false);
        expect(manifest.publishConfig?.access).toBe('public');
        const exportKeys = Object.keys(manifest.exports ?? {});
        expect(exportKeys[0]).toBe('./package.json');
        for (const key of exportKeys.slice(1)) {
          const conditions = manifest.exports[key];
          if (typeof conditions === 'object') expect(Object.keys(conditions)[0]).toBe('types');
        }
      });

      it('publishes the repository LICENSE, every file its README links, and a default export condition', () => {
        if (manifest.private) return;
        // NOTE: the repository had no license of its own; every package.json already said MIT, so LICENSE is MIT.
        expect(manifest.license).toBe('MIT');
        expect(readFileSync(join(root, dir, 'LICENSE'), 'utf8'), `${dir}/LICENSE`).toBe(rootLicense);
        expect(isPublished(manifest, 'LICENSE'), `${dir} files lists LICENSE`).toBe(true);
        const readme = readFileSync(join(root, dir, 'README.md'), 'utf8');
        for (const target of relativeLinks(readme)) {
          expect(existsSync(join(root, dir, target)), `${dir}/README.md links ${target}, which exists`).toBe(
            true,
          );
          expect(
            isPublished(manifest, target),
            `${dir}/README.md links ${target}: publish it or link the repository`,
          ).toBe(true);
        }
        // require(esm) on Node >= 20.19 needs a condition `require()` matches: `default` (or `require`).
        for (const [key, conditions] of Object.entries<unknown>(manifest.exports ?? {})) {
          if (typeof conditions !== 'object' || conditions === null) continue;
          const keys = Object.keys(conditions);
          expect(keys.includes('default') || keys.includes('require'), `${dir} exports ${key} default`).toBe(
            true,
          );
        }
      });

      it('documents every exported subpath in its README', () => {
        if (manifest.private) return;
        const readme = readFileSync(join(root, dir, 'README.md'), 'utf8');
        for (const key of Object.keys(manifest.exports ?? {})) {
          if (key === '.' || key === './package.json') continue;
          // A coder package's `/registration` is the SDK's convention, documented once in the SDK README.
          if (key === './registration' && dir.startsWith('packages/coder-')) continue;
          expect(readme, `${dir}/README.md documents ${manifest.name}${key.slice(1)}`).toContain(
            `${manifest.name}${key.slice(1)}`,
          );
        }
      });

      it('pins external versions through the catalog and internal ones through workspace:^', () => {
        for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
          for (const [name, range] of Object.entries<string>(manifest[field] ?? {})) {
            if (name.startsWith('@snodo/') || name === 'snodo') {
              expect(range, `${dir} ${field} ${name}`).toBe('workspace:^');
            } else if (field !== 'peerDependencies') {
              expect(range, `${dir} ${field} ${name}`).toBe('catalog:');
            }
          }
        }
      });
    });
  }
});
