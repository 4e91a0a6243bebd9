import { z } from 'zod';

const relativePath = z
  .string()
  .min(1)
  .refine((value) => !value.startsWith('/') && !value.split('/').includes('..'), {
    message: 'must be a relative path inside the working directory (no leading "/", no "..")',
  });

/**
 * One thing the fake CLI does, in order. Paths are relative to the CLI's working directory (the worktree
 * the adapter runs it in); `.snodo/…` paths touch snodo's own directory on purpose.
 */
export const fakeCliStepSchema = z.union([
  z.strictObject({ writeFile: z.strictObject({ path: relativePath, content: z.string() }) }),
  z.strictObject({ deleteFile: z.strictObject({ path: relativePath }) }),
  z.strictObject({
    commit: z.strictObject({
      message: z.string().min(1),
      author: z.strictObject({ name: z.string().min(1), email: z.string().min(1) }).optional(),
    }),
  }),
  z.strictObject({
    plantHook: z.strictObject({
      name: z.string().regex(/^[a-z-]+$/, 'must be a git hook name such as pre-commit'),
      content: z.string(),
      directory: z.string().startsWith('/').optional(),
    }),
  }),
  z.strictObject({ setHooksPath: z.string().min(1) }),
  z.strictObject({ stdout: z.string() }),
  z.strictObject({ stderr: z.string() }),
  z.strictObject({ printMegabytes: z.number().positive().max(1024) }),
]);

/**
 * What the fake CLI does when it is run with anything but its version arguments. Written as JSON next to
 * the executable and read by it on every run: the CLI reads nothing from its environment (an adapter's
 * allow-list would rightly drop it).
 *
 * Order: record the run (argv, env, cwd, pid, where the instructions marker was seen), ignore SIGTERM if
 * asked, read stdin to EOF if asked, spawn the grandchild if asked, run `steps`, then hang or exit with
 * `exitCode`.
 */
export const fakeCliScenarioSchema = z.strictObject({
  /**
   * A text the instructions file contains. The CLI looks for it in files under its working directory and
   * `HOME`, in its arguments and in files its arguments name, and records where it saw it.
   */
  instructionsMarker: z.string().min(1).optional(),
  /** Keep running on SIGTERM, so only SIGKILL stops it (tests the kill grace). */
  ignoreSigterm: z.boolean().optional(),
  /** Read stdin to end-of-file before doing anything else: blocks forever on a pipe nobody closes. */
  readStdin: z.boolean().optional(),
  /**
   * Spawn `sleep 300` as a child in the same process group, with stdout and stderr inherited (as a dev
   * server would), and record its pid.
   */
  spawnGrandchild: z.boolean().optional(),
  /** What to do, in order. */
  steps: z.array(fakeCliStepSchema).optional(),
  /** Never exit after the steps. */
  hang: z.boolean().optional(),
  /** The exit code after the steps. Default 0. */
  exitCode: z.number().int().min(0).max(255).optional(),
});

/** One step of a fake CLI scenario; see `fakeCliStepSchema`. */
export type FakeCliStep = z.infer<typeof fakeCliStepSchema>;

/** A fake CLI scenario; see `fakeCliScenarioSchema`. */
export type FakeCliScenario = z.infer<typeof fakeCliScenarioSchema>;
