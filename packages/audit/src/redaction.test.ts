import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { AuditOptionsError } from './errors.js';
import { openAuditLog } from './open-audit-log.js';
import { Redactor } from './redactor.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';
import { readLines } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

const canary = 'sk-CANARY+test/key=42&more secret';

/** `true` when any base64 or base64url run in `text` decodes (at any alignment) to bytes containing `secret`. */
function base64Contains(text: string, secret: string): boolean {
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []) {
    for (let shift = 0; shift < 4; shift++) {
      const decoded = Buffer.from(run.slice(shift).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      if (decoded.includes(Buffer.from(secret))) return true;
    }
  }
  return false;
}

describe('redaction', () => {
  const directory = useTemporaryDirectory();

  it('never lets a registered canary secret reach the file: raw, base64, base64url or URL-encoded', async () => {
    const path = join(directory(), 'audit.log');
    const log = await openAuditLog(path, { repository: testRepository, secrets: [canary] });
    const forms = {
      raw: canary,
      embedded: `the key is ${canary}.`,
      base64: Buffer.from(canary).toString('base64'),
      base64url: Buffer.from(canary).toString('base64url'),
      basicAuth: `Basic ${Buffer.from(`user:${canary}`).toString('base64')}`,
      shifted: Buffer.from(`xy${canary}z`).toString('base64'),
      urlEncoded: `https://example.com/?key=${encodeURIComponent(canary)}`,
      formEncoded: encodeURIComponent(canary).replace(/%20/g, '+'),
      list: [canary, { deeper: canary }],
      [`key-${canary}`]: 'a secret inside a key',
    };
    await log.append({ type: 'coder-start', actor: `user:${canary}`, job: 'j_1', data: forms });
    await log.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(canary);
    expect(text).not.toContain(encodeURIComponent(canary));
    expect(text).not.toContain(Buffer.from(canary).toString('base64'));
    expect(text).not.toContain(Buffer.from(canary).toString('base64url'));
    expect(base64Contains(text, canary)).toBe(false);
    expect(text).toContain('[REDACTED]');
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, events: 2 });
  });

  it('masks secrets registered after opening, for later events', async () => {
    const path = join(directory(), 'audit.log');
    const log = await openAuditLog(path, { repository: testRepository });
    log.addSecret(canary);
    await log.append({ type: 'coder-start', data: { argv: ['--key', canary] } });
    await log.close();
    expect(readFileSync(path, 'utf8')).not.toContain(canary);
  });

  it('masks values under secret-looking keys, case-insensitive and nested, and keeps look-alikes', async () => {
    const path = join(directory(), 'audit.log');
    const log = await openAuditLog(path, { repository: testRepository, secretKeys: ['license'] });
    await log.append({
      type: 'coder-resolve',
      data: {
        api_key: 'v1',
        apiKey: 'v2',
        TOKEN: 'v3',
        Authorization: 'Bearer v4',
        cookie: 'v5',
        password: 'v6',
        client_secret: 'v7',
        OPENAI_API_KEY: 'v8',
        nested: { headers: { 'X-Api-Key': 'v9', 'Set-Cookie': ['v10'] }, list: [{ github_token: 'v11' }] },
        license: 'v12',
        credentials: { user: 'v13', secret: 'v14' },
        inputTokens: 120,
        max_tokens: 4096,
        token_count: 7,
        password_set: true,
        token_missing: null,
        has_password: false,
      },
    });
    await log.close();
    const event = JSON.parse(readLines(path)[1]!) as AuditEvent;
    const text = readFileSync(path, 'utf8');
    for (let index = 1; index <= 14; index++) {
      // `credentials` describes credentials (`credentials: { user, secret }`): its secret is masked, not it.
      if (index !== 13) expect(text).not.toContain(`"v${index}"`);
    }
    expect(text).not.toContain('Bearer v4');
    expect(event.data).toMatchObject({
      api_key: '[REDACTED]',
      apiKey: '[REDACTED]',
      TOKEN: '[REDACTED]',
      Authorization: '[REDACTED]',
      nested: {
        headers: { 'X-Api-Key': '[REDACTED]', 'Set-Cookie': '[REDACTED]' },
        list: [{ github_token: '[REDACTED]' }],
      },
      license: '[REDACTED]',
      credentials: { user: 'v13', secret: '[REDACTED]' },
      inputTokens: 120,
      max_tokens: 4096,
      token_count: 7,
      has_password: false,
      token_missing: null,
    });
  });

  it('records where credentials come from as is (regression: the mock coder showed `credentials: [REDACTED]`)', async () => {
    const path = join(directory(), 'audit.log');
    const log = await openAuditLog(path, { repository: testRepository, secrets: [canary] });
    await log.append({ type: 'coder-resolve', data: { coder: 'mock', credentials: 'none' } });
    await log.append({
      type: 'coder-resolve',
      data: { coder: 'x', credentials: { envVars: ['X_API_KEY'] } },
    });
    await log.append({ type: 'coder-resolve', data: { coder: 'y', credentials: canary } });
    await log.close();
    const events = readLines(path)
      .slice(1)
      .map((line) => (JSON.parse(line) as AuditEvent).data);
    expect(events).toEqual([
      { coder: 'mock', credentials: 'none' },
      { coder: 'x', credentials: { envVars: ['X_API_KEY'] } },
      // A real key under that name is still masked: by its value.
      { coder: 'y', credentials: '[REDACTED]' },
    ]);
  });

  it('refuses secrets too short to mask without mangling ordinary text', () => {
    expect(() => new Redactor({ secrets: ['abc'] })).toThrow(AuditOptionsError);
    expect(new Redactor({ secrets: ['abcd'] }).redactString('xabcdx')).toBe('x[REDACTED]x');
  });
});
