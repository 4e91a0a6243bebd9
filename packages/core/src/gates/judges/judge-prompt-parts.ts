/**
 * The shape every judge prompt has, so the judges of one phase can share a provider's prompt cache:
 *
 * - `system` is the same for every judge of a phase (the preamble and the severity rubric);
 * - `sharedPrefix` is the same, byte for byte, for every judge of a phase (the task, and after the coder
 *   ran the changed files, the diff and the command gates' results);
 * - `suffix` is the judge's own part (its role, its criteria, for the protocol judge the mode profiles).
 *
 * The user message is `sharedPrefix + suffix` (`prompt`). A caller that sends the two parts separately
 * (a cache breakpoint after the prefix, a tool loop that keeps the prefix first) gets exactly the bytes
 * every other judge of the phase sent, so the provider can serve the prefix from its cache.
 */
export interface JudgePromptParts {
  /** The system message: identical for every judge of the phase. */
  readonly system: string;
  /** The leading part of the user message: identical for every judge of the phase. */
  readonly sharedPrefix: string;
  /** The rest of the user message: this judge's role and criteria. */
  readonly suffix: string;
}

/** A ready judge prompt: its parts, the user message they make, and whether the diff was cut. */
export interface JudgePrompt extends JudgePromptParts {
  /** The user message: `sharedPrefix + suffix`. */
  readonly prompt: string;
  /** `true` when the diff was cut to fit. */
  readonly diffTruncated: boolean;
}

/** The part every judge of a phase shares, built once per phase (`buildSharedJudgePrefix`). */
export interface SharedJudgePrefix {
  /** The system message. */
  readonly system: string;
  /** The leading part of every judge's user message. */
  readonly text: string;
  /** `true` when the diff was cut to fit. */
  readonly diffTruncated: boolean;
}

/** A judge prompt from the phase's shared prefix and one judge's suffix. */
export function composeJudgePrompt(shared: SharedJudgePrefix, suffix: string): JudgePrompt {
  return {
    system: shared.system,
    sharedPrefix: shared.text,
    suffix,
    prompt: shared.text + suffix,
    diffTruncated: shared.diffTruncated,
  };
}
