/**
 * `@snodo/coder-sdk/git`: the one git runner on its own — `runGit`, `runGitSync`, their hardening flags and
 * environment, and the error they throw — and `runShortCommand`, which starts them (and snodo's other quick
 * helper programs) off the event loop with a time limit. It loads only Node and the foundation (the main entry and `/utils`
 * also load the SDK's schemas), so a program that only runs git, such as snodo's commands that read jobs,
 * starts without them. The main entry exports the same functions.
 */
export { GitCommandError } from '../errors/git-command-error.js';
export { GitTimeoutInvalidError } from '../errors/git-timeout-invalid-error.js';
export { gitExecutable } from './git-executable.js';
export { type GitEnvironmentOptions, gitEnvironment, hardeningArguments } from './git-hardening.js';
export { type RunGitOptions, type RunGitResult, runGit, runGitSync } from './run-git.js';
export { runShortCommand, type ShortCommand, type ShortCommandExit } from './run-short-command.js';
