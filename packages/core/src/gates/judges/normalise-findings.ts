import type { GateFinding } from '../gate-verdict.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Turns a judge's findings (strings, or objects with `message`/`description`/`text` and `path`/`file` and
 * `line`) into `GateFinding`s. Anything else is kept as its JSON text rather than dropped.
 */
export function normaliseFindings(findings: readonly unknown[] | null | undefined): GateFinding[] {
  const result: GateFinding[] = [];
  for (const finding of findings ?? []) {
    if (typeof finding === 'string') {
      if (finding.trim() !== '') result.push({ message: finding });
      continue;
    }
    if (finding === null || typeof finding !== 'object') continue;
    const record = finding as Record<string, unknown>;
    const message =
      text(record.message) ?? text(record.description) ?? text(record.text) ?? JSON.stringify(finding);
    const path = text(record.path) ?? text(record.file);
    const line = typeof record.line === 'number' && Number.isInteger(record.line) ? record.line : undefined;
    result.push({ message, ...(path ? { path } : {}), ...(line !== undefined ? { line } : {}) });
  }
  return result;
}
