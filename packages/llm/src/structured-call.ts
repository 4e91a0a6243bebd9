import type * as Ai from 'ai';
import { z } from 'zod';
import type { StructuredCallOptions } from './generate-structured.js';

// What `generateStructured` (and `generateVerdict` through it) and `generateVerdictWithTools` share: the
// checked output, the call settings, the repair request and how an unusable answer is described. One copy,
// so a fix to one (a setting passed on, a repair wording) reaches every judge and the classifier.

/** The AI SDK module, imported lazily by the callers (it is large and not every command needs it). */
type AiModule = typeof Ai;

/** Why an answer was rejected. Internal: lets the repair prompt quote exact schema issues. */
class SchemaMismatch extends Error {}

/**
 * The AI SDK output for `schema`: the wire schema goes to the model, and the answer is checked with zod
 * (a mismatch is a `SchemaMismatch` carrying the issues, for the repair prompt).
 */
export function checkedObjectOutput<T>(
  ai: AiModule,
  schema: z.ZodType<T>,
  wireSchema: Record<string, unknown>,
  naming: { readonly name?: string | undefined; readonly description?: string | undefined } = {},
) {
  return ai.Output.object({
    schema: ai.jsonSchema<T>(wireSchema, {
      validate: async (value) => {
        const parsed = await schema.safeParseAsync(value);
        return parsed.success
          ? { success: true, value: parsed.data }
          : { success: false, error: new SchemaMismatch(formatIssues(parsed.error)) };
      },
    }),
    ...(naming.name === undefined ? {} : { name: naming.name }),
    ...(naming.description === undefined ? {} : { description: naming.description }),
  });
}

/** The `generateText` settings a caller's options set, only those given (the provider keeps its defaults). */
export function callSettings(options: StructuredCallOptions) {
  return {
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
  };
}

/** The repair request's text: what was wrong with the answer and the schema to answer with. */
export function repairCorrection(problem: string, wireSchema: Record<string, unknown>): string {
  return (
    `Your previous answer could not be used: ${problem}. ` +
    'Answer again with only one JSON object that matches this JSON schema, and no other text:\n' +
    JSON.stringify(wireSchema)
  );
}

/** Why the AI SDK found no object in an answer (`NoObjectGeneratedError`): cut off, not JSON, or not the schema. */
export function noObjectProblem(error: { readonly finishReason?: string; readonly cause?: unknown }): string {
  return error.finishReason === 'length' ? emptyAnswerProblem('length') : describeProblem(error.cause);
}

/**
 * The JSON schema sent to the model: the schema's *output* shape, so a field with a zod default is listed
 * as required (OpenAI's strict mode requires every property), with the `default` keywords removed because
 * strict mode rejects them. Validation still runs the zod schema, which accepts the field's absence.
 */
export function toWireSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  return stripDefaults(json) as Record<string, unknown>;
}

function stripDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDefaults);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key !== 'default') result[key] = stripDefaults(entry);
  }
  return result;
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}

/** A readable reason from the cause chain of an AI SDK `NoObjectGeneratedError`. */
function describeProblem(cause: unknown): string {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current instanceof SchemaMismatch) return `it does not match the schema (${current.message})`;
    current = current.cause;
  }
  if (cause instanceof Error && cause.name === 'AI_JSONParseError') return 'it is not valid JSON';
  return cause instanceof Error
    ? (cause.message.split('\n')[0] ?? 'it could not be read')
    : 'it could not be read';
}

/** Why an answer with no object at all is unusable, from the step's finish reason. */
export function emptyAnswerProblem(finishReason: string): string {
  return finishReason === 'length'
    ? 'the answer was cut off at the output token limit'
    : `the model returned no answer (finish reason: ${finishReason})`;
}

/** The AI SDK's warnings (an unsupported setting the provider ignored, …) as readable lines. */
export function describeWarnings(warnings: readonly unknown[] | undefined): string[] {
  return (warnings ?? []).map((warning) => {
    const entry = warning as { type?: string; feature?: string; details?: string; message?: string };
    if (entry.type === 'other') return entry.message ?? 'other';
    return [entry.type, entry.feature, entry.details].filter((part) => part !== undefined).join(': ');
  });
}
