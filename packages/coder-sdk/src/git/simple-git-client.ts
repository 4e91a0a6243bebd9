import type { SimpleGit } from 'simple-git';
import { gitExecutable } from './git-executable.js';
import { gitEnvironment, hardeningArguments } from './git-hardening.js';

/** How `simpleGitClient` sets up one client. */
export interface SimpleGitClientOptions {
  /** The directory the client's commands run in (simple-git refuses one that does not exist). */
  readonly cwd: string;
  /** A read that must not take optional locks (`GIT_OPTIONAL_LOCKS=0`). */
  readonly readOnly?: boolean;
  /** Kill a command that prints nothing for this long (simple-git's `timeout.block`). */
  readonly timeoutMs?: number;
}

/**
 * `hardeningArguments` as simple-git wants them: its `config` option takes `key=value` pairs and adds the
 * `-c` itself; `--no-pager` goes in through the binary's prefix slot.
 */
function configurationPairs(): { prefix: string[]; config: string[] } {
  const prefix: string[] = [];
  const config: string[] = [];
  for (let index = 0; index < hardeningArguments.length; index++) {
    const argument = hardeningArguments[index] ?? '';
    if (argument === '-c') config.push(hardeningArguments[++index] ?? '');
    else prefix.push(argument);
  }
  // simple-git's binary option holds one prefix argument at most.
  if (prefix.length > 1) throw new Error(`simpleGitClient: more than one global flag (${prefix.join(' ')})`);
  return { prefix, config };
}

/**
 * A simple-git client that follows the runner's rules (`git-hardening.ts`): the same executable, flags and
 * environment as `runGit`. For the commands whose output simple-git's parsers read (`version()`); every
 * other git call goes through `runGit`, which is cheaper (see ARCHITECTURE.md, "One git runner").
 *
 * NOTE: simple-git 4 has its own guards, which key on names, not values: it drops ambient `GIT_*`
 * variables and refuses `-c core.hooksPath=…`, `GIT_PAGER`, `GIT_EDITOR` and `GIT_CONFIG_GLOBAL` unless
 * allowed. snodo sets the first ones itself to safe values and keeps the user's config and credential
 * locations on purpose, so the environment `gitEnvironment()` decided is allowed as a whole and the
 * guards for snodo's own settings are lifted; what snodo scrubs never reaches the client.
 */
export async function simpleGitClient(options: SimpleGitClientOptions): Promise<SimpleGit> {
  // Loaded on first use: importing the SDK should not pay for simple-git.
  const { simpleGit } = await import('simple-git');
  const environment = gitEnvironment({ readOnly: options.readOnly ?? false });
  const { prefix, config } = configurationPairs();
  const binary: [string] | [string, string] =
    prefix[0] === undefined ? [gitExecutable()] : [gitExecutable(), prefix[0]];
  return simpleGit({
    baseDir: options.cwd,
    binary,
    config,
    allowEnvironment: Object.keys(environment),
    unsafe: {
      allowUnsafeHooksPath: true,
      allowUnsafeFsMonitor: true,
      allowUnsafePager: true,
      allowUnsafeEditor: true,
      allowUnsafeConfigPaths: true,
      allowUnsafeAskPass: true,
      allowUnsafeSshCommand: true,
      allowUnsafeGitProxy: true,
      allowUnsafeExec: true,
      allowUnsafeTemplateDir: true,
      // runGit leaves git's own handling of abbreviated options alone too.
      allowAbbreviatedOptions: true,
    },
    ...(options.timeoutMs === undefined ? {} : { timeout: { block: options.timeoutMs } }),
  }).env(environment);
}
