export { AgyCoder, type AgyCoderSettings, createAgyCoder } from './agy-adapter.js';
export { type AgyEnvelope, agyEnvelopeSchema } from './agy-output.js';
export { agyRegistration } from './registration.js';
export { AGY_SUPPORTED_VERSIONS, VERSION } from './version.js';
