import { landTrainOnRemote } from './land-train-on-remote.js';
import type { RemoteLandingRequest, RemoteLandingResult } from './remote-landing-request.js';

export type {
  RecheckGateRecord,
  RemoteLandingRequest,
  RemoteLandingResult,
} from './remote-landing-request.js';

/**
 * Lands a task commit on the shared remote's base (issue 16, items 3 and 5), from the lander's own clone:
 *
 * 1. fetch the base and the lander's chain ref (`refs/snodo/audit/<worker>`), and the task commit when
 *    the clone lacks it (`refs/snodo/jobs/<job>`);
 * 2. decide the landing commit's tree: the task's when the base did not move, else the in-memory merge
 *    onto the moved base (a conflict → `kept`) re-checked by `request.recheck`;
 * 3. append `remote-landing-start` to the lander's chain, naming that tree and the parents, then build the
 *    landing merge commit (parents: the base as seen, the task commit) whose `Snodo-Audit` trailer names
 *    that event's seq and hash;
 * 4. snapshot the chain (signed checkpoint + the covered log) as a commit on the worker's chain ref;
 * 5. push both in one `git push --atomic`, each ref under `--force-with-lease` at the value fetched: the
 *    remote's refs are the compare-and-swap. A lost race (`stale info`) is audited as `rejected`, refetched
 *    and tried again, at most `maxAttempts` pushes; then the job is `kept` with the reason.
 *
 * A train of one (`landTrainOnRemote`): several landings waiting together share one fetch, re-check and push.
 *
 * A landing commit is made even when the base did not move (never a bare fast-forward): the task commit
 * cannot carry a trailer written after it. Every git call is asynchronous, so a queue's lock renewal keeps
 * running. A job whose task commit is already in the base (a retried queue job) is reported `landed` with
 * `alreadyLanded` and nothing pushed.
 */
export async function landOnRemote(request: RemoteLandingRequest): Promise<RemoteLandingResult> {
  const { jobId, taskCommit, taskBase, recheck, ...shared } = request;
  const train = await landTrainOnRemote({
    ...shared,
    cars: [{ jobId, taskCommit, taskBase }],
    ...(recheck === undefined ? {} : { recheck: ({ commit, base }) => recheck({ commit, base }) }),
  });
  const [only] = train.cars;
  if (only === undefined) throw new Error(`the landing of ${jobId} ended without a result`);
  return only.result;
}
