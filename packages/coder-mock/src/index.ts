export { createMockCoder } from './mock-adapter.js';
export type { MockCoderSettings, MockFileSetting } from './mock-coder-settings.js';
export { mockRegistration } from './registration.js';
export { VERSION } from './version.js';
