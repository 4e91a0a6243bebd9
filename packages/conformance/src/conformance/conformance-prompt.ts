/**
 * The prompt of every run: spaces, both kinds of quotes, a newline, a command substitution, a variable, a
 * glob, a semicolon and a leading `--`. Anything that splits, quotes, expands or drops it shows in the argv
 * the fake CLI records. Its double quotes are balanced so a shell-spawning adapter still starts the CLI
 * and fails only the argv obligation.
 */
export const CONFORMANCE_PROMPT =
  '--conformance: keep this prompt as ONE argument, "exactly as written"\n' +
  "with 'single quotes', a $(printf expanded) substitution, $HOME, a * glob; and a second line.";
