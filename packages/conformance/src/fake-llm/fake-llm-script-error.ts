const ERROR_MARKER = Symbol.for('snodo.error');
const CODE_MARKER = Symbol.for('snodo.error.FAKE_LLM_SCRIPT_INVALID');

/**
 * Thrown by `startFakeLlm` and `FakeLlmScript.push` when a scripted turn does not match any known turn
 * shape. Tests see it before any request is served, so a typo in a script fails loudly instead of making
 * the client under test look broken.
 */
export class FakeLlmScriptError extends Error {
  /** Stable code for programs and logs. */
  readonly code = 'FAKE_LLM_SCRIPT_INVALID' as const;
  /** Zero-based position of the offending turn in the list that was passed. */
  readonly turnIndex: number;

  constructor(turnIndex: number, details: string, options?: { cause?: unknown }) {
    super(
      `Fake LLM script turn ${turnIndex} is not a valid turn: ${details}. ` +
        'Use one of { text }, { toolCall }, { toolCalls }, { writeFile }, { writeFiles }, { verdict }, { json }, ' +
        '{ error }, { truncate: true } or { hang: true } (see the "Fake LLM server" section of the README).',
      options,
    );
    this.name = 'FakeLlmScriptError';
    this.turnIndex = turnIndex;
    Object.defineProperty(this, ERROR_MARKER, { value: true });
    Object.defineProperty(this, CODE_MARKER, { value: true });
  }

  /** True for a `FakeLlmScriptError` from any copy of this package. */
  static isInstance(value: unknown): value is FakeLlmScriptError {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CODE_MARKER] === true
    );
  }
}
