import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditKeyPermissionError } from './errors/audit-key-permission-error.js';
import { AuditKeyError } from './errors.js';
import { createSigningKey, keyIdOf, loadPublicKey, loadSigningKey } from './signing-key.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';

describe('signing keys', () => {
  const directory = useTemporaryDirectory();

  it('creates an ed25519 key with mode 0600 and its public key beside it, and loads it back', () => {
    const created = createSigningKey(join(directory(), 'home'));
    expect(created.path).toBeDefined();
    expect(statSync(created.path!).mode & 0o777).toBe(0o600);
    expect(readFileSync(created.path!, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(readFileSync(created.publicKeyPath!, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(created.keyId).toMatch(/^[0-9a-f]{16}$/);
    const loaded = loadSigningKey(created.path!);
    expect(loaded.keyId).toBe(created.keyId);
    expect(keyIdOf(loadPublicKey(created.publicKeyPath!))).toBe(created.keyId);
  });

  it('refuses a key file readable by group or others and says to chmod 600 it', () => {
    const created = createSigningKey(directory());
    chmodSync(created.path!, 0o644);
    let caught: unknown;
    try {
      loadSigningKey(created.path!);
    } catch (error) {
      caught = error;
    }
    expect(AuditKeyPermissionError.isInstance(caught)).toBe(true);
    const error = caught as AuditKeyPermissionError;
    expect(error.code).toBe('AUDIT_KEY_PERMISSIONS');
    expect(error.mode).toBe(0o644);
    expect(error.message).toContain(`chmod 600 ${created.path}`);
    expect(error.message).toContain('0644');
    chmodSync(created.path!, 0o600);
    expect(loadSigningKey(created.path!).keyId).toBe(created.keyId);
  });

  it('never overwrites an existing key', () => {
    const first = createSigningKey(directory());
    expect(() => createSigningKey(directory())).toThrow(AuditKeyError);
    expect(loadSigningKey(first.path!).keyId).toBe(first.keyId);
  });

  it('refuses a key that is not ed25519, and a missing file, with typed errors', () => {
    const path = join(directory(), 'rsa.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    expect(() => loadSigningKey(path)).toThrow(/not ed25519/);
    expect(() => loadSigningKey(join(directory(), 'missing.pem'))).toThrow(AuditKeyError);
  });
});
