import type { SupportedVersionRange } from '@snodo/coder-sdk';
import { version } from '../package.json';

/** This package's version. */
export const VERSION: string = version;

/**
 * The Codex CLI versions this adapter was verified against (COMPAT.md has the evidence): from the oldest
 * release run live against the fake LLM up to the next minor line, whose flags and events are unverified
 * (Codex is pre-1.0 and changes its config keys between minors). A `codex` outside it fails with
 * `CODER_CLI_VERSION_UNSUPPORTED` before the worktree is touched.
 */
export const CODEX_SUPPORTED_VERSIONS: SupportedVersionRange = { min: '0.139.0', below: '0.172.0' };
