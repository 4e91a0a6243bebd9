import { posix } from 'node:path';
import { z } from 'zod';

/**
 * A command in a protocol, in the one form users already know from a command gate's
 * `tooling.test_command`: a string runs through `sh -c`, a list runs directly (argv, no shell).
 */
export const protocolCommandSchema = z.union([z.string().min(1), z.array(z.string()).min(1)], {
  error: 'must be a command string or a list of argv strings',
});

/** A command string or argv list, as written. */
export type ProtocolCommand = z.infer<typeof protocolCommandSchema>;

/** Seconds workspace setup may run before its process group is killed, when the protocol names none. */
export const DEFAULT_SETUP_TIMEOUT_SECONDS = 900;

/**
 * `execution.setup`: how a job's fresh workspace is prepared before the coder and the gates run (install
 * dependencies). `auto` (the default) detects the command from the repository's lockfile and records what
 * it detected and from which file; `none` runs nothing; a string or list is run as written. The mapping
 * form `{ command, timeout_seconds }` adds a time limit (`command` may itself be `auto`).
 */
export const protocolSetupSchema = z.union(
  [
    protocolCommandSchema,
    z.strictObject({
      /** `auto`, `none`, a command string (`sh -c`) or an argv list. */
      command: protocolCommandSchema,
      /** Seconds before setup's process group is killed (default 900). */
      timeout_seconds: z.number().int().positive().optional(),
    }),
  ],
  {
    error:
      'must be `auto`, `none`, a command string, a list of argv strings, or a mapping ' +
      '`{ command: …, timeout_seconds: … }`',
  },
);

/** `execution.setup` as written (absent → `auto`). */
export type ProtocolSetup = z.infer<typeof protocolSetupSchema>;

/** Why a `copy_into_workspace` pattern cannot be used, or `undefined` when it can. */
export function copyPatternProblem(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'must not be empty';
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern) || pattern.startsWith('~')) {
    return `"${pattern}" is absolute; write it relative to the repository root, e.g. ".env"`;
  }
  if (pattern.includes('\\')) return `"${pattern}" has a backslash; separate directories with "/"`;
  const segments = posix.normalize(pattern).split('/');
  if (pattern.split('/').includes('..') || segments.includes('..')) {
    return `"${pattern}" climbs out of the repository with ".."; only files inside it can be copied`;
  }
  if (segments[0] === '.git' || segments.includes('.git')) {
    return `"${pattern}" names git's own files, which the workspace has its own copy of`;
  }
  return undefined;
}

/**
 * `execution.copy_into_workspace`: globs, relative to the repository root, of untracked files the project
 * needs (`.env`, `config/local.json`), copied from the main checkout into the job's workspace before setup.
 */
export const copyIntoWorkspaceSchema = z.array(
  z.string().superRefine((pattern, context) => {
    const problem = copyPatternProblem(pattern);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  }),
);
