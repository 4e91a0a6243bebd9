import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { settle } from '../conformance/settle.js';
import { compareTrees, snapshotTree } from '../conformance/tree-snapshot.js';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

function readIfPresent(filePath: string): string | undefined {
  return existsSync(filePath) ? readFileSync(filePath, 'utf8') : undefined;
}

/** A missing executable is reported, with the install hint, before anything is written. */
export const missingBinaryNotInstalled = defineObligation(
  'missing-binary-not-installed',
  async (scope: ObligationScope) => {
    const { adapter } = scope;
    await scope.withRun({}, async (run) => {
      const excludePath = path.join(run.main, '.git', 'info', 'exclude');
      const treeBefore = snapshotTree(run.workspace);
      const excludeBefore = readIfPresent(excludePath);

      const availability = await adapter.checkAvailability(run.availabilityOptions());
      scope.check(
        availability.installed === false && availability.ready === false,
        `checkAvailability with the binary missing at ${run.binaryPath} says installed=${availability.installed}, ready=${availability.ready}.`,
      );
      scope.check(
        `${availability.fix ?? ''} ${availability.reason ?? ''}`.includes(adapter.installHint),
        `checkAvailability's fix does not carry the install hint "${adapter.installHint}" (fix: ${availability.fix ?? 'none'}).`,
      );

      const outcome = await settle(scope.doRun(run));
      const error = scope.expectCode(
        outcome,
        'CODER_NOT_INSTALLED',
        `doRun with the binary missing at ${run.binaryPath}`,
      );
      const carried = (error as { installHint?: unknown }).installHint;
      scope.check(
        carried === adapter.installHint || String((error as Error).message).includes(adapter.installHint),
        `the CODER_NOT_INSTALLED error does not carry the install hint "${adapter.installHint}".`,
      );
      const changes = compareTrees(treeBefore, snapshotTree(run.workspace));
      scope.check(
        changes.length === 0,
        `the worktree changed although nothing could run: ${changes.join(', ')}.`,
      );
      scope.check(
        readIfPresent(excludePath) === excludeBefore,
        `.git/info/exclude changed although nothing could run (the instructions file was placed before the binary was found).`,
      );
      scope.check(
        !existsSync(run.transcriptPath),
        `a transcript was created at ${run.transcriptPath} although nothing could run.`,
      );
      scope.check(run.head() === run.startCommit, 'the branch moved although nothing could run.');
    });
  },
);

/** A missing key is reported by checkAvailability and refused by doRun before the coder starts. */
export const missingCredentials = defineObligation('missing-credentials', async (scope: ObligationScope) => {
  const { adapter } = scope;
  const variables = adapter.credentials.envVars;
  const first = variables[0] ?? '';
  const inPlace = adapter.kind === 'in-place';
  // NOTE: the key is also removed from this process's environment for the run, so the result does not
  // depend on whether the author's shell happens to export it.
  const saved = variables.map((name) => [name, process.env[name]] as const);
  for (const name of variables) delete process.env[name];
  try {
    await scope.withRun(
      {
        scenario: inPlace
          ? { steps: [{ writeFile: { path: 'src/app.txt', content: 'changed\n' } }] }
          : undefined,
        configureBinary: inPlace,
        credentials: {},
      },
      async (run) => {
        const availability = await adapter.checkAvailability(run.availabilityOptions());
        scope.check(
          availability.ready === false && availability.credentials === 'missing',
          `checkAvailability without ${variables.join(' or ')} says ready=${availability.ready}, credentials="${availability.credentials}".`,
        );
        scope.check(
          `${availability.reason ?? ''} ${availability.fix ?? ''}`.includes(first),
          `checkAvailability's reason and fix do not name ${first} (reason: ${availability.reason ?? 'none'}).`,
        );
        const treeBefore = snapshotTree(run.workspace);
        const outcome = await settle(scope.doRun(run));
        const error = scope.expectCode(outcome, 'CODER_CREDENTIALS_MISSING', `doRun without ${first}`);
        const named = (error as { envVars?: unknown }).envVars;
        scope.check(
          (Array.isArray(named) && named.includes(first)) || String((error as Error).message).includes(first),
          `the CODER_CREDENTIALS_MISSING error does not name ${first}.`,
        );
        scope.check(run.fakeCli?.readRecord() === undefined, 'the CLI was started without its key.');
        const changes = compareTrees(treeBefore, snapshotTree(run.workspace));
        scope.check(
          changes.length === 0,
          `the worktree changed although the key is missing: ${changes.join(', ')}.`,
        );
        scope.check(run.head() === run.startCommit, 'the branch moved although the key is missing.');
      },
    );
  } finally {
    for (const [name, value] of saved) {
      if (value !== undefined) process.env[name] = value;
    }
  }
});
