import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { type CoderV1Usage, type Secret, SecretRedactor } from '@snodo/coder-sdk';
import type { ProvidersSettings } from '@snodo/llm';
import type { ModelMessage } from 'ai';

/** Characters of one message part written before it is cut (a whole file read by a tool can be large). */
const partCap = 20_000;
/** Bytes written per attempt before the truncation marker, as the subprocess coders' transcripts. */
const transcriptCap = 10 * 1024 * 1024;

/** An environment variable whose value is a credential (`OPENAI_API_KEY`, `GITHUB_TOKEN`). */
const secretVariable = /(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$/i;

/**
 * The values to redact: every credential-named variable of the request's environment and every
 * `providers.<name>.api_key` from config. Shapes of keys (`sk-…`) are caught by the redactor besides.
 */
export function transcriptSecrets(
  env: Readonly<Record<string, string>>,
  providers: ProvidersSettings,
): Secret[] {
  const secrets: Secret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (secretVariable.test(name) && value !== '') secrets.push({ name, value });
  }
  for (const [name, entry] of Object.entries(providers)) {
    if (entry.api_key !== undefined && entry.api_key !== '') {
      secrets.push({ name: `providers.${name}.api_key`, value: entry.api_key });
    }
  }
  return secrets;
}

/** One model call's answer as the transcript shows it. */
export interface TranscriptResponse {
  readonly finishReason: string;
  readonly text: string;
  readonly toolCalls: readonly { readonly toolName: string; readonly input: unknown }[];
  /** This call's usage, and whether the provider reported its token counts. */
  readonly usage: CoderV1Usage;
}

/**
 * The litellm coder's transcript (`request.transcriptPath`, what `snodo logs <job>` prints): every exchange
 * with the model in order, as plain text. For each turn the messages sent that the previous turn had not
 * sent (the prompt first, then each answer and tool result), then the answer: finish reason, text, tool
 * calls with their input, usage. Everything written goes through the SDK's `SecretRedactor` (the run's
 * credential values and the shapes of keys); a long part is cut at 20 000 characters and the file at
 * 10 MiB per attempt. Writes are synchronous appends, so a crash keeps what came before it.
 */
export class LitellmTranscript {
  private readonly descriptor: number;
  private readonly redactor: SecretRedactor;
  private written = 0;
  private bytes = 0;
  private truncated = false;
  private closed = false;

  constructor(transcriptPath: string, secrets: readonly Secret[]) {
    mkdirSync(path.dirname(transcriptPath), { recursive: true });
    this.descriptor = openSync(transcriptPath, 'a', 0o600);
    this.redactor = new SecretRedactor(secrets);
  }

  /** snodo's own line (the attempt's header and footer). */
  line(text: string): void {
    this.write(`${text}\n`);
  }

  /** The system prompt, once per attempt. */
  system(text: string): void {
    this.write(`--- system ---\n${cut(text)}\n`);
  }

  /** Turn `turn`'s request: the messages the previous requests did not carry. */
  request(turn: number, messages: readonly ModelMessage[]): void {
    const fresh = messages.slice(this.written);
    this.written = messages.length;
    const earlier = messages.length - fresh.length;
    const note = earlier === 0 ? '' : ` (after the ${earlier} message(s) above)`;
    this.write(`--- turn ${turn}: request, ${fresh.length} new message(s)${note} ---\n`);
    for (const message of fresh) this.write(formatMessage(message));
  }

  /** Turn `turn`'s answer. */
  response(turn: number, response: TranscriptResponse): void {
    const { usage } = response;
    const cost = usage.costUsd === null ? 'cost unknown' : `$${usage.costUsd.toFixed(6)}`;
    this.write(
      `--- turn ${turn}: response, finish ${response.finishReason}; usage ${usage.inputTokens} in, ` +
        `${usage.outputTokens} out, ${usage.cachedInputTokens} cached, ${cost} (${usage.source}) ---\n`,
    );
    if (response.text.trim() !== '') this.write(`[assistant] ${cut(response.text)}\n`);
    for (const call of response.toolCalls)
      this.write(`[tool call] ${call.toolName} ${cut(json(call.input))}\n`);
  }

  /** The error that ended the attempt. */
  error(turn: number, error: unknown): void {
    this.write(`--- turn ${turn}: failed: ${error instanceof Error ? error.message : String(error)} ---\n`);
  }

  /** Writes the footer and closes the file; safe to call twice. */
  finish(footer: string): void {
    if (this.closed) return;
    this.line(footer);
    this.closed = true;
    closeSync(this.descriptor);
  }

  private write(text: string): void {
    if (this.closed || this.truncated) return;
    const bytes = Buffer.from(this.redactor.redact(text), 'utf8');
    if (this.bytes + bytes.length > transcriptCap) {
      this.truncated = true;
      writeSync(
        this.descriptor,
        `[snodo: transcript truncated: output beyond ${transcriptCap} bytes was not recorded]\n`,
      );
      return;
    }
    writeSync(this.descriptor, bytes);
    this.bytes += bytes.length;
  }
}

function formatMessage(message: ModelMessage): string {
  if (typeof message.content === 'string') return `[${message.role}] ${cut(message.content)}\n`;
  return message.content.map((part) => `[${message.role}] ${formatPart(part)}\n`).join('');
}

function formatPart(part: Exclude<ModelMessage['content'], string>[number]): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return `${part.type === 'reasoning' ? '(reasoning) ' : ''}${cut(part.text)}`;
    case 'tool-call':
      return `tool call ${part.toolName} ${cut(json(part.input))}`;
    case 'tool-result': {
      const output = part.output as { type?: string; value?: unknown };
      const value = typeof output.value === 'string' ? output.value : json(output.value ?? output);
      return `tool result ${part.toolName}: ${cut(value)}`;
    }
    default:
      return `${part.type} ${cut(json(part))}`;
  }
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string): string {
  return text.length <= partCap
    ? text
    : `${text.slice(0, partCap)}… [${text.length - partCap} more characters not recorded]`;
}
