import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLitellmCoder } from './litellm-adapter.js';
import { createTemporaryWorkspace, type TemporaryWorkspace } from './testing/temporary-workspace.js';

let workspace: TemporaryWorkspace;
let server: Server | undefined;
beforeEach(() => {
  workspace = createTemporaryWorkspace({ 'a.txt': 'a\n' });
});
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
  workspace.cleanup();
});

/** A Chat Completions endpoint that answers with a `submit_files` call and, like some proxies, no usage. */
async function endpointWithoutUsage(): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'coder-model',
          choices: [
            {
              index: 0,
              finish_reason: 'tool_calls',
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: {
                      name: 'submit_files',
                      arguments: JSON.stringify({
                        files: [{ path: 'a.txt', action: 'write', content: 'b\n' }],
                      }),
                    },
                  },
                ],
              },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('the litellm coder’s usage source', () => {
  it('is estimated when the provider reported no token counts', async () => {
    const baseUrl = await endpointWithoutUsage();
    const { request } = workspace.request({ model: 'fake/coder-model' });
    const result = await createLitellmCoder({ providers: { fake: { base_url: baseUrl } } }).doRun(request);
    expect(result.status).toBe('changed');
    expect(result.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, source: 'estimated' });
  });
});
