export { ProposalPathRefusedError } from '@snodo/coder-sdk';
export { applyFileProposals } from './apply-file-proposals.js';
export { resolveWritePath } from './resolve-write-path.js';
