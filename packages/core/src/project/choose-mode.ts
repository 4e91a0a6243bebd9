import { ModeCannotChangeCodeError, ModeUnknownError } from '../errors.js';
import type { Protocol, ProtocolMode } from '../protocol/index.js';

// Logical tools through which a mode changes code; a mode without any of them cannot execute a task.
const EXECUTING_TOOLS = new Set(['edit', 'dispatch']);

/** Modes that can carry a task out (they hold an editing tool); routing chooses among these. */
export function executingModes(modes: readonly ProtocolMode[]): ProtocolMode[] {
  return modes.filter((mode) => mode.tools.some((tool) => EXECUTING_TOOLS.has(tool)));
}

/** The mode a task runs in as far as it is known before a job exists, and why. */
export interface ModeChoice {
  /**
   * The mode; under `classifier` the one the run falls back to when the classifier fails or no classifier
   * model is configured (it stands in for the classifier's answer in a plan).
   */
  readonly mode: ProtocolMode;
  /** `flag` (`--mode`), `single-mode`, or `classifier` (several modes can execute; a model picks). */
  readonly source: 'flag' | 'single-mode' | 'classifier';
  /** The modes the task could run in: the one of `--mode`, else every mode that can execute. */
  readonly candidates: readonly ProtocolMode[];
}

/**
 * Chooses the mode (SPEC §2 step 3) without asking a model: `--mode` wins; with one mode able to execute,
 * that mode; with several, the classifier decides at run time. Refuses, before a job exists, what could
 * only end with a coder that cannot change code: `--mode` naming such a mode (a `reviewer`) or a protocol
 * in which no mode can (`MODE_CANNOT_CHANGE_CODE`), and an unknown `--mode` (`MODE_UNKNOWN`).
 */
export function chooseMode(protocol: Protocol, requested: string | undefined): ModeChoice {
  const { modes } = protocol;
  const executing = executingModes(modes);
  const executingIds = executing.map((mode) => mode.mode_id);
  if (requested !== undefined) {
    const mode = modes.find((candidate) => candidate.mode_id === requested);
    if (mode === undefined) {
      throw new ModeUnknownError({ mode: requested, available: modes.map((candidate) => candidate.mode_id) });
    }
    if (!executing.includes(mode)) {
      throw new ModeCannotChangeCodeError({ mode: mode.mode_id, tools: mode.tools, executing: executingIds });
    }
    return { mode, source: 'flag', candidates: [mode] };
  }
  const [first] = executing;
  if (first === undefined) throw new ModeCannotChangeCodeError({ executing: executingIds });
  if (executing.length === 1) return { mode: first, source: 'single-mode', candidates: executing };
  // The fallback must be able to run the task too: the initial mode when it can change code, else the
  // first mode that can (a protocol may start in a planning mode).
  const declared = modes.find((mode) => mode.mode_id === protocol.initial_mode);
  return {
    mode: executing.find((mode) => mode === declared) ?? first,
    source: 'classifier',
    candidates: executing,
  };
}
