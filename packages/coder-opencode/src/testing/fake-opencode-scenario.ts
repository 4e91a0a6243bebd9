/**
 * Test support (not exported, not built): what the fake OpenCode server does. Plain JSON, so a fake
 * server in another process (behind a fake `opencode` or `docker` executable) reads the same scenario.
 */

/** Token counts an assistant message reports, in OpenCode's shape. */
export interface FakeTokens {
  readonly input: number;
  readonly output: number;
  readonly reasoning?: number;
  readonly cache?: { readonly read: number; readonly write: number };
}

/** What a prompt makes the fake session do. */
export type FakePromptBehaviour =
  /** Writes the files (relative to the session's directory), answers `text`, reports usage, goes idle. */
  | {
      readonly kind: 'write-files';
      readonly files: readonly { readonly path: string; readonly content: string }[];
      readonly text?: string;
      readonly tokens?: FakeTokens;
      readonly cost?: number;
      /** Milliseconds between going busy and finishing. */
      readonly delayMs?: number;
    }
  /** Fails the answer: a `session.error` event with this error, and the assistant message carries it. */
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly eventOnly?: boolean }
  /** Stays busy until the session is aborted. */
  | { readonly kind: 'hang' }
  /** Writes the files, then the server dies: a process exits with code 3, an in-process server drops every connection. */
  | { readonly kind: 'die'; readonly files?: readonly { readonly path: string; readonly content: string }[] }
  /** Asks for a permission and waits. */
  | { readonly kind: 'ask-permission'; readonly permission: string }
  /**
   * Runs `command` in the session's directory as the agent would work: argv is `command`, then
   * `--model provider/model` when the prompt names a model, then the prompt text as one argument. stdin
   * and stdout are the server's own; stderr is captured. Exit 0 finishes the answer; any other exit is a
   * `session.error` carrying the stderr tail. Used to run the conformance kit's fake CLI "inside" the server.
   */
  | { readonly kind: 'agent'; readonly command: readonly string[] };

/** Everything the fake server is told. */
export interface FakeOpencodeScenario {
  /** The version `/global/health` reports. Default `1.18.33`. */
  readonly version?: string;
  /** `v2`: every V1 route answers the web app's HTML and `GET /api/info` answers JSON, like OpenCode 2.x. */
  readonly api?: 'v1' | 'v2';
  /** What each prompt does. */
  readonly prompt: FakePromptBehaviour;
  /** `false`: never send `session.idle` or `session.status idle` (the status map still turns idle). */
  readonly idleEvents?: boolean;
  /** `true`: `GET /session/status` keeps saying busy after the answer finished (the status lags). */
  readonly statusStuckBusy?: boolean;
  /** `serve` prints an error on stderr and exits 1 before listening (a broken install or config). */
  readonly failStart?: boolean;
  /** A JSON-lines file every request is appended to (method, path, directory, body). */
  readonly requestLog?: string;
  /** A JSON file the server process writes its argv and environment to at start. */
  readonly processRecord?: string;
}

/** One recorded request. */
export interface FakeRequestRecord {
  readonly method: string;
  readonly path: string;
  readonly directory: string | undefined;
  readonly authorized: boolean;
  readonly body: unknown;
}
