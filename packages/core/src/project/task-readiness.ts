import type { LlmCredentialsMissingError } from '@snodo/llm';
import type { CoderStatus } from '../coders/check-coder.js';
import type { ModelRequiredError } from './model-required-error.js';

/** One reason a planned run would be refused before a job exists. */
export interface ReadinessProblem {
  /** The error code the run is refused with (`MODEL_REQUIRED`, `CODER_NOT_INSTALLED`…). */
  readonly code: string;
  /** What is missing, in one sentence. */
  readonly message: string;
  /** The lines that fix it (the quick-setup text), when there are any. */
  readonly fix: string | null;
}

/** Whether a planned run can start, and if not every reason, in the order the run checks them. */
export interface TaskReadiness {
  readonly ready: boolean;
  readonly problems: readonly ReadinessProblem[];
}

/**
 * The readiness of a plan from the models it lacks and the coder's status: the same verdict `runTask`
 * reaches before creating a job, so `snodo run --dry-run`, `snodo coders` and `snodo doctor` can say
 * "not ready" with the run's own text.
 */
export function taskReadiness(
  missingModels: ModelRequiredError | undefined,
  coderStatus: Pick<CoderStatus, 'ready' | 'reason' | 'fix' | 'installed'> | undefined,
  missingCredentials?: LlmCredentialsMissingError,
): TaskReadiness {
  const problems: ReadinessProblem[] = [];
  if (coderStatus !== undefined && !coderStatus.ready) {
    problems.push({
      code: coderStatus.installed ? 'CODER_UNAVAILABLE' : 'CODER_NOT_INSTALLED',
      message: coderStatus.reason ?? 'the coder cannot run here',
      fix: coderStatus.fix,
    });
  }
  if (missingModels !== undefined) {
    problems.push({
      code: missingModels.code,
      message: missingModels.quickSetup.split('\n')[0] ?? missingModels.message,
      fix: missingModels.quickSetup.split('\n').slice(1).join('\n'),
    });
  }
  if (missingCredentials !== undefined) {
    problems.push({
      code: missingCredentials.code,
      message: missingCredentials.message,
      fix: `snodo config add ${missingCredentials.provider} <key>`,
    });
  }
  return { ready: problems.length === 0, problems };
}
