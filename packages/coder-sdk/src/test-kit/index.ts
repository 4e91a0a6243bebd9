export {
  MockCoderAdapterV1,
  type MockCoderAdapterV1Options,
  type MockCoderDoRun,
} from './mock-coder-adapter-v1.js';
