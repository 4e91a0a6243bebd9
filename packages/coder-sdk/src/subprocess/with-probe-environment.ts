import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Runs `probe` with `env` plus the variables `probeEnvironment` derives from a fresh temporary directory
 * (`snodo-<id>-probe-…`), removed afterwards. For CLIs that write into their home even for `--version`
 * (Gemini CLI, OpenCode): the probe runs on the host, before any job directory exists, so its writes must
 * land somewhere thrown away rather than in the user's own home. Without `probeEnvironment`, `env` as is.
 */
export async function withProbeEnvironment<T>(
  coderId: string,
  env: Readonly<Record<string, string>>,
  probeEnvironment: ((directory: string) => Record<string, string>) | undefined,
  probe: (env: Readonly<Record<string, string>>) => Promise<T>,
): Promise<T> {
  if (probeEnvironment === undefined) return probe(env);
  const directory = await mkdtemp(path.join(os.tmpdir(), `snodo-${coderId}-probe-`));
  try {
    return await probe({ ...env, ...probeEnvironment(directory) });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
