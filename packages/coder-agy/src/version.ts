import type { SupportedVersionRange } from '@snodo/coder-sdk';
import { version } from '../package.json';

/** This package's version. */
export const VERSION: string = version;

/**
 * The Antigravity CLI versions this adapter is built for, from the CLI's documentation and changelog (it is
 * not on npm, so no version was verified live; see COMPAT.md). 1.1.8 added `--output-format json`, without
 * which print mode gives no usage or conversation id, and older versions print nothing at all when stdout
 * is not a terminal. Outside the range a run fails with `CODER_CLI_VERSION_UNSUPPORTED`.
 */
export const AGY_SUPPORTED_VERSIONS: SupportedVersionRange = { min: '1.1.8', below: '2.0.0' };
