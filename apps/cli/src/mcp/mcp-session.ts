import { randomUUID } from 'node:crypto';

/** How a client reached the server; recorded with every tool call. */
export type McpTransportKind = 'stdio' | 'http' | 'memory';

/** Who is calling, as the client said in `initialize`. */
export interface McpClientIdentity {
  readonly name: string;
  readonly version: string;
}

/**
 * One client's connection to `snodo serve`: its id, its transport, and the jobs it started. The jobs are
 * remembered so that the same session can never approve or reject its own work (SPEC §14).
 */
export class McpSession {
  readonly id: string;
  readonly transport: McpTransportKind;
  readonly #startedJobs = new Set<string>();

  constructor(transport: McpTransportKind, id: string = `mcp_${randomUUID()}`) {
    this.transport = transport;
    this.id = id;
  }

  /** Records a job this session started. */
  rememberStartedJob(jobId: string): void {
    this.#startedJobs.add(jobId);
  }

  /** Whether this session started `jobId`. */
  started(jobId: string): boolean {
    return this.#startedJobs.has(jobId);
  }
}
