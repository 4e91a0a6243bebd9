/**
 * Programs that run a string given on their command line as code, by the name of their executable
 * (lower case, without `.exe` or a version suffix), with the flags that introduce that string and how a
 * script there reads its first extra argument. A placeholder substituted into such a string would turn the
 * task text into code: `["sh", "-c", "my-cli {prompt}"]` with the task `"; touch ~/pwned #` runs `touch`.
 *
 * Documented in the CLI README ("Third-party coders"); extend both together.
 */
const inlineCodePrograms: Readonly<
  Record<string, { readonly flags: readonly string[]; readonly firstArgument: string }>
> = {
  sh: { flags: ['-c'], firstArgument: '"$1"' },
  bash: { flags: ['-c'], firstArgument: '"$1"' },
  zsh: { flags: ['-c'], firstArgument: '"$1"' },
  dash: { flags: ['-c'], firstArgument: '"$1"' },
  ksh: { flags: ['-c'], firstArgument: '"$1"' },
  mksh: { flags: ['-c'], firstArgument: '"$1"' },
  ash: { flags: ['-c'], firstArgument: '"$1"' },
  busybox: { flags: ['-c'], firstArgument: '"$1"' },
  fish: { flags: ['-c', '--command'], firstArgument: '$argv[1]' },
  csh: { flags: ['-c'], firstArgument: '"$1"' },
  tcsh: { flags: ['-c'], firstArgument: '"$1"' },
  cmd: { flags: ['/c', '/k'], firstArgument: '' },
  powershell: { flags: ['-c', '-command', '-e', '-ec', '-encodedcommand'], firstArgument: '$args[0]' },
  pwsh: { flags: ['-c', '-command', '-e', '-ec', '-encodedcommand'], firstArgument: '$args[0]' },
  node: { flags: ['-e', '--eval', '-p', '--print'], firstArgument: 'process.argv[1]' },
  nodejs: { flags: ['-e', '--eval', '-p', '--print'], firstArgument: 'process.argv[1]' },
  bun: { flags: ['-e', '--eval', '-p', '--print'], firstArgument: 'process.argv[1]' },
  deno: { flags: ['eval'], firstArgument: 'Deno.args[0]' },
  python: { flags: ['-c'], firstArgument: 'sys.argv[1]' },
  pypy: { flags: ['-c'], firstArgument: 'sys.argv[1]' },
  perl: { flags: ['-e', '-E'], firstArgument: '$ARGV[0]' },
  ruby: { flags: ['-e'], firstArgument: 'ARGV[0]' },
  php: { flags: ['-r'], firstArgument: '$argv[1]' },
  lua: { flags: ['-e'], firstArgument: 'arg[1]' },
  osascript: { flags: ['-e'], firstArgument: 'item 1 of argv' },
};

/** The names of the programs `findInlineCodePlaceholders` knows, for the README and messages. */
export const inlineCodeProgramNames: readonly string[] = Object.keys(inlineCodePrograms);

/** Programs that run the rest of their argv as another command (`env`, `timeout 60`, `nice -n 5`…). */
const wrappers = new Set([
  'env',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'exec',
  'sudo',
  'doas',
  'setsid',
  'time',
  'command',
  'chrt',
  'ionice',
  'taskset',
]);

const placeholderPattern = /\{[a-z_]+\}/;

/**
 * The problems of a command template that passes a placeholder inside a string that a shell or an
 * interpreter runs as code (`sh -c`, `bash -lc`, `cmd /c`, `node -e`, `python -c`…), each a sentence with
 * the safe form: the placeholder as its own argv element, read by the script as its first argument. The
 * program is the template's first element, or the first after wrappers such as `env A=1` or `timeout 60`.
 * Placeholders are expanded as data, never as code: every placeholder in such a string is refused, not
 * only `{prompt}`.
 */
export function findInlineCodePlaceholders(template: readonly string[]): string[] {
  let index = 0;
  while (index < template.length - 1 && isWrapperPart(template, index)) index += 1;
  const programName = normaliseProgram(template[index] ?? '');
  const program = inlineCodePrograms[programName];
  if (program === undefined) return [];
  const problems: string[] = [];
  for (let at = index + 1; at < template.length; at += 1) {
    const element = template[at] ?? '';
    const code = inlineCodeOf(programName, program.flags, element, template[at + 1]);
    if (code === undefined) continue;
    const codeIndex = at + code.offset;
    at = codeIndex;
    if (!placeholderPattern.test(code.text)) {
      const executed = program.firstArgument === '"$1"' ? argumentsRunAsCode(code.text) : undefined;
      // After the code come $0, then $1, $2…: `eval` may run any of them, a command position only its own.
      const candidates =
        executed === undefined
          ? []
          : executed === 'any'
            ? template.slice(codeIndex + 2)
            : [template[codeIndex + 1 + executed] ?? ''];
      const later = candidates.find((argument) => placeholderPattern.test(argument));
      if (later !== undefined) {
        problems.push(
          `the code string of \`${template[index]} ${element}\` (element ${codeIndex}) runs its arguments as ` +
            `code (\`eval\`, a nested \`sh -c\`, or an argument as the command), and ${later} is one of them, ` +
            'so the task text would run as code; use the argument as data only ("$1" as one word, never ' +
            'evaluated), or list the program and its arguments directly',
        );
      }
      continue;
    }
    const placeholder = code.text.match(placeholderPattern)?.[0] ?? '{prompt}';
    const what =
      `${placeholder} is inside the code string of \`${template[index]} ${element.split('=')[0]}\` ` +
      `(element ${codeIndex}), so the task text would run as code`;
    const direct = `list the program and its arguments directly, like ["my-cli", "--prompt", "${placeholder}"]`;
    problems.push(
      programName === 'cmd'
        ? `${what}; cmd has no safe way to pass it, so ${direct}`
        : `${what}; pass it as its own element after the code and read it there as ${program.firstArgument}, ` +
            `e.g. ${safeExample(template[index] ?? programName, element, placeholder)}, or ${direct}`,
    );
  }
  return problems;
}

/**
 * Which positional argument shell code executes as code: `'any'` for `eval` of one, the number of the one
 * that is run as a command or handed to a nested `sh -c` (`"$1"`, `sh -c "$1"`; `"$@"` and `$*` start with
 * `$1`), or `undefined` when arguments are only data (`my-cli --prompt "$1"`).
 */
function argumentsRunAsCode(code: string): 'any' | number | undefined {
  if (/\beval\b[^;&|]*\$\{?[@*1-9]/.test(code)) return 'any';
  const positional = String.raw`"?\$\{?([@*1-9])\}?"?`;
  const nested = new RegExp(String.raw`\b(?:sh|bash|zsh|dash|ksh|fish)\s+(?:-\w+\s+)*-\w*c\s+${positional}`);
  const command = new RegExp(String.raw`(?:^|[;&|(]\s*|\bexec\s+)${positional}(?=\s|$|[;&|)])`);
  const found = nested.exec(code) ?? command.exec(code.trim());
  if (found === null) return undefined;
  const which = found[1] ?? '1';
  return which === '@' || which === '*' ? 1 : Number(which);
}

/** The code string an element introduces (`-c <code>`, `--eval=<code>`, a `-lc` cluster), if any. */
function inlineCodeOf(
  programName: string,
  flags: readonly string[],
  element: string,
  next: string | undefined,
): { text: string; offset: 0 | 1 } | undefined {
  const lower = element.toLowerCase();
  const isShell = inlineCodePrograms[programName]?.firstArgument === '"$1"';
  const clusters = isShell && /^-[a-z]+$/i.test(element) && element.includes('c');
  const caseFlags = programName === 'cmd' || programName === 'powershell' || programName === 'pwsh';
  const matches = flags.some((flag) => (caseFlags ? lower === flag : element === flag));
  if (matches || clusters) return next === undefined ? undefined : { text: next, offset: 1 };
  const joined = flags.find((flag) => flag.startsWith('--') && element.startsWith(`${flag}=`));
  if (joined !== undefined) return { text: element.slice(joined.length + 1), offset: 0 };
  return undefined;
}

/** The safe form for the message: `["sh", "-c", "my-cli --prompt \"$1\"", "sh", "{prompt}"]`. */
function safeExample(program: string, flag: string, placeholder: string): string {
  const programName = normaliseProgram(program);
  const reader = inlineCodePrograms[programName]?.firstArgument ?? '';
  const code = reader === '"$1"' ? 'my-cli --prompt \\"$1\\"' : `<code that reads ${reader}>`;
  const zero = reader === '"$1"' ? `, "${programName}"` : '';
  return `["${program}", "${flag.split('=')[0]}", "${code}"${zero}, "${placeholder}"]`;
}

/** Whether the element at `index` is a wrapper program or one of its options before the real program. */
function isWrapperPart(template: readonly string[], index: number): boolean {
  const element = template[index] ?? '';
  if (wrappers.has(normaliseProgram(element))) return true;
  if (index === 0) return false;
  // After a wrapper: its options (`-n`, `-i`), assignments (`A=1`) and numbers (`timeout 60`).
  return element.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(element) || /^\d+[smhd]?$/.test(element);
}

/** `/usr/bin/python3.12` → `python`, `C:\\Windows\\cmd.exe` → `cmd`. */
function normaliseProgram(element: string): string {
  const base = element.split(/[\\/]/).pop() ?? element;
  return base
    .toLowerCase()
    .replace(/\.exe$/, '')
    .replace(/[\d.]+$/, '');
}
