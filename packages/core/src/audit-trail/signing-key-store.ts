import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSigningKey, loadSigningKey, SIGNING_KEY_FILE, type SigningKey } from '@snodo/audit';
import { signingKeyDirectory } from './audit-paths.js';

/**
 * Loads snodo's ed25519 signing key from `$SNODO_HOME/keys/`, creating it (mode 0600 in a 0700 directory)
 * on first use. A key readable by group or others is refused by `loadSigningKey` with the fix.
 */
export function loadOrCreateSigningKey(snodoHome: string): SigningKey {
  const directory = signingKeyDirectory(snodoHome);
  const keyPath = join(directory, SIGNING_KEY_FILE);
  if (existsSync(keyPath)) return loadSigningKey(keyPath);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  return createSigningKey(directory);
}
