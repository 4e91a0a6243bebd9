import { isUtf8 } from 'node:buffer';
import { hash as digest } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent, AuditEventBody } from './audit-event.js';
import { eventLineFields, HASH_FIELD_BYTES, scanEventLine } from './canonical-event-line.js';
import { EVENT_HASH_DOMAIN, hashCanonicalLine, serializeEvent } from './event-hash.js';
import { checkEventShape, isShapeProblem } from './event-shape.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { writeLines, writeTestLog } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

const prev = 'a'.repeat(64);

function body(data: AuditEventBody['data'], extra: Partial<AuditEventBody> = {}): AuditEventBody {
  return {
    v: 1,
    seq: 7,
    ts: '2025-01-31T12:00:00.000Z',
    type: 'gate-verdict',
    job: 'j_abc',
    actor: 'snodo',
    data,
    prev,
    ...extra,
  };
}

/**
 * What the parsing check accepts as the form of a line: it is an event, and it is exactly how
 * `serializeEvent` renders it with the hash it carries (whether that hash is right is the next check).
 */
function parsingCheckAccepts(line: string): boolean {
  try {
    const event = checkEventShape(JSON.parse(line));
    if (isShapeProblem(event)) return false;
    const { hash, ...rest } = event;
    const rendered = serializeEvent(rest);
    return rendered.line.replace(`"hash":"${rendered.hash}"`, `"hash":"${hash}"`) === line;
  } catch {
    return false;
  }
}

function fastCheckAccepts(line: string | Buffer): boolean {
  const bytes = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
  return isUtf8(bytes) && scanEventLine(bytes, eventLineFields());
}

/** The line with its hash field replaced by the hash of its own bytes, as a forger hashing raw text would. */
function hashedAsWritten(line: Buffer): Buffer {
  const at = line.indexOf(',"hash":"');
  const hashed = Buffer.concat([
    Buffer.from(EVENT_HASH_DOMAIN),
    line.subarray(0, at),
    line.subarray(at + HASH_FIELD_BYTES),
  ]);
  const forged = Buffer.from(line);
  forged.write(digest('sha256', hashed, 'hex'), at + 9, 'latin1');
  return forged;
}

/** A small deterministic generator, so a failing variant is the same one on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const writtenData: AuditEventBody['data'][] = [
  {},
  { validator: 'security', severity: 'pass', findings: [], attempt: 1, duration_ms: 1234 },
  { nested: { deeper: [1, -2, 0, [true, false, null], { z: 'last', a: 'first' }] } },
  { limits: [9_007_199_254_740_991, -9_007_199_254_740_991] },
  { '10': 'ten', '9': 'nine', a: 'letter', 'b-c': 'dash', B: 'upper', a_b: 'underscore', aa: 'prefix' },
  {
    text: 'quote " backslash \\ slash / tab \t newline \n cr \r bell \u0007 nul \u0000 us \u001f del \u007f',
  },
  { text: 'accents é ü, CJK 漢字, emoji 😀, separators \u2028 \u2029, bom \ufeff' },
  { empty: '', space: ' ', braces: '{"not":"json"}' },
];

describe('scanEventLine', () => {
  it('vouches for every line serializeEvent writes, and hashes it exactly as serializeEvent does', () => {
    for (const data of writtenData) {
      const { job: _none, ...withoutJob } = body(data);
      const variants = [body(data), withoutJob, body(data, { seq: 0, ts: '2025-01-31T12:00:00+01:00' })];
      for (const event of variants) {
        const { hash, line } = serializeEvent(event);
        const bytes = Buffer.from(line, 'utf8');
        const fields = eventLineFields();
        expect(scanEventLine(bytes, fields), line).toBe(true);
        expect(fields.seq).toBe(event.seq);
        expect(hashCanonicalLine(bytes, fields.hashField)).toBe(hash);
        expect(bytes.toString('latin1', fields.prev, fields.prev + 64)).toBe(prev);
      }
    }
  });

  it('tells the log-create and log-recover events apart from ordinary ones', () => {
    const kind = (type: string) => {
      const fields = eventLineFields();
      scanEventLine(Buffer.from(serializeEvent(body({}, { type })).line), fields);
      return fields.kind;
    };
    expect([kind('log-create'), kind('log-recover'), kind('log-created'), kind('job-start')]).toEqual([
      'log-create',
      'log-recover',
      'event',
      'event',
    ]);
  });

  it('never vouches for a line that differs from the canonical rendering of what it parses to', () => {
    const base = serializeEvent(body({ b: 'two', n: 12, list: [1, 'x', { k: true }] })).line;
    // Each edit, and who accepts the result: both checks, only the parsing one (a canonical line the
    // fast check leaves to it), or neither.
    const edits: [string, string, 'both' | 'parser' | 'neither'][] = [
      ['"n":12', '"n":9007199254740991', 'both'],
      ['"n":12', '"n":-3', 'both'],
      ['"b":"two","list"', '"list"', 'both'],
      [',"job":"j_abc"', '', 'both'],
      ['"b":', '"__proto__":', 'both'],
      ['"two"', '"t\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001fo"', 'both'],
      ['"b":', '"b\\"":', 'parser'],
      ['"b":', '"B\\u0001":', 'parser'],
      ['"n":12', '"n": 12', 'neither'],
      ['"n":12', '"n":012', 'neither'],
      ['"n":12', '"n":12.0', 'neither'],
      ['"n":12', '"n":1.2e1', 'neither'],
      ['"n":12', '"n":1E1', 'neither'],
      ['"n":12', '"n":-0', 'neither'],
      ['"n":12', '"n":9007199254740992', 'neither'],
      ['"n":12', '"n":-9007199254740992', 'neither'],
      ['"n":12', '"n":12,"n":12', 'neither'],
      ['"b":"two",', '"z":"two",', 'neither'],
      ['"b":', '"é":', 'neither'],
      ['"two"', '"t\\u0077o"', 'neither'],
      ['"two"', '"t\\/o"', 'neither'],
      ['"two"', '"t\\u000Ao"', 'neither'],
      ['"two"', '"t\\u000ao"', 'neither'],
      ['"two"', '"t\\u001Fo"', 'neither'],
      ['"two"', '"t\\u007fo"', 'neither'],
      ['"two"', '"\\ud800"', 'neither'],
      ['"two"', '"\\ud83d\\ude00"', 'neither'],
      ['"two"', '"t\u0001o"', 'neither'],
      ['"two"', '"t\to"', 'neither'],
      ['"two"', "'two'", 'neither'],
      ['"k":true', '"k":True', 'neither'],
      ['[1,', '[1 ,', 'neither'],
      ['[1,', '[01,', 'neither'],
      ['"actor":"snodo"', '"actor":""', 'neither'],
      ['"job":"j_abc"', '"job":""', 'neither'],
      ['"type":"gate-verdict"', '"type":"Gate-verdict"', 'neither'],
      ['"type":"gate-verdict"', '"type":"gate--verdict"', 'neither'],
      ['"type":"gate-verdict"', '"type":"gate-"', 'neither'],
      ['"ts":"2025-01-31T12:00:00.000Z"', '"ts":"2025-01-31 12:00:00.000Z"', 'neither'],
      ['"ts":"2025-01-31T12:00:00.000Z"', '"ts":"2025-01-31T12:00:00.Z"', 'neither'],
      ['"ts":"2025-01-31T12:00:00.000Z"', '"ts":"2025-01-31T12:00:00+0100"', 'neither'],
      ['"seq":7', '"seq":-7', 'neither'],
      ['"seq":7', '"seq":07', 'neither'],
      ['"seq":7', '"seq":"7"', 'neither'],
      ['"v":1}', '"v":2}', 'neither'],
      ['"v":1}', '"v":1,"w":1}', 'neither'],
      ['"v":1}', '"v":1} ', 'neither'],
      [`"prev":"${prev}"`, `"prev":"${prev.toUpperCase()}"`, 'neither'],
      [`"prev":"${prev}"`, `"prev":"${prev.slice(1)}"`, 'neither'],
      ['{"actor"', '\ufeff{"actor"', 'neither'],
      ['{"actor":"snodo","data":', '{"data":{},"actor":"snodo","data":', 'neither'],
    ];
    for (const [from, to, accepted] of edits) {
      expect(base.includes(from), from).toBe(true);
      const line = base.replace(from, to);
      expect(parsingCheckAccepts(line), `parsing check on ${to}`).toBe(accepted !== 'neither');
      expect(fastCheckAccepts(line), `fast check on ${to}`).toBe(accepted === 'both');
    }
  });

  it('accepts no random edit of a line that the parsing check refuses', () => {
    const base = Buffer.from(
      serializeEvent(body({ a: [1, -2, { b: 'x\ny' }], c: 'é', d: null, e: 900 })).line,
      'utf8',
    );
    const alphabet = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x20, 0x30, 0x31, 0x2d, 0x2e];
    const extra = [0x65, 0x75, 0x61, 0x01, 0xc3, 0xa9, 0xff, 0x66, 0x6e, 0x74];
    const next = random(14);
    let vouched = 0;
    for (let round = 0; round < 4000; round++) {
      let bytes = Buffer.from(base);
      for (let edit = 1 + Math.floor(next() * 3); edit > 0; edit--) {
        const at = Math.floor(next() * bytes.length);
        const pool = next() < 0.7 ? alphabet : extra;
        const byte = pool[Math.floor(next() * pool.length)]!;
        const action = next();
        if (action < 0.34)
          bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at)]);
        else if (action < 0.67) bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
        else bytes[at] = byte;
      }
      if (!fastCheckAccepts(bytes)) continue;
      vouched++;
      expect(parsingCheckAccepts(bytes.toString('utf8')), bytes.toString('utf8')).toBe(true);
    }
    // Some edits keep the line canonical (a digit for a digit): the property was tested on real matches.
    expect(vouched).toBeGreaterThan(0);
  });
});

describe('verifyAuditLog on lines forged in a form snodo never writes', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), 'audit.log');

  it('refuses them even when the forger hashed the bytes as written', async () => {
    const forgeries = [
      (line: string) => line.replace('"index":2', '"index": 2'),
      (line: string) => line.replace('"index":2,"note":"step 2"', '"note":"step 2","index":2'),
      (line: string) => line.replace('"index":2', '"index":2,"index":2'),
      (line: string) => line.replace('"step 2"', '"step \\u0032"'),
      (line: string) => line.replace('"index":2', '"index":2.0'),
    ];
    for (const [index, forge] of forgeries.entries()) {
      const path = join(directory(), `forged-${index}.log`);
      const lines = await writeTestLog(path, 4);
      const forged = hashedAsWritten(Buffer.from(forge(lines[2]!), 'utf8'));
      expect(forged.toString('utf8')).not.toBe(lines[2]);
      writeLines(path, [lines[0]!, lines[1]!, forged.toString('utf8'), lines[3]!]);
      const result = await verifyAuditLog(path);
      expect(result, forged.toString('utf8')).toMatchObject({ ok: false, failure: { line: 3, seq: 2 } });
    }
  });

  it('refuses a line whose bytes are not UTF-8, even hashed as written', async () => {
    const lines = await writeTestLog(logPath(), 4);
    const bytes = Buffer.from(lines[2]!, 'utf8');
    bytes[bytes.indexOf('step 2') + 4] = 0xff;
    const forged = hashedAsWritten(bytes);
    const file = Buffer.concat([
      Buffer.from(`${lines[0]}\n${lines[1]}\n`),
      forged,
      Buffer.from(`\n${lines[3]}\n`),
    ]);
    writeFileSync(logPath(), file);
    expect(await verifyAuditLog(logPath())).toMatchObject({ ok: false, failure: { line: 3, seq: 2 } });
  });

  it('still accepts a canonical line the fast check leaves to the parser (a key with an accent)', async () => {
    const lines = await writeTestLog(logPath(), 3);
    const head = JSON.parse(lines[2]!) as AuditEvent;
    const next = serializeEvent({ ...body({ é: 'accent', '\u0007': 'bell' }), seq: 3, prev: head.hash }).line;
    expect(fastCheckAccepts(next)).toBe(false);
    writeLines(logPath(), [...lines, next]);
    expect(await verifyAuditLog(logPath())).toMatchObject({ ok: true, events: 4 });
  });
});
