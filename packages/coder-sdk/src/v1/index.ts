export type { CoderAdapterV1, CoderV1Kind } from './coder-v1.js';
export type { CoderV1Availability, CoderV1AvailabilityOptions } from './coder-v1-availability.js';
export type { CoderV1Credentials } from './coder-v1-credentials.js';
export type { CoderV1Event } from './coder-v1-event.js';
export type { CoderV1FileProposal } from './coder-v1-file-proposal.js';
export type { CoderV1Request } from './coder-v1-request.js';
export type { CoderV1Result } from './coder-v1-result.js';
export type { CoderV1Sandbox, CoderV1SandboxMount } from './coder-v1-sandbox.js';
export type { CoderV1Usage } from './coder-v1-usage.js';
