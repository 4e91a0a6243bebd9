import type { CoderV1Kind } from '@snodo/coder-sdk';

/** Every Tier 1 obligation, in the order the suite runs them. */
export const OBLIGATION_NAMES = [
  'spec-shape',
  'argv-prompt-single-argument',
  'argv-model-flag-only-with-model',
  'model-namespace-stripped',
  'missing-binary-not-installed',
  'missing-credentials',
  'environment-allow-list',
  'one-commit-equals-change',
  'cli-commits-squashed',
  'no-changes-no-commit',
  'snodo-mutation-blocked',
  'git-metadata-tamper-blocked',
  'hang-killed-with-group',
  'abort-kills-promptly',
  'nonzero-exit-coder-failed',
  'stdin-never-blocks',
  'output-capped',
  'transcript-exists',
  'instructions-file-present-and-excluded',
  'attribution-scrubbed',
  'usage-shape-valid',
  'sandbox-honoured',
  'engine-managed-proposals-only',
] as const;

/** The name of one Tier 1 obligation. */
export type ObligationName = (typeof OBLIGATION_NAMES)[number];

/** What an obligation checks and how to fix a failure; shown in failure messages and the README table. */
export interface ObligationInfo {
  /** What the obligation checks, in one sentence. */
  readonly checks: string;
  /** What to change in the adapter when it fails. */
  readonly fix: string;
  /** The kinds of coder it applies to; for the other kind it is skipped with a reason. */
  readonly appliesTo: readonly CoderV1Kind[];
}

const both: readonly CoderV1Kind[] = ['in-place', 'engine-managed'];
const inPlace: readonly CoderV1Kind[] = ['in-place'];

/** The catalog of obligations: what each checks, how to fix it, which kinds it applies to. */
export const obligationInfo: Readonly<Record<ObligationName, ObligationInfo>> = {
  'spec-shape': {
    checks:
      'the adapter is a coder-v1 object (tag, kebab-case id, displayName, kind, modelPrefix ending in "/", installHint, credentials, methods) and checkAvailability reports ready with the fake CLI and key in place',
    fix: 'implement every CoderAdapterV1 member (extending SubprocessCoderAdapter gives most of them); make the fixture version output parse and fall inside supportedVersions.',
    appliesTo: both,
  },
  'argv-prompt-single-argument': {
    checks:
      'a prompt with spaces, quotes, newlines, $(…) and a leading "--" reaches the CLI as exactly one argv element, unchanged',
    fix: 'push the prompt as one element of the array buildArgv returns (put "--" before it if the CLI reads it as a flag); never join argv into a string or spawn through a shell.',
    appliesTo: inPlace,
  },
  'argv-model-flag-only-with-model': {
    checks:
      'without a model the argv has no model flag and no empty or "undefined" argument; with a model the model reaches the CLI',
    fix: 'in buildArgv, add the model flag only inside `if (model !== undefined)`; never push `model ?? ""`.',
    appliesTo: inPlace,
  },
  'model-namespace-stripped': {
    checks: 'request.model "<modelPrefix>x" reaches the CLI as "x", never with the namespace',
    fix: 'build the argv from the `model` parameter of buildArgv (already stripped), or call stripModelPrefix(request.model, modelPrefix).',
    appliesTo: inPlace,
  },
  'missing-binary-not-installed': {
    checks:
      'a missing executable gives checkAvailability installed:false with the install hint, and doRun CODER_NOT_INSTALLED carrying it, with nothing written to the worktree or git and no transcript',
    fix: 'find the executable in prepare() (SubprocessCoderAdapter does) and throw CoderNotInstalledError before placing files or opening the transcript.',
    appliesTo: inPlace,
  },
  'missing-credentials': {
    checks:
      'with the key absent, checkAvailability reports credentials "missing" naming the variable and doRun rejects with CODER_CREDENTIALS_MISSING naming it, before the coder starts',
    fix: 'declare the key in credentials.envVars and check request.env for it before starting (SubprocessCoderAdapter.prepare does); set credentials.optional when the CLI has its own login.',
    appliesTo: both,
  },
  'environment-allow-list': {
    checks:
      "a canary secret and another provider's key planted in process.env never reach the CLI; the coder's own key does",
    fix: 'spawn with exactly request.env plus buildEnv additions (extendEnv: false); never spread process.env into the child environment.',
    appliesTo: inPlace,
  },
  'one-commit-equals-change': {
    checks:
      "the CLI's edits (modify, add, delete) end up as exactly one commit on the start commit, with snodo's subject and Snodo-Job trailer, and result.commit and changedFiles match it",
    fix: 'let InPlaceCoderAdapter make the commit; a custom adapter must stage everything but ignored files and make one commit on the start commit.',
    appliesTo: inPlace,
  },
  'cli-commits-squashed': {
    checks:
      "two commits the CLI made itself are squashed into snodo's one commit; none of the CLI's commits stays on the branch",
    fix: 'reset --soft to the start commit before committing (InPlaceCoderAdapter does).',
    appliesTo: inPlace,
  },
  'no-changes-no-commit': {
    checks:
      'a CLI that changes nothing (only an ignored file) gives status "no-changes", no commit, and the branch stays at the start commit',
    fix: 'return no-changes when nothing is staged; never commit --allow-empty.',
    appliesTo: inPlace,
  },
  'snodo-mutation-blocked': {
    checks:
      'a CLI that edits, adds and commits under .snodo/ gets SNODO_MUTATION_BLOCKED; .snodo/ is byte-identical afterwards and the branch is at the start commit',
    fix: 'let InPlaceCoderAdapter guard .snodo/ and let its SnodoMutationError propagate; never catch it.',
    appliesTo: inPlace,
  },
  'git-metadata-tamper-blocked': {
    checks:
      'a CLI that plants a hook and sets core.hooksPath gets GIT_METADATA_TAMPERED; the hook and the setting are gone, no hook ran, the branch is at the start commit',
    fix: 'let InPlaceCoderAdapter guard git metadata and let its GitMetadataTamperedError propagate; commit with hooks disabled.',
    appliesTo: inPlace,
  },
  'hang-killed-with-group': {
    checks:
      'a CLI that hangs, ignores SIGTERM and has a grandchild fails with CODER_TIMEOUT within timeout + grace + margin, and the whole process group is gone',
    fix: 'spawn detached (its own process group), signal the group (-pid) with SIGTERM then SIGKILL after the grace, and SIGKILL the group after exit (SubprocessCoderAdapter does).',
    appliesTo: inPlace,
  },
  'abort-kills-promptly': {
    checks:
      'an abort before the run, and during it, rejects promptly with CODER_ABORTED (or rethrows abortSignal.reason) and leaves no process of the coder running',
    fix: 'listen to request.abortSignal and stop the process group on abort, then throw CoderAbortedError; check the signal before starting.',
    appliesTo: both,
  },
  'nonzero-exit-coder-failed': {
    checks:
      'a CLI exiting 3 with a message on stderr gives CODER_FAILED carrying that stderr, and nothing is committed',
    fix: 'treat any non-zero exit as CoderFailedError with the stderr tail; never parse output of a failed run as success.',
    appliesTo: inPlace,
  },
  'stdin-never-blocks': {
    checks: 'a CLI that reads stdin to end-of-file finishes normally (stdin is closed or /dev/null)',
    fix: "spawn with stdin 'ignore' (or end the pipe at once).",
    appliesTo: inPlace,
  },
  'output-capped': {
    checks:
      'a CLI printing 50 MB completes, its transcript stays within the cap plus a truncation marker, and memory does not grow with the output',
    fix: 'stream output to the transcript with a byte cap and a "truncated" marker, keep only bounded tails in memory, keep reading past the cap.',
    appliesTo: inPlace,
  },
  'transcript-exists': {
    checks: "result.transcriptPath names a non-empty file that holds the CLI's output",
    fix: 'append the output to request.transcriptPath and return it as result.transcriptPath.',
    appliesTo: inPlace,
  },
  'instructions-file-present-and-excluded': {
    checks:
      "the CLI sees snodo's instructions during the run (a file in the worktree or HOME, or an argument), never as a tracked file, and git status is clean afterwards",
    fix: 'use an untracked instructions file name (instructionsFileName) that InPlaceCoderAdapter excludes through info/exclude, or pass the instructions path as an argument.',
    appliesTo: inPlace,
  },
  'attribution-scrubbed': {
    checks:
      "attribution lines the CLI wrote in its own commit (Co-Authored-By, Generated with…) and its identity are not in snodo's commit",
    fix: "leave keepAttribution off by default; build the commit message with snodo's own text only.",
    appliesTo: inPlace,
  },
  'usage-shape-valid': {
    checks:
      'reported usage (result and usage events) has non-negative integer token counts, costUsd a number or null, and source reported|estimated',
    fix: "normalise the CLI's usage in parseOutput: integers, cached tokens separate, cost null when unknown.",
    appliesTo: both,
  },
  'sandbox-honoured': {
    checks:
      'with request.sandbox set to a recording bubblewrap stand-in, every start of the CLI went through it, each call carried the read-only root, every mount (hide, read-only, read-write), the PID namespace, die-with-parent and --cap-drop ALL (and no --unshare-net for a networked sandbox), and the CLI saw the sandbox’s private TMPDIR',
    fix: 'start every process with the SDK’s runSupervisedProcess / startSupervisedProcess and pass sandbox: request.sandbox (SubprocessCoderAdapter does); a hand-written spawn must run wrapInSandbox(request.sandbox, …) instead. Do not declare supportsSandbox for a coder that cannot.',
    appliesTo: inPlace,
  },
  'engine-managed-proposals-only': {
    checks:
      'an engine-managed coder returns valid proposals (relative paths outside .git and .snodo, write with content, delete) and leaves the worktree and branch untouched',
    fix: 'return proposals and let core write them; never write files or commit from an engine-managed coder.',
    appliesTo: ['engine-managed'],
  },
};

/** `true` when `value` names an obligation. */
export function isObligationName(value: string): value is ObligationName {
  return (OBLIGATION_NAMES as readonly string[]).includes(value);
}
