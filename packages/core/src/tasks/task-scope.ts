import { homedir, userInfo } from 'node:os';
import { ConfigStore, type SnodoConfig, worktreesDirectory } from '../config/index.js';
import { findMainCheckout } from '../pipeline/run-context.js';

/** What every `snodo task …` and `snodo audit …` command is given. */
export interface TaskCommandOptions {
  /** A directory inside the repository. */
  readonly cwd: string;
  /** Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default `os.homedir()`. */
  readonly homeDirectory?: string;
  /** Who acts, for the audit log. Default: the OS user. */
  readonly actor?: string;
}

/** The repository and snodo home a task command works on. */
export interface TaskScope {
  readonly repositoryRoot: string;
  readonly gitCommonDirectory: string;
  readonly snodoHome: string;
  readonly worktreesDirectory: string;
  readonly config: SnodoConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string;
  readonly actor: string;
}

/** Finds the main checkout and loads config; no protocol is needed to manage jobs. */
export async function openTaskScope(options: TaskCommandOptions): Promise<TaskScope> {
  const env = options.env ?? process.env;
  const home = options.homeDirectory ?? homedir();
  const { root, commonDirectory } = await findMainCheckout(options.cwd);
  const store = ConfigStore.fromEnvironment({ env, homedir: home });
  const { config } = store.load();
  let actor = options.actor;
  if (actor === undefined) {
    try {
      actor = env.USER ?? userInfo().username;
    } catch {
      actor = 'unknown';
    }
  }
  return {
    repositoryRoot: root,
    gitCommonDirectory: commonDirectory,
    snodoHome: store.home,
    worktreesDirectory: worktreesDirectory({
      home: store.home,
      homedir: home,
      worktreesDir: config.worktrees_dir,
    }),
    config,
    env,
    homeDirectory: home,
    actor,
  };
}
