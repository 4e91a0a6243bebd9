export { type CreateFakeCliOptions, createFakeCli, type FakeCli } from './create-fake-cli.js';
export type {
  FakeCliInstructionsSighting,
  FakeCliProcessIds,
  FakeCliRecord,
  FakeCliStart,
} from './fake-cli-record.js';
export {
  type FakeCliScenario,
  type FakeCliStep,
  fakeCliScenarioSchema,
  fakeCliStepSchema,
} from './fake-cli-scenario.js';
export { FakeCliScenarioError } from './fake-cli-scenario-error.js';
