import type { OpencodeMessageList } from './opencode-events.js';

/** Finish reasons after which OpenCode's loop sends another request rather than stopping. */
const continuingFinishReasons = new Set(['tool-calls', 'unknown']);

/**
 * Whether the session's last message is an assistant message that OpenCode finished for good: completed,
 * and either failed or stopped for a reason that ends the loop (not `tool-calls`).
 */
export function lastAnswerIsFinal(messages: OpencodeMessageList): boolean {
  const last = messages.at(-1)?.info;
  if (last === undefined || last.role !== 'assistant' || last.time?.completed === undefined) return false;
  if (last.error !== undefined) return true;
  return last.finish === undefined || !continuingFinishReasons.has(last.finish);
}

/** A cheap fingerprint of the session's progress: changes whenever a message or part is added or finished. */
export function progressFingerprint(messages: OpencodeMessageList): string {
  const last = messages.at(-1);
  return `${messages.length}:${last?.parts.length ?? 0}:${last?.info.time?.completed ?? ''}`;
}

/** What the status poll remembers between two polls. */
export interface PollMemory {
  /** The session was seen busy (by an event or a poll) since the prompt. */
  readonly sawBusy: boolean;
  /** The previous poll found the session not busy. */
  readonly previousNotBusy: boolean;
  /** The previous poll found a final answer. */
  readonly previousFinal: boolean;
}

/**
 * The polling fallback's decision: is the session done, even though no idle event arrived? OpenCode's
 * status can lag behind its messages in both directions (anomalyco/opencode #35472), so a single signal
 * is not trusted on its own:
 * - not busy and a final answer → done;
 * - not busy twice in a row after having been busy → done (a failure may leave no answer);
 * - a final answer twice in a row → done, even while the status still says busy.
 * Not busy before the session was ever busy, without an answer, is the moment right after the prompt.
 */
export function isSettledByPoll(memory: PollMemory, notBusy: boolean, final: boolean): boolean {
  if (notBusy && final) return true;
  if (notBusy && memory.sawBusy && memory.previousNotBusy) return true;
  return final && memory.previousFinal;
}
