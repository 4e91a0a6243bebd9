import type { SupportedVersionRange } from '@snodo/coder-sdk';
import { version } from '../package.json';

/** This package's version. */
export const VERSION: string = version;

/**
 * The OpenCode versions this adapter was verified against, live: 1.18.30 and 1.18.33 (see COMPAT.md).
 * Outside them a run fails with `CODER_CLI_VERSION_UNSUPPORTED` before the worktree is touched. OpenCode 2
 * (`@opencode/cli`) is a different program and is not supported.
 */
export const OPENCODE_CLI_SUPPORTED_VERSIONS: SupportedVersionRange = { min: '1.18.30', below: '1.19.0' };
