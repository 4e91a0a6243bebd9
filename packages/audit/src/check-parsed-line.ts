import { type AuditEvent, LOG_CREATE_TYPE } from './audit-event.js';
import { AuditEventError } from './errors/audit-event-error.js';
import { type SerializedEvent, serializeEvent } from './event-hash.js';
import { checkEventShape, checkGenesis, isShapeProblem, type ShapeProblem } from './event-shape.js';

/**
 * The parsing check of one line against the chain's head (`undefined`: the line must be the genesis):
 * parse, shape, re-serialise, compare hash and bytes, then seq and link. Slower than the byte check
 * `ChainVerifier` tries first, and the one that says what is wrong with a line.
 */
export function checkParsedLine(
  bytes: Buffer,
  head: { readonly seq: number; readonly hash: string } | undefined,
): AuditEvent | ShapeProblem {
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { code: 'E_PARSE', reason: 'the line is not valid JSON' };
  }
  const event = checkEventShape(parsed);
  if (isShapeProblem(event)) return event;
  const seq = event.seq;
  let serialized: SerializedEvent;
  try {
    serialized = serializeEvent(event);
  } catch (error) {
    const problem = AuditEventError.isInstance(error) ? error.problem : String(error);
    return { code: 'E_FIELD', reason: `the event ${problem}`, seq };
  }
  if (serialized.hash !== event.hash) {
    return {
      code: 'E_HASH',
      reason: `the stored hash ${event.hash} is not the hash of the line's content (${serialized.hash}): the line was edited`,
      seq,
    };
  }
  if (serialized.line !== text) {
    // Same content, other bytes (whitespace, key order, escapes, a duplicate key): not written by snodo.
    return { code: 'E_PARSE', reason: 'the line is not in RFC 8785 canonical form', seq };
  }
  if (head === undefined) {
    const problem = checkGenesis(event);
    return problem === undefined ? event : { code: 'E_GENESIS', reason: problem, seq };
  }
  if (event.type === LOG_CREATE_TYPE) {
    return { code: 'E_GENESIS', reason: 'a second log-create event: another log was spliced in', seq };
  }
  const expectedSeq = head.seq + 1;
  if (seq !== expectedSeq) {
    return {
      code: 'E_SEQ',
      reason: `expected seq ${expectedSeq}, found ${seq}: a line was deleted, inserted or moved`,
      seq,
    };
  }
  if (event.prev !== head.hash) {
    return {
      code: 'E_LINK',
      reason: `prev does not match the hash of seq ${head.seq}: the chain is broken here`,
      seq,
    };
  }
  return event;
}
