import type { SupportedVersionRange } from '@snodo/coder-sdk';
import { version } from '../package.json';

/** This package's version. */
export const VERSION: string = version;

/**
 * The Claude Code versions this adapter was verified against (COMPAT.md has the evidence): from the oldest
 * release run live against the fake LLM up to the next minor line, whose flags and events are unverified.
 * A `claude` outside it fails with `CODER_CLI_VERSION_UNSUPPORTED` before the worktree is touched.
 */
export const CLAUDE_CODE_SUPPORTED_VERSIONS: SupportedVersionRange = { min: '2.1.113', below: '2.2.0' };
