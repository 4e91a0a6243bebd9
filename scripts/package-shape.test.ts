import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every workspace package looks the same (STYLE.md, "The house"), so a reader knows where a line belongs. */
const root = join(import.meta.dirname, '..');
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
