import type { ObligationName } from '../conformance/obligation-catalog.js';
import {
  argvModelFlagOnlyWithModel,
  argvPromptSingleArgument,
  modelNamespaceStripped,
} from './argv-obligations.js';
import { attributionScrubbed } from './attribution-scrubbed.js';
import { cliCommitsSquashed, noChangesNoCommit, oneCommitEqualsChange } from './commit-obligations.js';
import { engineManagedProposalsOnly } from './engine-managed-proposals-only.js';
import { environmentAllowList } from './environment-allow-list.js';
import { nonzeroExitCoderFailed, stdinNeverBlocks } from './exit-and-stdin.js';
import { gitMetadataTamperBlocked, snodoMutationBlocked } from './guard-obligations.js';
import { abortKillsPromptly, hangKilledWithGroup } from './hang-and-abort.js';
import { instructionsFilePresentAndExcluded } from './instructions-file-present-and-excluded.js';
import type { CoderObligation } from './obligation-scope.js';
import { outputCapped, transcriptExists } from './output-obligations.js';
import { missingBinaryNotInstalled, missingCredentials } from './preflight-obligations.js';
import { sandboxHonoured } from './sandbox-honoured.js';
import { specShape } from './spec-shape.js';
import { usageShapeValid } from './usage-shape-valid.js';

/**
 * Every Tier 1 obligation as a plain async function `(createAdapter, fixture) => Promise<void>` that
 * throws a `ConformanceObligationError` naming the obligation when the adapter fails it. Whether an
 * obligation applies to an adapter is decided by `runCoderConformance` and `describeCoderConformance`
 * (`planCoderConformance`); calling one directly runs it regardless.
 */
export const obligations: Readonly<Record<ObligationName, CoderObligation>> = {
  'spec-shape': specShape,
  'argv-prompt-single-argument': argvPromptSingleArgument,
  'argv-model-flag-only-with-model': argvModelFlagOnlyWithModel,
  'model-namespace-stripped': modelNamespaceStripped,
  'missing-binary-not-installed': missingBinaryNotInstalled,
  'missing-credentials': missingCredentials,
  'environment-allow-list': environmentAllowList,
  'one-commit-equals-change': oneCommitEqualsChange,
  'cli-commits-squashed': cliCommitsSquashed,
  'no-changes-no-commit': noChangesNoCommit,
  'snodo-mutation-blocked': snodoMutationBlocked,
  'git-metadata-tamper-blocked': gitMetadataTamperBlocked,
  'hang-killed-with-group': hangKilledWithGroup,
  'abort-kills-promptly': abortKillsPromptly,
  'nonzero-exit-coder-failed': nonzeroExitCoderFailed,
  'stdin-never-blocks': stdinNeverBlocks,
  'output-capped': outputCapped,
  'transcript-exists': transcriptExists,
  'instructions-file-present-and-excluded': instructionsFilePresentAndExcluded,
  'attribution-scrubbed': attributionScrubbed,
  'usage-shape-valid': usageShapeValid,
  'sandbox-honoured': sandboxHonoured,
  'engine-managed-proposals-only': engineManagedProposalsOnly,
};
