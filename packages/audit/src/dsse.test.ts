import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openEnvelope, preAuthEncoding, signEnvelope } from './dsse.js';
import { keyIdOf, type SigningKey } from './signing-key.js';

function memoryKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

describe('DSSE', () => {
  it('encodes the PAE test vector of the DSSE specification', () => {
    expect(preAuthEncoding('http://example.com/HelloWorld', 'hello world').toString('utf8')).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });

  it('counts lengths in bytes, not characters', () => {
    // "é" is 2 bytes, "€" 3 bytes in UTF-8.
    expect(preAuthEncoding('t/é', '€€').toString('utf8')).toBe('DSSEv1 4 t/é 6 €€');
  });

  it('signs the PAE so that a verifier accepts the envelope and gets the payload back', () => {
    const key = memoryKey();
    const envelope = signEnvelope('application/example', Buffer.from('{"a":1}'), key);
    expect(envelope.signatures[0]?.keyid).toBe(key.keyId);
    const opened = openEnvelope(envelope, [key.publicKey]);
    expect(opened).toMatchObject({ ok: true, keyId: key.keyId });
    expect(opened.ok && opened.payload.toString()).toBe('{"a":1}');
  });

  it('rejects a changed payload, a changed payload type, and another key', () => {
    const key = memoryKey();
    const envelope = signEnvelope('application/example', Buffer.from('{"a":1}'), key);
    const otherPayload = { ...envelope, payload: Buffer.from('{"a":2}').toString('base64') };
    expect(openEnvelope(otherPayload, [key.publicKey]).ok).toBe(false);
    // The type is inside the PAE: relabelling the same payload breaks the signature.
    expect(openEnvelope({ ...envelope, payloadType: 'application/other' }, [key.publicKey]).ok).toBe(false);
    expect(openEnvelope(envelope, [memoryKey().publicKey]).ok).toBe(false);
    expect(openEnvelope({ payload: 'x' }, [key.publicKey])).toMatchObject({ ok: false });
  });
});
