import { type AuditEventData, AuditTrail, openTaskScope, type TaskCommandOptions } from '@snodo/core';

/** One tool call as the audit log records it (`mcp-tool-call`). */
export type McpToolCallRecord = AuditEventData<'mcp-tool-call'>;

/**
 * Appends one `mcp-tool-call` event per tool call to the repository's audit log, through core's audit
 * trail (the same chain, lock and secret masking as every run). The trail is opened per call: a long-lived
 * server must see a log that runs in other processes appended to, reset, or checkpointed meanwhile.
 */
export class McpCallAuditor {
  readonly #options: TaskCommandOptions;
  // Calls are appended one at a time, in the order they ended, so the log reads like the session did.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: TaskCommandOptions) {
    this.#options = options;
  }

  /** Records a call; resolves once the event is on disk. */
  record(call: McpToolCallRecord): Promise<void> {
    const next = this.#queue.then(() => this.#append(call));
    this.#queue = next.catch(() => {});
    return next;
  }

  async #append(call: McpToolCallRecord): Promise<void> {
    const scope = await openTaskScope(this.#options);
    const trail = await AuditTrail.open({
      repositoryRoot: scope.repositoryRoot,
      gitCommonDirectory: scope.gitCommonDirectory,
      snodoHome: scope.snodoHome,
      actor: scope.actor,
      createdBy: 'snodo serve',
      remote: scope.config.audit?.remote,
    });
    try {
      await trail.append(
        'mcp-tool-call',
        { ...call },
        {
          actor: `mcp:${call.client_name}`,
          ...(call.job_id === undefined ? {} : { job: call.job_id }),
        },
      );
      await trail.sync();
    } finally {
      await trail.close();
    }
  }
}
