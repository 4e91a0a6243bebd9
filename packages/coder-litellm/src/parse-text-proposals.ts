import { type SubmittedFile, submitFilesInputSchema } from './submit-files-tool.js';

/** An outer code fence, matched greedily so fences inside file contents survive (Python original bug 9). */
const OUTER_FENCE = /```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*)\r?\n[ \t]*```/;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The last resort after the corrective turn: a model without working tool calls may still write the file
 * list as JSON, bare or in a code fence (text around the fence is ignored): `[{ "path", "content", "action"? }]` or
 * `{ "files": [...] }`. Returns the files when the text is exactly that and they validate, else
 * `undefined`. Prose never parses, so a chatty answer still fails.
 */
export function parseTextProposals(text: string): SubmittedFile[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const fenced = OUTER_FENCE.exec(trimmed)?.[1];
  const value = parseJson(trimmed) ?? (fenced === undefined ? undefined : parseJson(fenced));
  const list = Array.isArray(value)
    ? value
    : value !== null && typeof value === 'object' && Array.isArray((value as { files?: unknown }).files)
      ? (value as { files: unknown[] }).files
      : undefined;
  if (list === undefined) return undefined;
  const files = list.map((entry) =>
    entry !== null && typeof entry === 'object' && !('action' in entry)
      ? { ...entry, action: 'write' }
      : entry,
  );
  const parsed = submitFilesInputSchema.safeParse({ files });
  return parsed.success ? parsed.data.files : undefined;
}
