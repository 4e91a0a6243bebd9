import { findInlineCodePlaceholders } from './find-inline-code-placeholders.js';

/** The placeholders a command template may use. */
export const commandTemplatePlaceholders = ['prompt', 'model', 'workspace'] as const;

/** One placeholder name. */
export type CommandTemplatePlaceholder = (typeof commandTemplatePlaceholders)[number];

/** The values substituted into a command template for one run. */
export interface CommandTemplateValues {
  /** The full prompt snodo built for the coder. */
  readonly prompt: string;
  /** The worktree path the coder works in. */
  readonly workspace: string;
  /** The coder's model; `undefined` leaves it to the CLI's own default. */
  readonly model: string | undefined;
}

const placeholderPattern = /\{([a-z_]+)\}/g;

/**
 * The problems of a command template from config (`coders.<id>.command`), as sentences; empty when it is
 * usable. A template must name a program first (without placeholders), must pass `{prompt}` somewhere
 * (the coder's stdin is closed), and may use only the known placeholders, so a typo such as `{promt}`
 * fails at start-up instead of reaching the CLI as literal text. A placeholder inside a string a shell or
 * interpreter runs as code (`sh -c "my-cli {prompt}"`) is refused with the safe form
 * (`findInlineCodePlaceholders`): the task text must never become code.
 */
export function checkCommandTemplate(template: readonly unknown[]): string[] {
  const problems: string[] = [];
  if (template.length === 0) return ['it is empty; give the program first, then its arguments'];
  template.forEach((element, index) => {
    if (typeof element !== 'string') problems.push(`element ${index} is not a string`);
  });
  if (problems.length > 0) return problems;
  const strings = template as readonly string[];
  const program = strings[0] ?? '';
  if (program.trim() === '') problems.push('the program (first element) is empty');
  if (placeholdersIn(program).length > 0)
    problems.push('the program (first element) may not hold a placeholder');
  const used = new Set(strings.flatMap(placeholdersIn));
  for (const name of used) {
    if (!(commandTemplatePlaceholders as readonly string[]).includes(name)) {
      problems.push(
        `{${name}} is not a placeholder; use ${commandTemplatePlaceholders.map((p) => `{${p}}`).join(', ')}`,
      );
    }
  }
  if (!used.has('prompt')) problems.push('it never passes {prompt}, so the coder would not see the task');
  problems.push(...findInlineCodePlaceholders(strings));
  return problems;
}

/**
 * Turns a command template into the argv of one run. Each placeholder is replaced inside its own argv
 * element only, in a single pass (a prompt containing `{model}` or quotes or `; rm -rf` stays literal text
 * in one element); the result is an argv array for a direct spawn, never a shell string.
 *
 * Without a model, an element holding `{model}` is dropped, together with the flag just before it when the
 * element is exactly `{model}` and the flag is a plain option (`--model {model}`, `-m {model}`), so the CLI
 * falls back to its own default instead of receiving an empty model.
 *
 * Called by the command-template coder's `buildArgv` for every run.
 */
export function expandCommandTemplate(template: readonly string[], values: CommandTemplateValues): string[] {
  const argv: string[] = [];
  template.forEach((element, index) => {
    const names = placeholdersIn(element);
    if (values.model === undefined && names.includes('model')) {
      // The flag is judged on the template, not on the argv so far: an expanded prompt that happens to
      // start with '-' must never be mistaken for the model flag and dropped.
      const previous = template[index - 1];
      const flagBefore =
        element === '{model}' &&
        index > 1 &&
        previous?.startsWith('-') === true &&
        !previous.includes('=') &&
        placeholdersIn(previous).length === 0;
      if (flagBefore) argv.pop();
      return;
    }
    argv.push(
      element.replace(placeholderPattern, (whole, name: string) => {
        if (name === 'prompt') return values.prompt;
        if (name === 'workspace') return values.workspace;
        if (name === 'model') return values.model ?? '';
        return whole;
      }),
    );
  });
  return argv;
}

/** The placeholder names an element uses, in order. */
function placeholdersIn(element: string): string[] {
  return [...element.matchAll(placeholderPattern)].map((match) => match[1] ?? '');
}
