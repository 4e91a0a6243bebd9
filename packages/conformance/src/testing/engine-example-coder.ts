/**
 * Test support (not exported, not built): a small engine-managed coder (it proposes one file and needs a
 * key), correct unless a flaw is asked for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CoderAbortedError,
  type CoderAdapterV1,
  CoderCredentialsMissingError,
  type CoderV1Availability,
  type CoderV1Request,
  type CoderV1Result,
} from '@snodo/coder-sdk';

/** The mistakes this coder can make. */
export interface EngineExampleFlaws {
  /** Writes its proposal into the worktree itself. */
  readonly writesFiles?: boolean;
  /** Never looks at the abort signal. */
  readonly ignoresAbort?: boolean;
}

const who = { coderId: 'engine-example', displayName: 'Engine Example' };

export function createEngineExampleCoder(flaws: EngineExampleFlaws = {}): CoderAdapterV1 {
  return {
    specificationVersion: 'coder-v1',
    id: 'engine-example',
    displayName: 'Engine Example',
    kind: 'engine-managed',
    modelPrefix: undefined,
    installHint: 'Built in; nothing to install.',
    credentials: { envVars: ['ENGINE_EXAMPLE_KEY'] },
    supportsUsage: true,
    supportsAbort: flaws.ignoresAbort !== true,

    async checkAvailability({ env }): Promise<CoderV1Availability> {
      if ((env.ENGINE_EXAMPLE_KEY ?? '') !== '')
        return { ready: true, installed: true, credentials: 'environment' };
      return {
        ready: false,
        installed: true,
        credentials: 'missing',
        reason: 'Engine Example needs ENGINE_EXAMPLE_KEY and none is set',
        fix: 'export ENGINE_EXAMPLE_KEY=<key>',
      };
    },

    async doRun(request: CoderV1Request): Promise<CoderV1Result> {
      if (flaws.ignoresAbort !== true && request.abortSignal.aborted) {
        throw new CoderAbortedError({ ...who, cause: request.abortSignal.reason });
      }
      if ((request.env.ENGINE_EXAMPLE_KEY ?? '') === '') {
        throw new CoderCredentialsMissingError({ ...who, envVars: ['ENGINE_EXAMPLE_KEY'] });
      }
      const content = `proposed for ${request.jobId}\n`;
      if (flaws.writesFiles === true) {
        mkdirSync(path.join(request.workspace, 'src'), { recursive: true });
        writeFileSync(path.join(request.workspace, 'src', 'engine.txt'), content);
      }
      return {
        status: 'changed',
        proposals: [{ path: 'src/engine.txt', action: 'write', content }],
        changedFiles: ['src/engine.txt'],
        usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, costUsd: null, source: 'reported' },
        durationMs: 1,
      };
    },
  };
}
