// @snodo/core/paths: where snodo keeps things — `$SNODO_HOME`, its `config.yml` and worktrees, a
// repository's jobs — computed from the environment alone, without reading or validating any file.

/** `$SNODO_HOME` (or `~/.snodo`), its config file, and where workspaces go. */
export {
  CONFIG_FILE_NAME,
  configFilePath,
  type EnvironmentVariables,
  resolveSnodoHome,
  type SnodoHomeOptions,
  worktreesDirectory,
} from './config/snodo-home.js';
/** Where a job's files are, and the directory of all jobs. */
export { type JobPaths, jobPaths, jobsDirectory } from './jobs/job-paths.js';
