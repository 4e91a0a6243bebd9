import type { Palette } from './palette.js';

/** One recorded judge tool call, as `state.json` keeps it. */
interface RecordedToolCall {
  readonly tool: string;
  readonly input: string;
  readonly ok: boolean;
  readonly error?: string | undefined;
  readonly bytes: number;
}

/** At most this many calls are listed per verdict; the rest are counted. */
const SHOWN_CALLS = 12;

/**
 * The lines `snodo task show` prints under a judge's verdict for what it looked at before deciding: each
 * tool call with its input and how much came back, or why it was refused.
 */
export function judgeToolCallLines(
  calls: readonly RecordedToolCall[] | undefined,
  palette: Palette,
  indent = '      ',
): string[] {
  if (calls === undefined || calls.length === 0) return [];
  const lines = calls.slice(0, SHOWN_CALLS).map((call) => {
    const input = call.input.length > 100 ? `${call.input.slice(0, 100)}…` : call.input;
    const outcome = call.ok
      ? palette.dim(`${call.bytes} B`)
      : palette.yellow(`refused: ${call.error ?? 'error'}`);
    return `${indent}${palette.dim('looked')} ${call.tool} ${input} ${outcome}`;
  });
  if (calls.length > SHOWN_CALLS)
    lines.push(`${indent}${palette.dim(`… ${calls.length - SHOWN_CALLS} more tool call(s)`)}`);
  return lines;
}
