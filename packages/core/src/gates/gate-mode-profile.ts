/**
 * What the protocol-adherence judge knows about a mode: enough to tell whether a task belongs to it or to a
 * sibling. The caller derives one profile for the current mode and one per sibling from the protocol.
 */
export interface GateModeProfile {
  /** The mode's `mode_id`. */
  readonly modeId: string;
  /** Its human name. */
  readonly name: string;
  /** A sentence on what the mode is for, when the protocol has one. */
  readonly description?: string;
  /** Its logical tools, e.g. `write_code`, `read_docs`. */
  readonly tools: readonly string[];
  /** Its validators, id and type. */
  readonly validators: readonly { readonly id: string; readonly type: string }[];
  /** Its declared transitions, event → target mode. */
  readonly transitions?: Readonly<Record<string, string>>;
}
