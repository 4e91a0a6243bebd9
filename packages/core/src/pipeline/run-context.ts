import { type OpenProjectOptions, openProject } from '../project/open-project.js';
import type { Project } from '../project/project.js';
import type { Protocol, ProtocolIssue } from '../protocol/index.js';

export { findMainCheckout } from '../project/open-project.js';

/**
 * A project a job can run in: inside a repository, with a protocol that loaded. A failure to get one is bad
 * input (exit 2) and creates no job.
 */
export interface RunContext extends Omit<Project, 'protocol' | 'repository'> {
  /** The main checkout: where `.snodo/` lives, whichever worktree snodo was started in. */
  readonly repositoryRoot: string;
  readonly gitCommonDirectory: string;
  readonly protocol: Protocol;
  readonly protocolPath: string;
  readonly protocolWarnings: readonly ProtocolIssue[];
  /** Whether the protocol file sets `execution.merge_strategy` itself. */
  readonly protocolDeclaresMergeStrategy: boolean;
  /** The project it was made from. */
  readonly project: Project;
}

/**
 * The project as a run needs it, or the typed error that says why it cannot run: `NOT_A_GIT_REPOSITORY`,
 * `PROTOCOL_NOT_FOUND` (with the `snodo init` hint) or `PROTOCOL_INVALID`.
 */
export function requireRunContext(project: Project): RunContext {
  const { protocol, repository } = project;
  if (protocol.state !== 'loaded' || repository === undefined) {
    throw protocol.state === 'loaded'
      ? new Error('unreachable: a protocol without a repository')
      : protocol.error;
  }
  const { protocol: _protocol, repository: _repository, ...rest } = project;
  return {
    ...rest,
    repositoryRoot: repository.root,
    gitCommonDirectory: repository.gitCommonDirectory,
    protocol: protocol.protocol,
    protocolPath: protocol.path,
    protocolWarnings: protocol.warnings,
    protocolDeclaresMergeStrategy: protocol.declaresMergeStrategy,
    project,
  };
}

/** Opens the project and requires it to be runnable: for a run or a `snodo task …` command. */
export async function loadRunContext(options: OpenProjectOptions): Promise<RunContext> {
  return requireRunContext(await openProject(options));
}
