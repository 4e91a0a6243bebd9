import { execa } from 'execa';

/** Finds the first `1.2.3`-like version in a CLI's output (`opencode 1.18.33`, `v1.18.33`). */
export function findVersion(text: string): string | undefined {
  return /\bv?(\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.-]+)?)/.exec(text)?.[1];
}

/** What a version probe found. */
export interface VersionProbe {
  /** The version printed, when one was. */
  readonly version: string | undefined;
  /** Why the probe failed, when it did (did not start, exited non-zero, timed out). */
  readonly problem: string | undefined;
}

/**
 * Runs `<executable> <args>` (stdin closed, exactly `env`, a time limit) and reads a version from its
 * output. Never throws: a failure is reported in `problem`.
 */
export async function probeVersion(
  executable: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<VersionProbe> {
  try {
    const result = await execa(executable, [...args], {
      env: { ...env },
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: timeoutMs,
      windowsHide: true,
    });
    const output = `${String(result.stdout ?? '')}\n${String(result.stderr ?? '')}`;
    if (result.exitCode !== 0) {
      const tail = output.trim().split('\n').slice(-3).join(' / ');
      const how = result.timedOut
        ? `did not answer within ${Math.round(timeoutMs / 1000)}s`
        : `exited with code ${result.exitCode ?? 'unknown'}`;
      return {
        version: findVersion(String(result.stdout ?? '')),
        problem: tail === '' ? how : `${how}: ${tail}`,
      };
    }
    return { version: findVersion(output), problem: undefined };
  } catch (error) {
    return { version: undefined, problem: error instanceof Error ? error.message : String(error) };
  }
}
