import { canonicalize } from 'json-canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { AuditEventError } from './errors/audit-event-error.js';

function fromIeee754(bits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${bits}`));
  return view.getFloat64(0);
}

describe('canonicalJson (RFC 8785)', () => {
  it('produces the RFC 3.2.2 sample output byte for byte (numbers, literals, string escaping)', () => {
    // The RFC's input text, parsed as a JSON parser would.
    const input = JSON.parse(
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50,\n              2e-3, 0.000000000000000000000000001],\n' +
        '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n  "literals": [null, true, false]\n}',
    );
    const expected =
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    expect(canonicalJson(input)).toBe(expected);
    // RFC 3.2.4 gives the UTF-8 bytes of that output; the first and last ones pin the encoding.
    const bytes = Buffer.from(canonicalJson(input), 'utf8');
    expect([...bytes.subarray(0, 4)]).toEqual([0x7b, 0x22, 0x6c, 0x69]);
    expect([...bytes.subarray(-3)]).toEqual([0x2f, 0x22, 0x7d]);
    expect(bytes.includes(Buffer.from([0xe2, 0x82, 0xac]))).toBe(true); // € as UTF-8, not escaped
  });

  it('sorts properties by UTF-16 code units (RFC 3.2.3), not by code points or locale', () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",' +
        '"\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    );
    const output = canonicalJson(input);
    const keys = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const positions = keys.map((key) => output.indexOf(`${JSON.stringify(key)}:`));
    // U+1F600 (a surrogate pair starting 0xD83D) sorts before U+FB33 by code unit, after it by code point.
    expect(positions.every((position, index) => position > (positions[index - 1] ?? -1))).toBe(true);
    expect(output).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('serialises every finite number of RFC Appendix B as ECMAScript does', () => {
    const vectors: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, expected] of vectors) expect(canonicalJson(fromIeee754(bits)), bits).toBe(expected);
  });

  it('refuses NaN and Infinity (RFC Appendix B) and other values outside I-JSON', () => {
    expect(() => canonicalJson(fromIeee754('7fffffffffffffff'))).toThrow(/NaN/);
    expect(() => canonicalJson(fromIeee754('7ff0000000000000'))).toThrow(/Infinity/);
    expect(() => canonicalJson({ text: 'lone \ud800 surrogate' })).toThrow(/lone UTF-16 surrogate/);
    expect(() => canonicalJson({ when: new Date(0) })).toThrow(/Date instance/);
    expect(() => canonicalJson({ missing: undefined })).toThrow(/undefined/);
    expect(() => canonicalJson([1n])).toThrow(/bigint/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/nested deeper/);
    try {
      canonicalJson(Number.NaN);
    } catch (error) {
      expect(AuditEventError.isInstance(error)).toBe(true);
    }
  });

  it('escapes control characters in lowercase \\u form and leaves "/" and non-ASCII alone', () => {
    expect(canonicalJson('\u0000\u001f\b\f\n\r\t"\\/é\u2028')).toBe(
      '"\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/é\u2028"',
    );
  });

  it('refuses non-integers in integers-only mode, the mode audit events use', () => {
    expect(canonicalJson({ count: 3 }, { integersOnly: true })).toBe('{"count":3}');
    expect(() => canonicalJson({ cost: 0.25 }, { integersOnly: true })).toThrow(/only integers/);
    expect(() => canonicalJson({ big: 2 ** 53 }, { integersOnly: true })).toThrow(/only integers/);
  });

  it('agrees with the json-canonicalize package on nested data', () => {
    const samples: unknown[] = [
      { b: [1, { z: null, a: 'x' }], a: { '': true, ' ': false }, é: -0, E: 1e21 },
      [[], {}, '', 0, -1.5, 'tab\there', { '\u00e9': 1, e: 2, '\ud83d\ude00': 3 }],
      { nested: { deeper: { deepest: [1, 2, 3, { key: 'value' }] } } },
    ];
    for (const sample of samples) expect(canonicalJson(sample)).toBe(canonicalize(sample));
  });
});
