/** This package's version, reported as the mock coder's "CLI version" in commits and `state.json`. */
export const VERSION = '0.1.0';
