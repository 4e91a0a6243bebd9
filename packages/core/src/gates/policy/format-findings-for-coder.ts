import type { GateVerdict } from '../gate-verdict.js';

const outputChars = 3_000;

function location(path: string | undefined, line: number | undefined): string {
  if (path === undefined) return '';
  return line === undefined ? `${path}: ` : `${path}:${line}: `;
}

/**
 * The feedback the next coder attempt receives in the fix loop: every gate that did not pass, with its
 * severity (the original one when capped), its justification, its findings by file and line, and for a
 * command gate the tail of its output. Passing gates are left out. Returns '' when there is nothing to say.
 * Secrets never appear: `no_secrets_in_diff` findings are already masked.
 */
export function formatFindingsForCoder(verdicts: readonly GateVerdict[]): string {
  const failing = verdicts.filter(
    (verdict) => verdict.error || verdict.severity !== 'pass' || verdict.capped,
  );
  if (failing.length === 0) return '';
  const lines = [
    'The previous attempt did not pass review. Fix the problems below in the same worktree; keep what already',
    'works, and do not change files under .snodo/.',
  ];
  for (const verdict of failing) {
    const severity = verdict.originalSeverity ?? verdict.severity;
    lines.push('', `## ${verdict.gateId} (${verdict.gateType}): ${severity}`, verdict.justification);
    for (const finding of verdict.findings) {
      if (finding.message === verdict.justification) continue;
      lines.push(`- ${location(finding.path, finding.line)}${finding.message}`);
    }
    const tail = verdict.kind === 'command' ? verdict.evidence?.outputTail : undefined;
    if (typeof tail === 'string' && tail.trim() !== '') {
      const cut = tail.length > outputChars ? tail.slice(tail.length - outputChars) : tail;
      lines.push('Output (last lines):', '```text', cut, '```');
    }
  }
  return lines.join('\n');
}
