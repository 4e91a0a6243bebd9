/**
 * A running OpenCode server for one attempt, however it came to be: a process snodo started on the host,
 * a container it started, or a server the user runs. The session run talks to `url`; the adapter calls
 * `stop` exactly once, whatever happened.
 */
export interface OpencodeRuntime {
  /** Which runtime this is. */
  readonly kind: 'host' | 'docker' | 'url';
  /** The server's base URL, without a trailing slash. */
  readonly url: string;
  /** Basic-auth user. */
  readonly username: string;
  /** Basic-auth password, or `undefined` for a `url` server without one. */
  readonly password: string | undefined;
  /** The command that started the server, without secrets (for the audit log); absent for `url`. */
  readonly argv: readonly string[] | undefined;
  /** "the OpenCode server snodo started (pid 123)", for messages. */
  readonly description: string;
  /** How the server ended, when it ended on its own ("exited with code 1"); `undefined` while it runs. */
  exitDescription(): string | undefined;
  /** The end of what the server printed on stderr, when snodo can see it. */
  stderrTail(): string;
  /** Stops what snodo started (never a server it did not start) and releases its files. Never throws. */
  stop(): Promise<void>;
}
