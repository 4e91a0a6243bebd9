import path from 'node:path';
import type { CoderV1Request } from '../v1/coder-v1-request.js';

/**
 * Where an adapter keeps this job's coder state (a CLI's private config home, session logs, temporary
 * files it must keep): `request.stateDirectory`, or for requests from older callers a `coder` directory
 * next to the transcript (`.snodo/jobs/<id>/coder`). Never `os.tmpdir()`: inside the sandbox `/tmp` is
 * private, so a host temporary directory is invisible to the coder (and one it could see would be shared
 * with every other job). Never the workspace: it would end up in the commit.
 *
 * The directory may not exist yet; create what you need under it (`mkdirSync(…, { recursive: true })`).
 */
export function coderStateDirectory(
  request: Pick<CoderV1Request, 'stateDirectory' | 'transcriptPath'>,
): string {
  return request.stateDirectory ?? path.join(path.dirname(request.transcriptPath), 'coder');
}
