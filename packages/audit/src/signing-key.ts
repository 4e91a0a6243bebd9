import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AuditKeyPermissionError } from './errors/audit-key-permission-error.js';
import { AuditKeyError } from './errors.js';

/** File name of the private key `createSigningKey` writes (PKCS#8 PEM, mode 0600). */
export const SIGNING_KEY_FILE = 'audit-signing-key.pem';
/** File name of the public key written beside it (SPKI PEM), to hand to verifiers. */
export const PUBLIC_KEY_FILE = 'audit-signing-key.pub.pem';

/**
 * An ed25519 key that signs checkpoints and attestations. Loaded once per `snodo run` from `$SNODO_HOME`
 * (never from the repository, never passed to a coder's environment).
 */
export interface SigningKey {
  /** First 16 hex digits of SHA-256 over the raw 32-byte public key; names the key in signatures. */
  readonly keyId: string;
  /** The private key; only `node:crypto` ever sees it. */
  readonly privateKey: KeyObject;
  /** The matching public key. */
  readonly publicKey: KeyObject;
  /** The private key file, when loaded from or written to disk. */
  readonly path?: string;
  /** The public key file `createSigningKey` wrote beside the private key. */
  readonly publicKeyPath?: string;
}

/**
 * Creates a new ed25519 key pair in `directory` (created 0700 if missing): the private key as PKCS#8 PEM
 * with mode 0600, the public key beside it. Refuses to overwrite an existing key, since that would orphan
 * every checkpoint it signed. Called by `snodo init` / on first run.
 */
export function createSigningKey(directory: string): SigningKey {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const path = join(directory, SIGNING_KEY_FILE);
  const publicKeyPath = join(directory, PUBLIC_KEY_FILE);
  const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  writeNewFile(path, privatePem, 0o600);
  writeNewFile(publicKeyPath, publicPem, 0o644);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey, path, publicKeyPath };
}

/**
 * Loads a private signing key, refusing a file the group or others can read (or that another user owns):
 * a key others can read proves nothing. The error says to `chmod 600` the file.
 */
export function loadSigningKey(path: string): SigningKey {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch (cause) {
    throw new AuditKeyError({
      path,
      problem: 'the file cannot be read',
      fix: 'Create a key with `snodo init` or point the config at the right file.',
      cause,
    });
  }
  if (!stats.isFile()) {
    throw new AuditKeyError({ path, problem: 'it is not a file', fix: 'Point the config at the key file.' });
  }
  // NOTE: Windows has no POSIX mode bits; there the ACL of $SNODO_HOME is what protects the key.
  if (process.platform !== 'win32') {
    if ((stats.mode & 0o077) !== 0) throw new AuditKeyPermissionError({ path, mode: stats.mode });
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) {
      throw new AuditKeyPermissionError({
        path,
        mode: stats.mode,
        problem: `is owned by uid ${stats.uid}, not by the current user (uid ${uid})`,
      });
    }
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(path));
  } catch (cause) {
    throw new AuditKeyError({
      path,
      problem: 'it is not a PEM private key',
      fix: 'Restore the key file or create a new one with `snodo init`.',
      cause,
    });
  }
  requireEd25519(privateKey, path);
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey, path };
}

/**
 * A public key for verification, from a `KeyObject`, PEM text, or the path of a PEM file (public or
 * private; a private key yields its public half). Verifiers call it with what the user handed them.
 */
export function loadPublicKey(source: KeyObject | string): KeyObject {
  if (typeof source !== 'string') {
    const key = source.type === 'private' ? createPublicKey(source) : source;
    requireEd25519(key, undefined);
    return key;
  }
  const isPem = source.trimStart().startsWith('-----BEGIN');
  let pem: string;
  try {
    pem = isPem ? source : readFileSync(source, 'utf8');
  } catch (cause) {
    throw new AuditKeyError({
      path: source,
      problem: 'the file cannot be read',
      fix: 'Pass the public key file written beside the signing key (audit-signing-key.pub.pem).',
      cause,
    });
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (cause) {
    throw new AuditKeyError({
      ...(isPem ? {} : { path: source }),
      problem: 'it is not a PEM public or private key',
      fix: 'Pass the public key file written beside the signing key (audit-signing-key.pub.pem).',
      cause,
    });
  }
  requireEd25519(key, isPem ? undefined : source);
  return key;
}

/** The key id of an ed25519 public key: the first 16 hex digits of SHA-256 over its raw 32 bytes. */
export function keyIdOf(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(jwk.x ?? '', 'base64url');
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

function requireEd25519(key: KeyObject, path: string | undefined): void {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new AuditKeyError({
      ...(path === undefined ? {} : { path }),
      problem: `it is a ${key.asymmetricKeyType ?? 'symmetric'} key, not ed25519`,
      fix: 'snodo signs with ed25519 keys only; create one with `snodo init`.',
    });
  }
}

function writeNewFile(path: string, content: string, mode: number): void {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'wx', mode);
  } catch (cause) {
    throw new AuditKeyError({
      path,
      problem: 'a file already exists there (or the directory is not writable)',
      fix: 'Keep the existing key; move it away first only if you mean to replace it.',
      cause,
    });
  }
  try {
    writeSync(descriptor, content);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
