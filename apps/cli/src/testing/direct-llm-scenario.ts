import type { FakeLlmTurn } from '@snodo/conformance/fake-llm';

/**
 * What the CLI tests of the direct LLM coder share: a one-judge protocol, the three model turns of a run
 * (the coder reads a file, submits an edit through `submit_files`, the judge passes it) and the config that
 * points both roles at the fake LLM's OpenAI dialect.
 */

/** A protocol with one mode and one post-execute judge; `execution` lines beyond the fix-loop off may be added. */
export function oneJudgeProtocol(protocolId: string, extraExecution: readonly string[] = []): string {
  return [
    `protocol_id: ${protocolId}`,
    `name: ${protocolId.replace(/-/g, ' ')}`,
    'initial_mode: producer',
    'modes:',
    '  - mode_id: producer',
    '    name: Producer',
    '    tools: [edit]',
    '    validators: [review]',
    'validators:',
    '  - validator_id: review',
    '    validator_type: conventions',
    '    evaluation_phase: post_execute',
    '    criteria: [The change does what the task asks.]',
    'disagreement_policy: unanimous',
    'execution:',
    '  max_fix_attempts: 0',
    ...extraExecution.map((line) => `  ${line}`),
    '',
  ].join('\n');
}

/** The coder reads README.md, then submits CONTRIBUTING.md; the judge passes. Usage per turn as a provider reports it. */
export function readThenSubmitScript(): FakeLlmTurn[] {
  return [
    { toolCall: { name: 'read_file', input: { path: 'README.md' } }, usage: { input: 900, output: 30 } },
    {
      writeFile: { path: 'CONTRIBUTING.md', content: '# Contributing\n\nRun pnpm test.\n' },
      via: 'submit_files',
      usage: { input: 1200, output: 80 },
    },
    {
      verdict: { severity: 'pass', justification: 'does what was asked', findings: [] },
      usage: { input: 700, output: 40 },
    },
  ];
}

/** `config.yml` naming the fake provider at `openaiBaseUrl`, a coder model and a judging model on it. */
export function fakeProviderConfig(openaiBaseUrl: string): string {
  return [
    'providers:',
    '  fake:',
    `    base_url: ${openaiBaseUrl}`,
    '    api_key: sk-fake-key-0123456789',
    'llm:',
    '  coder:',
    '    model: fake/gpt-4o',
    '  validator:',
    '    model: fake/gpt-4o-mini',
    '',
  ].join('\n');
}
