export type {
  CoderAdapterFactory,
  CoderConformanceFixture,
  ConformanceAdapterOptions,
  ConformanceFakeCliFixture,
  ConformanceOutputFixture,
  ConformanceTimeouts,
} from './conformance/coder-conformance-fixture.js';
export { CONFORMANCE_PROMPT } from './conformance/conformance-prompt.js';
export { describeCoderConformance } from './conformance/describe-coder-conformance.js';
export {
  isObligationName,
  OBLIGATION_NAMES,
  type ObligationInfo,
  type ObligationName,
  obligationInfo,
} from './conformance/obligation-catalog.js';
export {
  type ConformancePlanOptions,
  type PlannedObligation,
  planCoderConformance,
} from './conformance/plan-coder-conformance.js';
export { DEFAULT_ATTRIBUTION_SAMPLES } from './conformance/resolved-fixture.js';
export { type ConformanceResult, runCoderConformance } from './conformance/run-coder-conformance.js';
export { ConformanceFixtureError } from './errors/conformance-fixture-error.js';
export { ConformanceObligationError } from './errors/conformance-obligation-error.js';
export { createExampleCoder, ExampleCoder } from './example/example-coder.js';
export { obligations } from './obligations/index.js';
export type { CoderObligation } from './obligations/obligation-scope.js';
