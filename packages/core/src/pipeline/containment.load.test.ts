import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import {
  createHostileFixture,
  type HostileFixture,
  noProcessMatches,
  sandboxMissing,
} from '../testing/hostile-coder.js';

// The sandbox under load and under a coder that misbehaves without attacking (issue 11, tests).

let hostile: HostileFixture;
afterEach(() => hostile?.fixture.cleanup());

const title = sandboxMissing ? `in the sandbox (skipped: ${sandboxMissing})` : 'in the sandbox';

describe.skipIf(sandboxMissing !== undefined)(title, { timeout: 120_000 }, () => {
  it('8 concurrent sandboxed runs of an in-place coder all land, and the audit chain verifies', async () => {
    hostile = createHostileFixture({ sandbox: 'auto' });
    hostile.arm('job=$(basename "$PWD")\necho "$job" > "change-$job.txt"\nexit 0');
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => hostile.run(`task ${index}`)));
    for (const result of results) expect(result.outcome, result.summary).toBe('merged');
    for (const result of results) {
      expect(readJobState(hostile.fixture.root, result.jobId).sandbox?.kind).toBe('bubblewrap');
    }
    const landed = hostile.fixture.git(['ls-tree', '--name-only', 'trunk']).split('\n');
    expect(landed.filter((name) => name.startsWith('change-'))).toHaveLength(8);
    expect((await hostile.fixture.verifyAudit()).ok).toBe(true);
    expect(hostile.fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('a hung coder is stopped at its time limit with everything it started', async () => {
    hostile = createHostileFixture({ sandbox: 'auto' });
    const marker = `snodo-hung-${process.pid}`;
    hostile.arm(`sh -c 'sleep 300; echo ${marker}' &\nsleep 300`);
    const { result } = await hostile.fixture.run({
      task: 'hang',
      coder: 'hostile',
      model: 'mock/pass',
      timeoutSeconds: 2,
    });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'CODER_TIMEOUT' } });
    expect(await noProcessMatches(marker)).toBe(true);
  });
});

describe.skipIf(sandboxMissing !== undefined)(
  `${title}: where things are installed`,
  { timeout: 120_000 },
  () => {
    it('works when the repository and snodo’s home live under the user’s HOME (~/code/project), which stays hidden', async () => {
      hostile = createHostileFixture({ sandbox: 'auto' });
      const { fixture } = hostile;
      const home = join(fixture.root, '..');
      writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Home User\n\temail = home@example.com\n');
      writeFileSync(join(home, 'secret.txt'), 'the user’s own file\n');
      hostile.arm(`cat "${home}/secret.txt" 2>&1 || echo "home hidden"\necho ok > ok.txt\nexit 0`);
      const { result } = await fixture.run({
        task: 'under home',
        coder: 'hostile',
        model: 'mock/pass',
        env: { ...fixture.env, HOME: home },
      });
      expect(result.outcome, result.summary).toBe('merged');
      const transcript = hostile.transcript(result.jobId);
      expect(transcript).toContain('home hidden');
      expect(transcript).not.toContain('the user’s own file');
    });

    it('runs a coder CLI installed under the user’s HOME (~/.local/bin), its directory put back read-only', async () => {
      hostile = createHostileFixture({ sandbox: 'auto' });
      const { fixture, targets } = hostile;
      const bin = join(targets.home, '.local', 'bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'home-cli'), '#!/bin/sh\necho "installed under HOME" > from-home-cli.txt\n', {
        mode: 0o755,
      });
      writeFileSync(
        join(fixture.snodoHome, 'config.yml'),
        'coders:\n  home-cli:\n    command: [home-cli, "{prompt}"]\n',
        { mode: 0o600 },
      );
      const { result } = await fixture.run({
        task: 'use the cli',
        coder: 'home-cli',
        model: 'mock/pass',
        env: { ...fixture.env, PATH: `${bin}:${fixture.env.PATH}` },
      });
      expect(result.outcome, result.summary).toBe('merged');
      expect(fixture.git(['show', 'trunk:from-home-cli.txt'])).toBe('installed under HOME');
    });
  },
);
