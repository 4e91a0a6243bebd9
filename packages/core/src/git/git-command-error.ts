// One class for every git failure snodo reports, whichever package ran git: core reuses the SDK's.
export { GitCommandError } from '@snodo/coder-sdk';
