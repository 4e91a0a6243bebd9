import type { SupportedVersionRange } from '@snodo/coder-sdk';
import { version } from '../package.json';

/** This package's version. */
export const VERSION: string = version;

/**
 * The Gemini CLI versions this adapter was verified against, live: 0.60.0 and 0.61.0 (see COMPAT.md).
 * Outside them a run fails with `CODER_CLI_VERSION_UNSUPPORTED` before the worktree is touched: Gemini CLI
 * changes its settings, trust rules and stream-json events between minor releases.
 */
export const GEMINI_CLI_SUPPORTED_VERSIONS: SupportedVersionRange = { min: '0.60.0', below: '0.62.0' };
