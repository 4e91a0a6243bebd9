import { z } from 'zod';

/** How bad a judge finds the change: `pass` approves, `warn` withholds approval, `blocker` halts the run. */
export type VerdictSeverity = 'pass' | 'warn' | 'blocker';

/** One concrete problem a judge found, optionally pinned to a place in the diff. */
export interface VerdictFinding {
  /** What is wrong, in a sentence. */
  readonly message: string;
  /** The file it concerns, relative to the repository root. */
  readonly file?: string;
  /** The line in that file. */
  readonly line?: number;
  /** How bad this one finding is, when the judge rates findings separately. */
  readonly severity?: VerdictSeverity;
}

/** A judge's structured verdict (SPEC §5), as `generateVerdict` returns it and the audit log records it. */
export interface Verdict {
  /** The overall severity. */
  readonly severity: VerdictSeverity;
  /** Why, in the judge's words. */
  readonly justification: string;
  /** The findings behind the severity; empty for a clean pass. */
  readonly findings: readonly VerdictFinding[];
}

const severity = z.enum(['pass', 'warn', 'blocker']);

/**
 * The verdict as the model must answer it. Every field is listed as required in the JSON schema sent to
 * the model (OpenAI's strict mode demands it; optional finding fields are `null` there), while validation
 * accepts a missing `findings` or missing finding fields, so a model that leaves them out is not sent to
 * the repair attempt for nothing.
 */
export const verdictAnswerSchema = z.object({
  severity: severity.describe(
    'pass: every criterion is met; warn: minor concerns; blocker: a criterion is violated',
  ),
  justification: z.string().describe('Why this severity, citing the criteria'),
  findings: z
    .array(
      z.object({
        message: z.string().describe('What is wrong'),
        file: z.string().nullable().default(null).describe('File path, or null'),
        line: z.number().nullable().default(null).describe('Line number, or null'),
        severity: severity.nullable().default(null).describe('Severity of this finding, or null'),
      }),
    )
    .default([]),
});

/** The answer after validation, with `null`s still in place. */
export type VerdictAnswer = z.output<typeof verdictAnswerSchema>;

/** Drops the `null`s the wire format needs, giving the public `Verdict`. */
export function toVerdict(answer: VerdictAnswer): Verdict {
  return {
    severity: answer.severity,
    justification: answer.justification,
    findings: answer.findings.map((finding) => ({
      message: finding.message,
      ...(finding.file === null ? {} : { file: finding.file }),
      ...(finding.line === null ? {} : { line: finding.line }),
      ...(finding.severity === null ? {} : { severity: finding.severity }),
    })),
  };
}
