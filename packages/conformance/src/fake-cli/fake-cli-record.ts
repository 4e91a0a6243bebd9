/** Where the fake CLI saw the instructions marker during a run. */
export interface FakeCliInstructionsSighting {
  /**
   * `workspace`: a file under its working directory (`path` relative to it); `home`: a file under `HOME`
   * (`path` absolute); `argument`: inside argument `argumentIndex` itself; `argument-file`: in the file
   * argument `argumentIndex` names (`path` absolute).
   */
  readonly via: 'workspace' | 'home' | 'argument' | 'argument-file';
  /** The file, for the file sightings. */
  readonly path?: string;
  /** Index into `argv`, for the argument sightings. */
  readonly argumentIndex?: number;
}

/**
 * What the fake CLI wrote about its last run (not the version probe), as JSON in its evidence directory.
 * Written when the run starts and again when its steps are done, so a hung run has a record too.
 */
export interface FakeCliRecord {
  /** The arguments after the program name, exactly as received. */
  readonly argv: readonly string[];
  /** The complete environment the CLI ran with. */
  readonly env: Readonly<Record<string, string>>;
  /** Its working directory. */
  readonly cwd: string;
  /** Its process id. */
  readonly pid: number;
  /** Where the scenario's `instructionsMarker` was seen; absent when the scenario sets no marker. */
  readonly instructions?: readonly FakeCliInstructionsSighting[];
  /** Bytes read from stdin before end-of-file, when the scenario reads stdin. */
  readonly stdinBytes?: number;
  /** `true` once every step ran (before hanging or exiting). */
  readonly finished: boolean;
}

/** Process ids the fake CLI recorded: its own (one per run) and its grandchildren's. */
export interface FakeCliProcessIds {
  /** The fake CLI's own pid, once per run. */
  readonly cli: readonly number[];
  /** The `sleep` grandchildren it spawned. */
  readonly grandchildren: readonly number[];
}

/**
 * One start of the fake CLI (version probes are not recorded), in order. `sandboxMarker` is the value of
 * `SNODO_CONFORMANCE_SANDBOX_MARKER` in its environment: the conformance kit's recording sandbox wrapper
 * sets it, so a start without it did not go through the sandbox the request carried.
 */
export interface FakeCliStart {
  readonly pid: number;
  readonly sandboxMarker: string | null;
}
