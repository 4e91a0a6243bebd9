import type {
  CoderAdapterV1,
  CoderV1Availability,
  CoderV1FileProposal,
  CoderV1Request,
  CoderV1Result,
} from '@snodo/coder-sdk';
import type { MockCoderSettings, MockFileSetting } from './mock-coder-settings.js';
import { mockRegistration } from './registration.js';

function invalid(message: string): Error {
  return new Error(
    `Invalid coder_config for the mock coder: ${message}. ` +
      "Expected 'files' as a map of path to content or a list of { path, content, action }.",
  );
}

function proposalsFromSettings(files: NonNullable<MockCoderSettings['files']>): CoderV1FileProposal[] {
  if (Array.isArray(files)) {
    return files.map((entry: MockFileSetting, index) => {
      if (typeof entry?.path !== 'string') throw invalid(`files[${index}].path is not a string`);
      const action = entry.action ?? 'write';
      if (action !== 'write' && action !== 'delete') throw invalid(`files[${index}].action is '${action}'`);
      return { path: entry.path, action, content: entry.content ?? '' };
    });
  }
  if (typeof files !== 'object' || files === null) throw invalid('files is neither a map nor a list');
  return Object.entries(files).map(([path, content]) => {
    if (typeof content !== 'string') throw invalid(`the content of '${path}' is not a string`);
    return { path, action: 'write', content };
  });
}

function defaultProposal(request: CoderV1Request): CoderV1FileProposal {
  return {
    path: `snodo-mock/${request.jobId}.md`,
    action: 'write',
    content:
      `# ${request.jobId}\n\n` +
      'Written by the snodo mock coder, which changes files without any model.\n\n' +
      `Attempt: ${request.attempt}\n\n## Task\n\n${request.task}\n`,
  };
}

/**
 * The deterministic, engine-managed mock coder: no model, no network, no process. It proposes the files
 * in `coder_config.files`, or one file recording the task, and reports zero usage (as reported: it truly
 * used none). snodo's core checks and writes the proposals, like any engine-managed coder's.
 *
 * Used by `snodo run … --mock`, the Quickstart, and tests that need a coder that always behaves.
 */
export function createMockCoder(): CoderAdapterV1 {
  return {
    specificationVersion: 'coder-v1',
    id: mockRegistration.id,
    displayName: mockRegistration.displayName,
    kind: mockRegistration.kind,
    modelPrefix: undefined,
    installHint: mockRegistration.installHint,
    credentials: { envVars: [] },
    supportsUsage: true,
    supportsAbort: true,

    async checkAvailability(): Promise<CoderV1Availability> {
      return { ready: true, installed: true, credentials: 'not-needed' };
    },

    async doRun(request: CoderV1Request): Promise<CoderV1Result> {
      const started = Date.now();
      request.abortSignal.throwIfAborted();
      const settings = request.coderConfig as MockCoderSettings;
      const proposals =
        settings.files === undefined ? [defaultProposal(request)] : proposalsFromSettings(settings.files);
      request.emit({ type: 'coder-progress', message: `proposing ${proposals.length} file(s)` });
      return {
        status: proposals.length > 0 ? 'changed' : 'no-changes',
        proposals,
        changedFiles: proposals.map((proposal) => proposal.path).sort(),
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: 0, source: 'reported' },
        durationMs: Date.now() - started,
      };
    },
  };
}
