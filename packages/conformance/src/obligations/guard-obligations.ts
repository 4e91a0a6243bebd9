import { existsSync } from 'node:fs';
import path from 'node:path';
import { tryGit } from '../conformance/git-in-sandbox.js';
import { settle } from '../conformance/settle.js';
import { compareTrees, snapshotTree } from '../conformance/tree-snapshot.js';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

/** Touching `.snodo/` (in the worktree and in a commit of its own) is refused and undone. */
export const snodoMutationBlocked = defineObligation(
  'snodo-mutation-blocked',
  async (scope: ObligationScope) => {
    const steps = [
      { writeFile: { path: 'src/app.txt', content: 'an ordinary edit\n' } },
      { writeFile: { path: '.snodo/protocol.yml', content: 'protocol_id: loosened\nmodes: []\n' } },
      { commit: { message: 'cli: loosen the rules' } },
      { writeFile: { path: '.snodo/extra-rule.yml', content: 'allow: everything\n' } },
    ];
    await scope.withRun({ scenario: { steps: [...steps, ...scope.finalOutput()] } }, async (run) => {
      const snodoDirectory = path.join(run.workspace, '.snodo');
      const before = snapshotTree(snodoDirectory, []);
      const outcome = await settle(scope.doRun(run));
      scope.expectCode(outcome, 'SNODO_MUTATION_BLOCKED', 'a run that edits, adds and commits under .snodo/');
      const changes = compareTrees(before, snapshotTree(snodoDirectory, []));
      scope.check(changes.length === 0, `.snodo/ is not byte-identical afterwards: ${changes.join(', ')}.`);
      scope.check(
        run.head() === run.startCommit,
        `the branch is at ${run.head()}, not back at the start commit ${run.startCommit}.`,
      );
    });
  },
);

/** A planted hook and `core.hooksPath` are refused, restored, and never run. */
export const gitMetadataTamperBlocked = defineObligation(
  'git-metadata-tamper-blocked',
  async (scope: ObligationScope) => {
    await scope.withRun({ scenario: {} }, async (run) => {
      const commonHooks = path.join(run.main, '.git', 'hooks');
      const plantedDirectory = path.join(run.root, 'planted-hooks');
      const ranMarker = path.join(run.root, 'planted-hook-ran');
      const hook = `#!/bin/sh\necho ran >> '${ranMarker}'\n`;
      run.fakeCli?.setScenario({
        steps: [
          { writeFile: { path: 'src/app.txt', content: 'an ordinary edit\n' } },
          { plantHook: { name: 'pre-commit', content: hook } },
          { plantHook: { name: 'post-commit', content: hook, directory: plantedDirectory } },
          { setHooksPath: plantedDirectory },
          ...scope.finalOutput(),
        ],
      });
      const outcome = await settle(scope.doRun(run));
      scope.expectCode(outcome, 'GIT_METADATA_TAMPERED', 'a run that plants a hook and sets core.hooksPath');
      scope.check(
        !existsSync(path.join(commonHooks, 'pre-commit')),
        'the pre-commit hook the CLI planted in .git/hooks is still there.',
      );
      const hooksPath = tryGit(['config', '--get', 'core.hooksPath'], run.workspace);
      scope.check(
        hooksPath.status !== 0,
        `core.hooksPath is still set to ${hooksPath.stdout.trim()} in the repository config.`,
      );
      scope.check(!existsSync(ranMarker), 'a hook the CLI planted ran.');
      scope.check(
        run.head() === run.startCommit,
        `the branch is at ${run.head()}, not back at the start commit ${run.startCommit}.`,
      );
    });
  },
);
