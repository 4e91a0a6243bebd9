import { defineSnodoError, type SnodoErrorCodeOf } from '@snodo/foundation';
import type { CoderCliVersionUnsupportedError } from './errors/coder-cli-version-unsupported-error.js';
import type { CoderConfigInvalidError } from './errors/coder-config-invalid-error.js';
import type { CoderCredentialsMissingError } from './errors/coder-credentials-missing-error.js';
import type { CoderFailedError } from './errors/coder-failed-error.js';
import type { CoderNotInstalledError } from './errors/coder-not-installed-error.js';
import type { CoderProviderFailedError } from './errors/coder-provider-failed-error.js';
import type { CoderSpecificationUnsupportedError } from './errors/coder-specification-unsupported-error.js';
import type { CoderTimeoutError } from './errors/coder-timeout-error.js';
import type { CoderUnavailableError } from './errors/coder-unavailable-error.js';
import type { GitCommandError } from './errors/git-command-error.js';
import type { GitMetadataTamperedError } from './errors/git-metadata-tampered-error.js';
import type { ProposalPathRefusedError } from './errors/proposal-path-refused-error.js';
import type { SandboxInvalidError } from './errors/sandbox-invalid-error.js';
import type { SnodoMutationError } from './errors/snodo-mutation-error.js';

/**
 * The run was cancelled (Ctrl-C, or the embedder aborted `runTask`) and the coder and its child processes
 * were stopped. The worktree is kept, so the partial work can be inspected.
 */
export const CoderAbortedError = defineSnodoError({
  name: 'CoderAbortedError',
  code: 'CODER_ABORTED',
  message: (options: { coderId: string; displayName: string }) =>
    `${options.displayName} was cancelled; snodo stopped it and its child processes. ` +
    'Nothing was committed; the worktree is kept (`snodo task list` shows it).',
});
export type CoderAbortedError = InstanceType<typeof CoderAbortedError>;

/**
 * No registered coder has the requested id (`--coder`, the protocol mode, or a model prefix). snodo never
 * falls back to another coder silently: running a different coder than the one asked for would change who
 * writes the code without the user knowing.
 */
export const CoderUnknownError = defineSnodoError({
  name: 'CoderUnknownError',
  code: 'CODER_UNKNOWN',
  message: (options: { requestedId: string; registeredIds: readonly string[] }) => {
    const known = options.registeredIds.length === 0 ? 'none' : [...options.registeredIds].sort().join(', ');
    return (
      `No coder named "${options.requestedId}" is registered (registered: ${known}). ` +
      'Pick one with --coder <id>, or add a third-party coder under `coders:` in config; ' +
      '`snodo coders` lists them.'
    );
  },
});
export type CoderUnknownError = InstanceType<typeof CoderUnknownError>;

/**
 * After the adapter committed, `git status` in the worktree still showed changes (a process the coder left
 * behind kept writing, or a submodule changed). The attempt is not trusted: the commit would not be the
 * whole change.
 */
export const WorktreeNotCleanError = defineSnodoError({
  name: 'WorktreeNotCleanError',
  code: 'WORKTREE_NOT_CLEAN',
  message: (options: { workspace: string; statusLines: readonly string[] }) =>
    `The worktree ${options.workspace} still has changes after snodo committed ` +
    `(${options.statusLines.slice(0, 10).join('; ')}). Inspect it with \`git -C ${options.workspace} status\`; ` +
    'a process started by the coder may still be writing.',
});
export type WorktreeNotCleanError = InstanceType<typeof WorktreeNotCleanError>;

/**
 * Every error code `@snodo/coder-sdk` throws, read off the error classes themselves: renaming a code
 * changes this union, and the CLI's exit map (a `Record` over every package's union) stops compiling until
 * the new code is mapped.
 */
export type CoderSdkErrorCode = SnodoErrorCodeOf<
  | typeof CoderAbortedError
  | typeof CoderCliVersionUnsupportedError
  | typeof CoderConfigInvalidError
  | typeof CoderCredentialsMissingError
  | typeof CoderFailedError
  | typeof CoderNotInstalledError
  | typeof CoderProviderFailedError
  | typeof CoderSpecificationUnsupportedError
  | typeof CoderTimeoutError
  | typeof CoderUnavailableError
  | typeof CoderUnknownError
  | typeof GitCommandError
  | typeof GitMetadataTamperedError
  | typeof ProposalPathRefusedError
  | typeof SandboxInvalidError
  | typeof SnodoMutationError
  | typeof WorktreeNotCleanError
>;
