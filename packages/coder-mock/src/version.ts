import { version } from '../package.json';
/** This package's version, reported as the mock coder's "CLI version" in commits and `state.json`. */
export const VERSION: string = version;
