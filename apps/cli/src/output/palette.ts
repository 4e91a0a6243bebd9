import picocolors from 'picocolors';

/** The colour functions of one output stream (picocolors' `Colors`, switched on or off). */
export type Palette = ReturnType<typeof picocolors.createColors>;

/** A stream the CLI writes to, as far as colour and TTY decisions go. */
export interface OutputStream {
  /** `true` when the stream is a terminal. */
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/**
 * Whether to colour a stream: never when `NO_COLOR` is set to anything (https://no-color.org), always when
 * `FORCE_COLOR` is set to something other than `0`, otherwise only on a terminal that is not `dumb`. Decided
 * per stream, so `snodo run … > result.txt` keeps colour in the progress on stderr but not in the file.
 */
export function colorEnabled(
  stream: OutputStream,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The palette for a stream (see `colorEnabled`). */
export function createPalette(
  stream: OutputStream,
  env: Readonly<Record<string, string | undefined>>,
): Palette {
  return picocolors.createColors(colorEnabled(stream, env));
}
