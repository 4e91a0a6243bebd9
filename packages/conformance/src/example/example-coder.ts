import {
  SubprocessCoderAdapter,
  type SubprocessCoderAdapterSettings,
  type SubprocessOutput,
  type SubprocessParsedOutput,
} from '@snodo/coder-sdk';
import { z } from 'zod';

/** The final line the example CLI prints: `{"type":"result","usage":{…},"total_cost_usd":0.01}`. */
const exampleResultSchema = z.object({
  type: z.literal('result'),
  usage: z.object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cached_input_tokens: z.number().default(0),
  }),
  total_cost_usd: z.number().nullable().default(null),
});

/**
 * A complete in-place coder in a few lines, for a CLI called `example-coder`: the shape every CLI adapter
 * has. The conformance kit proves it against the whole Tier 1 suite, and the SDK's README shows it.
 */
export class ExampleCoder extends SubprocessCoderAdapter {
  readonly id = 'example';
  readonly displayName = 'Example Coder';
  readonly credentials = { envVars: ['EXAMPLE_API_KEY'], configKey: 'example' };
  override readonly supportsUsage = true;

  readonly binary = 'example-coder';
  readonly modelPrefix = 'example/';
  readonly installHint = 'npm install -g example-coder';

  buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    const argv = [this.binary, 'run', '--cwd', workspace, '--output-format', 'json'];
    if (model !== undefined) argv.push('--model', model);
    // `--` ends the options: a prompt starting with "-" is still the prompt.
    argv.push('--', prompt);
    return argv;
  }

  override parseOutput({ stdout }: SubprocessOutput): SubprocessParsedOutput {
    for (const line of stdout.trimEnd().split('\n').reverse()) {
      const parsed = exampleResultSchema.safeParse(safeJson(line));
      if (!parsed.success) continue;
      const { usage, total_cost_usd } = parsed.data;
      return {
        usage: {
          inputTokens: usage.input_tokens - usage.cached_input_tokens,
          outputTokens: usage.output_tokens,
          cachedInputTokens: usage.cached_input_tokens,
          costUsd: total_cost_usd,
          source: 'reported',
        },
      };
    }
    return {};
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Creates the example coder; `settings` are the SDK's (the conformance suite passes a short kill grace). */
export function createExampleCoder(settings: SubprocessCoderAdapterSettings = {}): ExampleCoder {
  return new ExampleCoder(settings);
}
