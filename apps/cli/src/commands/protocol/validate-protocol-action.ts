import { join, relative, resolve } from 'node:path';
import {
  BUILT_IN_PREDICATE_NAMES,
  findMainCheckout,
  formatSourceIssue,
  loadProtocol,
  openProject,
  ProtocolInvalidError,
  type SourceIssue,
} from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { EXIT_CODES } from '../../exit-codes.js';

/** The flags of `snodo protocol validate`. */
export interface ValidateProtocolFlags {
  readonly strict?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/** The coder ids a protocol may name: the registry core builds (built-in coders and those in config). */
async function registeredCoderIds(context: CliContext): Promise<string[]> {
  const project = await openProject({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    coders: builtInCoders,
  });
  return project.registry.list().map((registration) => registration.id);
}

/**
 * `snodo protocol validate [path]`: loads the file with every check a run applies (schema, unknown keys,
 * WF1–WF5, registered coders) and prints each problem as `file:line:column: message`. Exit 2 when any
 * problem is an error; warnings alone keep exit 0.
 */
export async function validateProtocolAction(
  context: CliContext,
  path: string | undefined,
  flags: ValidateProtocolFlags,
): Promise<number> {
  const file =
    path === undefined
      ? join((await findMainCheckout(context.cwd)).root, '.snodo', 'protocol.yml')
      : resolve(context.cwd, path);
  const shown = relative(context.cwd, file) || file;
  let issues: readonly SourceIssue[];
  let summary: string | undefined;
  try {
    const loaded = await loadProtocol(file, {
      fileName: shown,
      strict: flags.strict === true,
      registeredCoders: await registeredCoderIds(context),
      knownPredicates: [...BUILT_IN_PREDICATE_NAMES],
    });
    issues = loaded.warnings;
    const { protocol } = loaded;
    summary = `protocol ${protocol.protocol_id}: ${protocol.modes.length} mode(s), ${protocol.validators.length} validator(s), policy ${protocol.disagreement_policy}`;
  } catch (error) {
    if (!ProtocolInvalidError.isInstance(error)) throw error;
    issues = error.issues;
  }
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const warnings = issues.length - errors;
  if (flags.json === true) {
    context.stdout.write(
      `${JSON.stringify({ file: shown, valid: errors === 0, errors, warnings, issues }, null, 2)}\n`,
    );
  } else {
    const { out } = context;
    for (const issue of issues) {
      const line = formatSourceIssue(issue);
      context.stdout.write(`${issue.severity === 'error' ? out.red(line) : out.yellow(line)}\n`);
    }
    if (errors === 0) {
      const note = warnings === 0 ? '' : ` with ${warnings} warning(s)`;
      context.stdout.write(`${out.green('✔')} ${shown} is valid${note} (${summary ?? ''})\n`);
    } else {
      context.stdout.write(
        `${out.red('✘')} ${shown}: ${errors} error(s), ${warnings} warning(s). Fix the lines above and run \`snodo protocol validate\` again.\n`,
      );
    }
  }
  return errors === 0 ? EXIT_CODES.done : EXIT_CODES.badInput;
}
