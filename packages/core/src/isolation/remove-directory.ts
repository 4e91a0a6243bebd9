import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';

/**
 * Delete `directory` and everything in it (symlinks are removed, never followed). Uses `rm -rf` where
 * there is one: on a 50k-file workspace Node 20's recursive `fs.rm` took 1.5–3× as long. Falls back to
 * `fs.rm` on Windows or when `rm` fails, so the result is the same either way.
 */
export async function removeDirectory(directory: string): Promise<void> {
  if (process.platform !== 'win32') {
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn('rm', ['-rf', '--', directory], { stdio: 'ignore' });
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    });
    if (exitCode === 0) return;
  }
  await fs.rm(directory, { recursive: true, force: true });
}
