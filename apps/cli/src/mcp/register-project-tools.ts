import { openProject, ProtocolInvalidError, verifyRepositoryAudit } from '@snodo/core';
import { z } from 'zod';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from '../coders/built-in-coders.js';
import { listCoderStatuses } from '../commands/coders/coders-action.js';
import { taskOptions } from '../commands/task/task-options.js';
import { ok, registerSnodoTool, type ToolHost } from './snodo-tool.js';

/** `snodo_audit_verify`, `snodo_protocol_validate`, `snodo_coders`: checks that read and report. */
export function registerProjectTools(host: ToolHost, context: CliContext, tools: ReadonlySet<string>): void {
  if (tools.has('snodo_audit_verify')) {
    registerSnodoTool(
      host,
      'snodo_audit_verify',
      {
        title: 'Verify the audit log',
        description:
          "Recomputes the whole hash chain of this repository's audit log (.snodo/audit.log) and checks it " +
          'against every signed checkpoint snodo keeps (its store, refs/snodo/audit, merge-commit trailers). ' +
          'Returns {ok, events, head_seq, head_hash, log_id, checkpoints_verified, failure, not_checked}; ok ' +
          'false names the first failure (a cut-off tail, a rewritten or replaced log).',
        inputSchema: z.object({}),
        readOnly: true,
      },
      async () => {
        const verification = await verifyRepositoryAudit(taskOptions(context));
        const { result } = verification;
        return ok({
          ok: result.ok,
          events: result.events,
          head_seq: result.headSeq ?? null,
          head_hash: result.headHash ?? null,
          log_id: result.logId ?? null,
          checkpoints_verified: result.checkpointsVerified,
          failure: result.failure ?? null,
          not_checked: verification.notChecked,
        });
      },
    );
  }
  if (tools.has('snodo_protocol_validate')) {
    registerSnodoTool(
      host,
      'snodo_protocol_validate',
      {
        title: 'Validate the protocol',
        description:
          "Checks this repository's .snodo/protocol.yml with every check a run applies (schema, unknown keys, " +
          'well-formedness WF1–WF5, registered coders). Returns {file, valid, errors, warnings, issues: ' +
          '[{severity, message, line, column}]}; valid is false when any issue is an error.',
        inputSchema: z.object({}),
        readOnly: true,
      },
      async () => {
        const project = await openProject({
          cwd: context.cwd,
          env: context.env,
          homeDirectory: context.homeDirectory,
          coders: builtInCoders,
        });
        const { protocol } = project;
        if (protocol.state === 'missing') throw protocol.error;
        const issues =
          protocol.state === 'loaded'
            ? protocol.warnings
            : ProtocolInvalidError.isInstance(protocol.error)
              ? protocol.error.issues
              : [];
        if (protocol.state === 'invalid' && !ProtocolInvalidError.isInstance(protocol.error))
          throw protocol.error;
        const errors = issues.filter((issue) => issue.severity === 'error').length;
        return ok({
          file: protocol.path,
          valid: errors === 0,
          errors,
          warnings: issues.length - errors,
          issues,
        });
      },
    );
  }
  if (tools.has('snodo_coders')) {
    registerSnodoTool(
      host,
      'snodo_coders',
      {
        title: 'List coders',
        description:
          'The coders snodo can run here (ids for snodo_run_task.coder). Returns {coders: [{id, displayName, ' +
          'kind, installed, version, ready, reason, fix, isDefault}], sandbox}; a coder with ready false says ' +
          'why (reason) and what fixes it (fix).',
        inputSchema: z.object({}),
        readOnly: true,
      },
      async () => {
        const { coders, sandbox } = await listCoderStatuses(context);
        return ok({ coders, sandbox });
      },
    );
  }
}
