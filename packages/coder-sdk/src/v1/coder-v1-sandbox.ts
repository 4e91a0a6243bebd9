/**
 * One mount of a sandbox, applied over a read-only view of the whole filesystem.
 *
 * - `hide`: an empty, private directory replaces `path` (snodo's home, the user's HOME, the main checkout,
 *   other jobs' workspaces). Nothing under it is visible unless a later mount puts it back.
 * - `read-only`: `source` (default: `path` itself) is visible at `path`, read-only. Used to put back what a
 *   `hide` covered and the coder still needs (the repository's object store, tools installed under HOME).
 * - `read-write`: `source` (default `path`) is visible and writable at `path` (the job's workspace, its
 *   private HOME, `/tmp` and state directory).
 *
 * Mounts are applied parents before children (by path depth, then in the order given), so a path may be
 * hidden and something inside it put back, or a directory made writable and a file inside it read-only.
 */
export interface CoderV1SandboxMount {
  /** What this mount does to `path`; see above. */
  readonly type: 'hide' | 'read-only' | 'read-write';
  /** Absolute path inside the sandbox. */
  readonly path: string;
  /** Absolute path on the host that appears at `path` (bind mounts only). Default: `path`. */
  readonly source?: string;
}

/**
 * The sandbox every process of one attempt runs in (SPEC §12). Built by core for each job and handed to the
 * coder in `CoderV1Request.sandbox`; adapters do not build or change it, they run every process they start
 * through it (the SDK's `runSupervisedProcess` / `startSupervisedProcess` take it as `sandbox`).
 *
 * Inside: the filesystem read-only except the `read-write` mounts, the hidden paths empty, a new PID
 * namespace whose processes all die when the supervised process exits (no grandchild outlives the attempt),
 * no capabilities (so root inside cannot remount anything writable), the network shared with the host unless
 * `network` is `false`.
 *
 * It is plain data, so core records it in `state.json` and the conformance kit can point `executable` at a
 * recording wrapper.
 */
export interface CoderV1Sandbox {
  /** The sandbox technology. `bubblewrap` on Linux; there is no other kind yet. */
  readonly kind: 'bubblewrap';

  /** Absolute path of the `bwrap` executable that starts the sandbox. */
  readonly executable: string;

  /** The mounts over the read-only root, in the order core built them (see `CoderV1SandboxMount`). */
  readonly mounts: readonly CoderV1SandboxMount[];

  /**
   * `true`: the sandbox shares the host's network (a coder must reach its LLM). `false`: a private network
   * namespace with only loopback (command gates under `execution.sandbox_network: false`).
   */
  readonly network: boolean;

  /**
   * Variables set inside the sandbox over the process's own environment: the private `HOME` and `TMPDIR`
   * that replace the hidden ones. Adapters may read them (they are also in `CoderV1Request.homeDirectory`).
   */
  readonly environment: Readonly<Record<string, string>>;
}
