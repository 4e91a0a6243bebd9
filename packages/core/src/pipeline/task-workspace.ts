import type { CurrentCheckoutWorkspace, TaskWorkspace } from '../isolation/index.js';

/** Where the coder works: a snodo worktree, or the user's own checkout under `--no-isolation`. */
export type RunWorkspace = TaskWorkspace | CurrentCheckoutWorkspace;
