export { applyFileProposals } from './apply-file-proposals.js';
export { ProposalPathRefusedError } from './proposal-path-refused-error.js';
export { resolveWritePath } from './resolve-write-path.js';
