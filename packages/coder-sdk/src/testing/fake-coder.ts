/** Test support (not exported, not built): a subprocess adapter over a fake CLI, and requests for it. */
import path from 'node:path';
import { buildCoderEnvironment } from '../environment/build-coder-environment.js';
import { buildCoderPrompt } from '../prompt/build-coder-prompt.js';
import { buildInstructions } from '../prompt/build-instructions.js';
import { SubprocessCoderAdapter } from '../subprocess/subprocess-coder-adapter.js';
import type { CoderV1Event } from '../v1/coder-v1-event.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import type { TemporaryRepository } from './temporary-repository.js';

/** The key the fake coder is given; tests look for it (and for its absence) in output. */
export const FAKE_API_KEY = 'sk-fake-test-key-0123456789abcdef';

/** An adapter written the way an author would: the four members plus the contract's names. */
export class FakeCoder extends SubprocessCoderAdapter {
  readonly id = 'fake-coder';
  readonly displayName = 'Fake Coder';
  readonly binary: string = 'fake-coder';
  readonly modelPrefix = 'fake/';
  readonly installHint = 'npm install -g fake-coder';
  readonly credentials = { envVars: ['FAKE_API_KEY'], configKey: 'fake' };

  buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    return [
      this.binary,
      'run',
      '--dir',
      workspace,
      ...(model === undefined ? [] : ['--model', model]),
      prompt,
    ];
  }
}

/** A request for the fake coder in `repository`, with every event collected in `events`. */
export function makeRequest(
  repository: TemporaryRepository,
  overrides: Partial<CoderV1Request> & { parentEnv?: Record<string, string | undefined> } = {},
): CoderV1Request & { events: CoderV1Event[] } {
  const events: CoderV1Event[] = [];
  const { parentEnv, ...rest } = overrides;
  const task = rest.task ?? 'Add a greeting to the app\n\nMore detail on the next lines.';
  return {
    jobId: 'j_test1',
    attempt: 1,
    task,
    prompt: buildCoderPrompt({ task, attempt: 1, modeName: 'Feature' }),
    workspace: repository.workspace,
    model: undefined,
    env: buildCoderEnvironment({
      parentEnv: {
        ...(parentEnv ?? process.env),
        PATH: `${repository.binDirectory}${path.delimiter}${process.env.PATH ?? ''}`,
      },
      credentials: { FAKE_API_KEY },
      homeDirectory: repository.home,
    }),
    timeoutMs: 20_000,
    abortSignal: repository.abortSignal,
    instructions: buildInstructions({ modeName: 'Feature', constraints: ['Keep it small'] }),
    instructionsPath: path.join(repository.jobDirectory, 'instructions.md'),
    transcriptPath: path.join(repository.jobDirectory, 'transcript.log'),
    coderConfig: {},
    emit: (event) => events.push(event),
    ...rest,
    events,
  };
}
