import { buildGuidanceSections } from './build-instructions.js';
import type { CoderPromptInput } from './coder-prompt-input.js';

function normalise(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

function findingsSection(input: CoderPromptInput): string | undefined {
  const findings = input.findings ?? [];
  if (input.attempt <= 1 && findings.length === 0) return undefined;
  const intro =
    `This is attempt ${input.attempt}. Your previous attempt is already committed in this worktree; ` +
    'change it so the checks below pass, and keep what was right.';
  if (findings.length === 0) return `## Previous attempt\n\n${intro}`;
  const lines = findings.map(
    (finding) =>
      `- [${normalise(finding.severity)}] ${normalise(finding.validatorId)}: ` +
      normalise(finding.justification).replace(/\n/g, '\n  '),
  );
  return `## Findings to address\n\n${intro}\n\n${lines.join('\n')}`;
}

/**
 * Builds the prompt every coder receives (`request.prompt`): the task, the mode's instructions,
 * constraints, scope, the ground rules, and on fix-loop rounds the findings of the previous attempt.
 * Markdown, deterministic (same input, same text), so prompts can be diffed and audited.
 */
export function buildCoderPrompt(input: CoderPromptInput): string {
  const sections = [`# Task\n\n${normalise(input.task)}`];
  const findings = findingsSection(input);
  if (findings !== undefined) sections.push(findings);
  sections.push(...buildGuidanceSections(input));
  return `${sections.join('\n\n')}\n`;
}
