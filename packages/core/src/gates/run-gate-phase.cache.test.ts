import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';
import type { GateValidatorSpec } from './gate-validator-spec.js';
import type { GateJudgeFunction, GateJudgeRequest } from './judges/gate-judge-function.js';
import { MIN_WARMABLE_PREFIX_CHARS } from './judges/worth-warming.js';
import { runGatePhase } from './run-gate-phase.js';

let repository: TemporaryRepository | undefined;
afterEach(() => repository?.remove());

const judge = (id: string, type: string, extra: Partial<GateValidatorSpec> = {}): GateValidatorSpec => ({
  validator_id: id,
  validator_type: type,
  evaluation_phase: 'post_execute',
  criteria: [`criterion of ${id}`],
  ...extra,
});

/** A judge function that records each call's start and end, answering after 30 ms. */
function recordingJudge() {
  const events: string[] = [];
  const requests: GateJudgeRequest[] = [];
  const call: GateJudgeFunction = async (request) => {
    events.push(`start ${request.gateId}`);
    requests.push(request);
    await sleep(30);
    events.push(`end ${request.gateId}`);
    return { verdict: { severity: 'pass', justification: 'ok', findings: [] }, model: request.model };
  };
  return { call, events, requests };
}

/** A change whose diff alone is past the length a provider caches, so warming the cache can pay off. */
const cacheableChange = Array.from(
  { length: Math.ceil(MIN_WARMABLE_PREFIX_CHARS / 20) },
  (_, index) => `export const v${index} = ${index};\n`,
).join('');

async function run(validators: GateValidatorSpec[], warmCache?: boolean, content = cacheableChange) {
  repository = createTemporaryRepository();
  const diff = await commitAndDiff(repository, (repo) =>
    repo.write('src/app.ts', `export const x = 1;\n${content}`),
  );
  const recorder = recordingJudge();
  await runGatePhase({
    phase: 'post_execute',
    validators,
    context: {
      task: 'add x',
      worktreePath: repository.path,
      diff,
      judgeModel: 'fake/m',
      jobId: 'j_cachetest1',
      mode: { modeId: 'build', name: 'Build', tools: ['edit'], validators: [] },
      siblingModes: [{ modeId: 'docs', name: 'Docs', tools: ['write_docs'], validators: [] }],
    },
    judge: recorder.call,
    ...(warmCache === undefined ? {} : { warmCache }),
  });
  return recorder;
}

describe('runGatePhase and the judges’ shared prompt prefix', () => {
  it('gives every judge the same system, prefix and cache key, with its own part after the prefix', async () => {
    const { requests } = await run([
      judge('security', 'security'),
      judge('architecture', 'architecture'),
      judge('adherence', 'protocol', { criteria: [] }),
    ]);
    expect(requests).toHaveLength(3);
    const [first] = requests;
    expect(first?.sharedPrefix).toContain('export const x = 1;');
    for (const request of requests) {
      expect(request.system).toBe(first?.system);
      expect(request.sharedPrefix).toBe(first?.sharedPrefix);
      expect(request.cacheKey).toBe(first?.cacheKey);
      expect(request.prompt.startsWith(request.sharedPrefix ?? '\u0000')).toBe(true);
    }
    expect(first?.cacheKey).toMatch(/^snodo-j_cachetest1-[0-9a-f]{16}$/);
    const suffixes = requests.map((request) => request.prompt.slice(request.sharedPrefix?.length ?? 0));
    expect(new Set(suffixes).size).toBe(3);
    expect(suffixes[2]).toContain('### Docs (docs)');
  });

  it('runs the first model-calling judge alone before the others start (a judge without criteria is skipped)', async () => {
    const { events } = await run([
      judge('empty', 'conventions', { criteria: [] }),
      judge('security', 'security'),
      judge('architecture', 'architecture'),
      judge('testing', 'testing'),
    ]);
    expect(events.slice(0, 2)).toEqual(['start security', 'end security']);
    // Then the rest fan out together.
    expect(events.slice(2, 4).sort()).toEqual(['start architecture', 'start testing']);
  });

  it('starts the judges together when the shared prefix is too short for any provider to cache', async () => {
    const { events, requests } = await run(
      [judge('security', 'security'), judge('architecture', 'architecture'), judge('testing', 'testing')],
      undefined,
      '',
    );
    const [first] = requests;
    expect((first?.system.length ?? 0) + (first?.sharedPrefix?.length ?? 0)).toBeLessThan(
      MIN_WARMABLE_PREFIX_CHARS,
    );
    // Nobody waits for a warm-up that would write nothing: all three are in flight before the first ends.
    expect(events.slice(0, 3).sort()).toEqual(['start architecture', 'start security', 'start testing']);
  });

  it('with warmCache: false starts the judges together', async () => {
    const { events } = await run(
      [judge('security', 'security'), judge('architecture', 'architecture')],
      false,
    );
    expect(events.slice(0, 2).sort()).toEqual(['start architecture', 'start security']);
  });
});
