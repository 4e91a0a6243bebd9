import { openProject, planTask } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { EXIT_CODES, exitCodeForErrorCode } from '../../exit-codes.js';
import {
  describeBaseSource,
  describeCoderSource,
  describeModel,
  describeModelSource,
  describeModeSource,
} from '../../output/describe-source.js';
import { formatTable } from '../../output/table.js';
import { budgetRow } from './dry-run-budget.js';
import { type DryRunPlan, toDryRunPlan } from './dry-run-plan.js';
import { type RunFlags, taskRequestFromFlags } from './run-action.js';

/** The plan as the lines a user reads. */
export function formatDryRun(plan: DryRunPlan, dim: (text: string) => string): string {
  const gates = (list: readonly { id: string; type: string }[]) =>
    list.length === 0 ? '(none)' : list.map((gate) => `${gate.id} (${gate.type})`).join(', ');
  const modes = plan.mode.candidates.length > 1 ? `; candidates ${plan.mode.candidates.join(', ')}` : '';
  const status = plan.readiness.ready
    ? 'ready'
    : plan.coderStatus.ready
      ? 'not ready'
      : `not ready: ${plan.coderStatus.reason ?? 'unknown'}`;
  const model = (role: { value: string | null; source: string }) => [
    describeModel(role.value, role.source),
    dim(`(${describeModelSource(role.source)})`),
  ];
  const rows: string[][] = [
    ['task', plan.task, ''],
    ['protocol', `${plan.protocol.path} (${plan.protocol.id})`, ''],
    ['mode', plan.mode.value, dim(`(${describeModeSource(plan.mode.source)}${modes})`)],
    [
      'coder',
      `${plan.coder.displayName} (${plan.coder.value}, ${plan.coder.kind})`,
      dim(`(${describeCoderSource(plan.coder.source)}; ${status})`),
    ],
    ['judging model', ...model(plan.models.judging)],
    ['classifier model', ...model(plan.models.classifier)],
    ['coder model', ...model(plan.models.coder)],
    ['pre-execute gates', gates(plan.gates.preExecute), ''],
    ['post-execute gates', gates(plan.gates.postExecute), ''],
    [
      'constraints',
      plan.gates.constraints.length === 0
        ? '(none)'
        : plan.gates.constraints
            .map((constraint) => `${constraint.id} (${constraint.predicate ?? 'no predicate'})`)
            .join(', '),
      dim('(+ the built-in .snodo guard)'),
    ],
    ['policy', plan.policy, ''],
    ['merge', plan.merge.value, dim(`(${plan.merge.source === 'flag' ? '--merge' : plan.merge.source})`)],
    [
      'base',
      `${plan.base.value} @ ${plan.base.commit.slice(0, 10)}`,
      dim(`(${describeBaseSource(plan.base.source)})`),
    ],
    [
      'isolation',
      plan.isolation.mode === 'repository'
        ? `a workspace repository under ${plan.isolation.directory}`
        : 'the current checkout',
      dim(`(${plan.isolation.mode === 'none' ? '--no-isolation' : 'default'})`),
    ],
    [
      'coder timeout',
      `${plan.timeoutSeconds.value}s, up to ${plan.maxFixAttempts} fix attempt(s)`,
      dim(`(${plan.timeoutSeconds.source === 'flag' ? '--timeout' : plan.timeoutSeconds.source})`),
    ],
    budgetRow(plan.budget, dim),
  ];
  const lines = [
    `snodo run --dry-run: nothing was created`,
    formatTable(
      rows.map(([label = '', value = '', source = '']) => [
        label,
        source === '' ? value : `${value}  ${source}`,
      ]),
      { indent: '  ' },
    ),
    ...plan.protocol.warnings.map((warning) => `  warning: ${warning}`),
    // What the run would be refused with, word for word, and the commands that fix it.
    ...plan.readiness.problems.flatMap((problem) => [
      `${problem.message}`,
      ...(problem.fix !== null && problem.fix !== problem.message ? problem.fix.split('\n') : []),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}
/**
 * `snodo run --dry-run`: prints the plan core computes for the run (`planTask`), each choice with its
 * source. Creates no job, worktree, branch or audit event. Exit 0 when the run would start; otherwise the
 * exit code the run would be refused with: 2 for a model nothing configures, 3 for a coder that cannot run.
 */
export async function dryRunAction(context: CliContext, task: string, flags: RunFlags): Promise<number> {
  const project = await openProject({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    coders: builtInCoders,
    strict: flags.strict === true,
  });
  // The run's own request from the same flags, so the plan shown is the plan run.
  const plan = toDryRunPlan(await planTask(project, taskRequestFromFlags(task, flags)));
  if (flags.json === true) context.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  else context.stdout.write(formatDryRun(plan, context.out.dim));
  const [first] = plan.readiness.problems;
  if (first === undefined) return EXIT_CODES.done;
  return exitCodeForErrorCode(first.code);
}
