/**
 * What `snodo init` detected in the repository, to be written into a template explicitly. `null` means
 * "looked, found nothing" (which is written down too); an absent field leaves the template as it is.
 */
export interface TemplateCommands {
  /** The test command (argv) and the file that decided it; `null`: no tests, so no tests gate. */
  readonly test?: { readonly command: readonly string[]; readonly source: string } | null;
  /** The workspace setup (argv) and what decided it (`lockfile package-lock.json`); `null`: nothing to install. */
  readonly setup?: { readonly command: readonly string[]; readonly source: string } | null;
}

/** The id every template gives its command gate. */
const TESTS_GATE_ID = 'tests';

/** An argv as a YAML flow sequence: `[npm, ci, --prefer-offline]`, quoting only what YAML would misread. */
export function yamlArgv(argv: readonly string[]): string {
  return `[${argv.map((part) => (/^[A-Za-z0-9_./][\w./=+-]*$/.test(part) || /^-[\w-][\w./=+-]*$/.test(part) ? part : JSON.stringify(part))).join(', ')}]`;
}

/** The template without its tests gate: gone from every mode's list and from `validators`, with a note why. */
function withoutTestsGate(lines: string[]): string[] {
  const listed = /^(\s+validators: \[)(.*)(\].*)$/;
  const out = lines.map((line) => {
    const match = listed.exec(line);
    if (!match) return line;
    const kept = (match[2] ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== TESTS_GATE_ID);
    return `${match[1]}${kept.join(', ')}${match[3]}`;
  });
  const at = out.indexOf(`  - validator_id: ${TESTS_GATE_ID}`);
  if (at < 0) return out;
  let start = at;
  while (start > 0 && out[start - 1]?.startsWith('  #')) start -= 1;
  let end = at + 1;
  while (end < out.length && (out[end] ?? '').startsWith('    ')) end += 1;
  const note = [
    '  # No tests gate: `snodo init` found no test command in this repository, so runs report',
    '  # "no tests ran" instead of a warning that only you could fix. When the project has tests, add',
    `  # the gate back here and list \`${TESTS_GATE_ID}\` in the mode's validators:`,
    `  # - validator_id: ${TESTS_GATE_ID}`,
    '  #   validator_type: quality',
    '  #   evaluation_phase: post_execute',
    '  #   tooling:',
    '  #     test_command: npm test       # a string runs through `sh -c`, a list runs directly',
  ];
  return [...out.slice(0, start), ...note, ...out.slice(end)];
}

/** The tests gate with its command written out, its commented examples kept as alternatives under it. */
function withTestCommand(lines: string[], test: { command: readonly string[]; source: string }): string[] {
  const at = lines.indexOf(`  - validator_id: ${TESTS_GATE_ID}`);
  if (at < 0) return lines;
  const out = [...lines];
  let index = at + 1;
  while (index < out.length && (out[index] ?? '').startsWith('    ')) {
    const line = out[index] ?? '';
    if (line === '    tooling: {}') {
      out.splice(
        index,
        1,
        '    tooling:',
        `      test_command: ${yamlArgv(test.command)}   # detected by \`snodo init\` from ${test.source}`,
      );
      index += 2;
      continue;
    }
    if (line === '    # tooling:') {
      out.splice(index, 1);
      continue;
    }
    if (line.startsWith('    #   ')) out[index] = `      # ${line.slice('    #   '.length)}`;
    index += 1;
  }
  return out;
}

/** The `setup` line (and a commented `copy_into_workspace`) at the end of the template's `execution:`. */
function withSetup(lines: string[], setup: TemplateCommands['setup']): string[] {
  const out = [...lines];
  while (out.length > 0 && out.at(-1) === '') out.pop();
  if (!out.includes('execution:')) out.push('', 'execution:');
  const setupLines =
    setup === null || setup === undefined
      ? [
          "  # Prepares each job's fresh workspace before the coder runs. `snodo init` found no lockfile to",
          '  # install from; `auto` detects one added later. Set a command (`[make, deps]`) or `none`.',
          '  setup: auto',
        ]
      : [
          "  # Prepares each job's fresh workspace before the coder and the gates run (in the sandbox, with",
          `  # network). Detected by \`snodo init\` from ${setup.source.replace(/^(lockfile|manifest) /, '')}; \`auto\` re-detects, \`none\` skips.`,
          `  setup: ${yamlArgv(setup.command)}`,
        ];
  out.push(
    ...setupLines,
    '  # copy_into_workspace: [.env]   # untracked files the project needs, copied from your checkout',
    '',
  );
  return out;
}

/**
 * Writes what `snodo init` detected into a template's text, so the protocol states it instead of a run
 * guessing later: the tests gate's `tooling.test_command` (or, with no tests, no tests gate at all, and a
 * comment saying runs report "no tests ran"), and `execution.setup`. Comments stay where people read them.
 */
export function applyTemplateCommands(text: string, commands: TemplateCommands): string {
  let lines = text.split('\n');
  if (commands.test === null) lines = withoutTestsGate(lines);
  else if (commands.test !== undefined) lines = withTestCommand(lines, commands.test);
  if (commands.setup !== undefined) lines = withSetup(lines, commands.setup);
  return lines.join('\n');
}
