import { tryGit } from '../conformance/git-in-sandbox.js';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

/** The CLI sees the instructions during the run, never as a tracked file, and git status stays clean. */
export const instructionsFilePresentAndExcluded = defineObligation(
  'instructions-file-present-and-excluded',
  async (scope: ObligationScope) => {
    await scope.withRun({ scenario: {} }, async (run) => {
      run.fakeCli?.setScenario({
        instructionsMarker: run.instructionsMarker,
        steps: [
          { writeFile: { path: 'src/app.txt', content: 'edited with instructions\n' } },
          ...scope.finalOutput(),
        ],
      });
      const result = await scope.expectSuccess(scope.doRun(run), 'an ordinary run');
      const sightings = run.fakeCli?.readRecord()?.instructions ?? [];
      scope.check(
        sightings.length > 0,
        "the CLI never saw snodo's instructions: no file under its working directory or HOME, no argument, " +
          'and no file named by an argument contained them.',
      );
      const tracked = new Set(
        run
          .git(['ls-tree', '-r', '--name-only', run.startCommit])
          .split('\n')
          .filter((line) => line !== ''),
      );
      for (const sighting of sightings) {
        if (sighting.via !== 'workspace' || sighting.path === undefined) continue;
        scope.check(
          !tracked.has(sighting.path),
          `the instructions were written into ${sighting.path}, a file the repository tracks; use a snodo-owned, untracked name.`,
        );
      }
      if (result.commit !== undefined) {
        const committed = tryGit(['grep', '-l', '-F', run.instructionsMarker, result.commit], run.workspace);
        scope.check(
          committed.status !== 0,
          `the instructions were committed: ${committed.stdout.trim().split('\n').join(', ')}.`,
        );
      }
      const status = run.git(['status', '--porcelain', '--untracked-files=all']).trim();
      scope.check(status === '', `git status is not clean after the run:\n${status}`);
    });
  },
);
