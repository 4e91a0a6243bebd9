/** One line of `snodo doctor`. */
export interface DoctorCheck {
  /** What was checked: `git`, `protocol`, `coder mock`… */
  readonly name: string;
  /** `ok`; `warn` (works, but worth a look); `fail` (a run would fail: exit 1); `info` (facts). */
  readonly status: 'ok' | 'warn' | 'fail' | 'info';
  /** What was found. */
  readonly detail: string;
  /** The command or step that fixes a `warn` or `fail`. */
  readonly fix?: string | undefined;
}
