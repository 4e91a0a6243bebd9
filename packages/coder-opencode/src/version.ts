import { version } from '../package.json';
/** This package's version. */
export const VERSION: string = version;

/**
 * The OpenCode releases this coder speaks to: the V1 server API of OpenCode 1.x. OpenCode 2.x serves a
 * different API (its V1 routes answer with the web app's HTML), so a 2.x server is refused with a clear
 * message. `COMPAT.md` records which versions were checked live and how.
 */
export const SUPPORTED_OPENCODE_VERSIONS = { min: '1.0.0', below: '2.0.0' } as const;

/** The OpenCode release the live (Tier 2) test runs, pinned through the workspace catalog. */
export const VERIFIED_OPENCODE_VERSION = '1.18.33';
