import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The variable the recording wrapper sets before it runs the command; the fake CLI records it. */
export const SANDBOX_MARKER_VARIABLE = 'SNODO_CONFORMANCE_SANDBOX_MARKER';

/** A stand-in for bubblewrap that records how it was called. */
export interface RecordingSandbox {
  /** The wrapper executable: `CoderV1Sandbox.executable` for the run. */
  readonly executable: string;
  /** The random value it puts in `SNODO_CONFORMANCE_SANDBOX_MARKER` of everything it starts. */
  readonly marker: string;
  /** The argv of every call so far (without the program name). */
  calls(): string[][];
}

/**
 * Writes a recording sandbox wrapper: a POSIX shell script that stores its arguments (one file per call,
 * NUL-separated), changes to the `--chdir` directory, sets `SNODO_CONFORMANCE_SANDBOX_MARKER` and execs
 * whatever follows `--`. It isolates nothing; it proves that an adapter hands every process it starts to
 * the sandbox the request carries, with the mounts and flags that sandbox asks for. The marker is
 * inherited by everything the command starts in turn (a server's agent, its tools).
 */
export function writeRecordingSandbox(directory: string): RecordingSandbox {
  mkdirSync(directory, { recursive: true });
  const callsDirectory = path.join(directory, 'calls');
  mkdirSync(callsDirectory, { recursive: true });
  const marker = randomBytes(12).toString('hex');
  const executable = path.join(directory, 'bwrap');
  if (callsDirectory.includes("'")) {
    throw new TypeError(`writeRecordingSandbox: a directory with a quote is not supported: ${directory}`);
  }
  writeFileSync(
    executable,
    [
      '#!/bin/sh',
      '# A recording stand-in for bubblewrap, written by @snodo/conformance. It isolates nothing.',
      `printf '%s\\0' "$@" > '${callsDirectory}/call-'$$`,
      'while [ "$#" -gt 0 ]; do',
      '  case "$1" in',
      '    --) shift; break ;;',
      '    --chdir) cd "$2" || exit 1; shift 2 ;;',
      '    *) shift ;;',
      '  esac',
      'done',
      `${SANDBOX_MARKER_VARIABLE}='${marker}'`,
      `export ${SANDBOX_MARKER_VARIABLE}`,
      'exec "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(executable, 0o755);
  return {
    executable,
    marker,
    calls: () =>
      existsSync(callsDirectory)
        ? readdirSync(callsDirectory)
            .sort()
            .map((name) => readFileSync(path.join(callsDirectory, name), 'utf8').split('\0').slice(0, -1))
        : [],
  };
}
