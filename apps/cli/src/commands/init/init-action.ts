import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  DEFAULT_PROTOCOL_TEMPLATE,
  detectProjectCommands,
  findMainCheckout,
  renderProtocolTemplate,
} from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { detectionLines } from './detection-lines.js';

/** The flags of `snodo init`. */
export interface InitFlags {
  readonly template?: string | undefined;
  readonly force?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/**
 * `snodo init`: refuses outside a git repository (with the `git init` hint) and refuses to replace an
 * existing protocol without `--force`; otherwise detects the repository's test command and workspace setup
 * from its files (core's own detection, the one runs use), writes the template into the main checkout's
 * `.snodo/` with both stated explicitly (no tests: no tests gate, so runs report "no tests ran" instead of
 * escalating), and says what it found, from which file, and what to do next.
 */
export async function initAction(context: CliContext, flags: InitFlags): Promise<number> {
  const template = flags.template ?? DEFAULT_PROTOCOL_TEMPLATE;
  // Checked first, so a typo in --template is reported even where a protocol already exists.
  renderProtocolTemplate(template);
  const { root } = await findMainCheckout(context.cwd);
  const directory = join(root, '.snodo');
  const path = join(directory, 'protocol.yml');
  const shown = relative(context.cwd, path) || path;
  if (existsSync(path) && flags.force !== true) {
    throw new CliError('PROTOCOL_EXISTS', {
      message: `${shown} already exists; snodo init leaves it as it is.`,
      fix: `snodo init --template ${template} --force   (replaces it; your edits are lost unless committed)`,
    });
  }
  const detected = detectProjectCommands(root);
  const text = renderProtocolTemplate(template, {
    test: detected.test ?? null,
    setup: detected.setup ?? null,
  });
  mkdirSync(directory, { recursive: true });
  writeFileSync(path, text);
  if (flags.json === true) {
    const json = {
      path,
      template,
      repositoryRoot: root,
      detected: {
        test: detected.test ? { command: detected.test.command, source: detected.test.source } : null,
        setup: detected.setup ? { command: detected.setup.command, source: detected.setup.source } : null,
      },
    };
    context.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  context.stdout.write(
    [
      `${out.green('✔')} wrote ${shown} (template ${template})`,
      ...detectionLines(detected),
      '',
      'Next:',
      `  git add ${relative(root, path)} && git commit -m "Add snodo protocol"`,
      '  snodo run "Add a CONTRIBUTING.md with setup steps" --mock   # offline, end to end',
      '  snodo protocol validate                                      # after you edit the file',
      '',
    ].join('\n'),
  );
  return EXIT_CODES.done;
}
