// The two baselines a run is measured against, as shell scripts over one repository (issue "speed at
// scale", item 5). Not a bench itself (no `.bench.mjs`): core.bench and startup.bench import it.
//
// - `bareGitScript`: what a person would type to land one change — a worktree, a commit, a fast-forward
//   merge, cleanup. It skips every check snodo makes, so the ratio against it says what governance costs.
// - `plumbingScript`: the same landing with the safety steps snodo takes, done as cheaply as git allows:
//   a clean-tree check, the checked-out branch and its commit read once, an isolated worktree, a commit made with plumbing, an in-memory
//   merge (merge-tree), a compare-and-swap of the base (update-ref <new> <old>), the checkout brought along
//   with a two-way read-tree, cleanup. The ratio against it says what snodo costs beyond those steps.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Arguments: the repository, a number that makes the branch unique, a directory for worktrees. */
export const bareGitScript = `set -e
cd "$1"
job="j_bench$2"
git worktree add -q -b "snodo/$job" "$3/$job" HEAD
mkdir -p "$3/$job/snodo-mock"
printf 'bench\\n' > "$3/$job/snodo-mock/$job.md"
git -C "$3/$job" add -A
git -C "$3/$job" -c user.name=bench -c user.email=bench@localhost commit -q -m "snodo($job): bench"
git merge -q --ff-only "snodo/$job"
git worktree remove "$3/$job"
git branch -q -d "snodo/$job"
`;

/** Arguments: the repository, a number that makes the change unique, a directory for worktrees. */
export const plumbingScript = `set -e
cd "$1"
test -z "$(git status --porcelain --untracked-files=no)"
ref=$(git symbolic-ref -q HEAD)
base=$(git rev-parse --verify "$ref")
wt="$3/plumbing-$2"
git worktree add -q --detach "$wt" "$base"
printf 'bench\\n' > "$wt/bench-$2.md"
git -C "$wt" add -A
test -n "$(git -C "$wt" status --porcelain)"
tree=$(git -C "$wt" write-tree)
commit=$(git -C "$wt" -c user.name=bench -c user.email=bench@localhost commit-tree "$tree" -p "$base" -m "bench $2")
git merge-tree --write-tree "$base" "$commit" >/dev/null
git update-ref "$ref" "$commit" "$base"
git read-tree -m -u "$base" "$commit"
git worktree remove --force "$wt"
`;

/** Writes `script` under `tmpdir` once; returns the argv of its next run on `repository` (a fresh number each). */
function scriptArguments(tmpdir, name, script, repository) {
  const path = join(tmpdir, `${name}.sh`);
  const worktrees = join(tmpdir, `${name}-worktrees`);
  writeFileSync(path, script);
  mkdirSync(worktrees, { recursive: true });
  let next = 0;
  return () => {
    next += 1;
    return [path, repository, String(next), worktrees];
  };
}

/**
 * Writes `script` under `tmpdir` once and returns a function that runs it on `repository` with a fresh
 * number each call (its worktrees go to `<tmpdir>/<name>-worktrees`).
 */
export function scriptRunner(tmpdir, name, script, repository) {
  const nextArguments = scriptArguments(tmpdir, name, script, repository);
  return () => {
    execFileSync('bash', nextArguments(), { stdio: 'ignore' });
  };
}

/** Like `scriptRunner`'s function, but asynchronous: several scripts can run at once. */
export function asyncScriptRunner(tmpdir, name, script, repository) {
  const nextArguments = scriptArguments(tmpdir, name, script, repository);
  return () =>
    new Promise((resolve, reject) =>
      execFile('bash', nextArguments(), (error) => (error ? reject(error) : resolve())),
    );
}
