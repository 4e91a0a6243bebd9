/**
 * Settings of the mock coder, read from the protocol mode's `coder_config` (or config `coders.mock`).
 *
 * ```yaml
 * coder: mock
 * coder_config:
 *   files:
 *     src/hello.ts: "export const hello = 'world';\n"
 * ```
 */
export interface MockCoderSettings {
  /**
   * The files to write: a map of path to content, or a list of `{ path, content?, action? }`. When absent,
   * the mock writes one new file named after the job, `snodo-mock/<job id>.md`, recording the task, so
   * concurrent mock runs never conflict.
   */
  readonly files?: Readonly<Record<string, string>> | ReadonlyArray<MockFileSetting>;
}

/** One entry of `files` in list form. */
export interface MockFileSetting {
  readonly path: string;
  readonly content?: string;
  readonly action?: 'write' | 'delete';
}
