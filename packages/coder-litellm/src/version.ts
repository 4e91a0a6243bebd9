import { version } from '../package.json';
/**
 * This package's version. The direct LLM coders run no CLI, so it stands in for the "CLI version" in
 * commit trailers (`Snodo-Coder: litellm@0.1.0`), the audit log and `state.json`.
 */
export const VERSION: string = version;
