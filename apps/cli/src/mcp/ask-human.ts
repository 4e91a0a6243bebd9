import type { McpServer, ServerContext } from '@modelcontextprotocol/server';

/** What the human answered: go ahead (with their reason, when they gave one), or no. */
export type HumanAnswer =
  | { readonly confirmed: true; readonly reason?: string }
  | { readonly confirmed: false; readonly why: string };

/**
 * Asks the user through the client's elicitation (SPEC §14: approval stays human), where the client
 * declares it. Declining, cancelling or leaving `confirm` unticked is a no. A client without elicitation
 * cannot ask; the tool's `destructiveHint` is then what makes the host ask before calling it.
 */
export async function askHuman(
  server: McpServer,
  context: ServerContext,
  question: string,
): Promise<HumanAnswer | undefined> {
  if (server.server.getClientCapabilities()?.elicitation === undefined) return undefined;
  const answer = await context.mcpReq.elicitInput({
    mode: 'form',
    message: question,
    requestedSchema: {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', title: 'Yes, I decide this', description: 'Tick to go ahead.' },
        reason: { type: 'string', title: 'Reason (for the audit log)' },
      },
      required: ['confirm'],
    },
  });
  if (answer.action !== 'accept') return { confirmed: false, why: `the user chose "${answer.action}"` };
  const content = answer.content ?? {};
  if (content.confirm !== true) return { confirmed: false, why: 'the user did not confirm' };
  const reason =
    typeof content.reason === 'string' && content.reason.trim() !== '' ? content.reason : undefined;
  return reason === undefined ? { confirmed: true } : { confirmed: true, reason };
}
