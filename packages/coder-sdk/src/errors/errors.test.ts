import { SnodoError } from '@snodo/foundation';
import { describe, expect, it } from 'vitest';
import { CoderAbortedError, CoderUnknownError, WorktreeNotCleanError } from '../errors.js';
import { MockCoderAdapterV1 } from '../test-kit/mock-coder-adapter-v1.js';
import { availabilityError } from './availability-error.js';
import { CoderCliVersionUnsupportedError } from './coder-cli-version-unsupported-error.js';
import { CoderConfigInvalidError } from './coder-config-invalid-error.js';
import { CoderCredentialsMissingError } from './coder-credentials-missing-error.js';
import { CoderFailedError } from './coder-failed-error.js';
import { CoderNotInstalledError } from './coder-not-installed-error.js';
import { CoderSpecificationUnsupportedError } from './coder-specification-unsupported-error.js';
import { CoderTimeoutError } from './coder-timeout-error.js';
import { CoderUnavailableError } from './coder-unavailable-error.js';
import { GitCommandError } from './git-command-error.js';
import { GitMetadataTamperedError } from './git-metadata-tampered-error.js';
import { GitTimeoutInvalidError } from './git-timeout-invalid-error.js';
import { ProposalPathRefusedError } from './proposal-path-refused-error.js';
import { SandboxInvalidError } from './sandbox-invalid-error.js';
import { SnodoMutationError } from './snodo-mutation-error.js';

const who = { coderId: 'claude-code', displayName: 'Claude Code' };
const cause = new Error('underlying');

/** One instance of every error class with the code it must carry. */
const cases = [
  [
    CoderNotInstalledError,
    'CODER_NOT_INSTALLED',
    new CoderNotInstalledError({ ...who, installHint: 'npm i -g x', binary: 'claude', cause }),
  ],
  [
    CoderCredentialsMissingError,
    'CODER_CREDENTIALS_MISSING',
    new CoderCredentialsMissingError({
      ...who,
      envVars: ['ANTHROPIC_API_KEY'],
      configKey: 'anthropic',
      cause,
    }),
  ],
  [
    CoderTimeoutError,
    'CODER_TIMEOUT',
    new CoderTimeoutError({ ...who, limit: 'idle', timeoutMs: 600_000, cause }),
  ],
  [CoderAbortedError, 'CODER_ABORTED', new CoderAbortedError({ ...who, cause })],
  [
    CoderFailedError,
    'CODER_FAILED',
    new CoderFailedError({ ...who, exitCode: 3, stderrTail: 'boom\n', cause }),
  ],
  [
    SnodoMutationError,
    'SNODO_MUTATION_BLOCKED',
    new SnodoMutationError({ ...who, paths: ['.snodo/protocol.yml'], cause }),
  ],
  [
    GitMetadataTamperedError,
    'GIT_METADATA_TAMPERED',
    new GitMetadataTamperedError({
      ...who,
      changes: [{ path: '/r/.git/hooks/post-commit', change: 'added' }],
      cause,
    }),
  ],
  [
    CoderUnknownError,
    'CODER_UNKNOWN',
    new CoderUnknownError({ requestedId: 'claud', registeredIds: ['mock', 'claude-code'], cause }),
  ],
  [
    CoderCliVersionUnsupportedError,
    'CODER_CLI_VERSION_UNSUPPORTED',
    new CoderCliVersionUnsupportedError({
      ...who,
      foundVersion: '3.0.0',
      supportedVersions: { min: '2.0.0', below: '3.0.0' },
      installHint: 'npm i -g x',
      cause,
    }),
  ],
  [
    ProposalPathRefusedError,
    'PROPOSAL_PATH_REFUSED',
    new ProposalPathRefusedError({ path: '../outside', reason: 'it leaves the worktree', cause }),
  ],
  [
    CoderSpecificationUnsupportedError,
    'CODER_SPECIFICATION_UNSUPPORTED',
    new CoderSpecificationUnsupportedError({ coderId: 'x', specificationVersion: 'coder-v2', cause }),
  ],
  [
    CoderUnavailableError,
    'CODER_UNAVAILABLE',
    new CoderUnavailableError({ ...who, reason: 'the Docker daemon is not running', cause }),
  ],
  [
    CoderConfigInvalidError,
    'CODER_CONFIG_INVALID',
    new CoderConfigInvalidError({ coderId: 'x', setting: 'binary', problem: 'must be a string', cause }),
  ],
  [
    GitCommandError,
    'GIT_COMMAND_FAILED',
    new GitCommandError({
      args: ['status'],
      cwd: '/r',
      exitCode: 128,
      stderr: 'fatal: not a git repository',
      cause,
    }),
  ],
  [
    GitTimeoutInvalidError,
    'GIT_TIMEOUT_INVALID',
    new GitTimeoutInvalidError({ variable: 'SNODO_GIT_TIMEOUT_SECONDS', value: 'soon', cause }),
  ],
  [
    SandboxInvalidError,
    'SANDBOX_INVALID',
    new SandboxInvalidError({ path: '/job/workspace', problem: 'does not exist', fix: 'Create it.', cause }),
  ],
  [
    WorktreeNotCleanError,
    'WORKTREE_NOT_CLEAN',
    new WorktreeNotCleanError({ workspace: '/r', statusLines: [' M a.txt'], cause }),
  ],
] as const;

describe('snodo errors', () => {
  it.each(cases)(
    '%o carries its code, its cause, and is recognised by itself and SnodoError',
    (ErrorClass, code, error) => {
      expect(error.code).toBe(code);
      expect(error.name).toBe(ErrorClass.name);
      expect(error.cause).toBe(cause);
      expect(error).toBeInstanceOf(Error);
      expect(ErrorClass.isInstance(error)).toBe(true);
      expect(SnodoError.isInstance(error)).toBe(true);
      expect(error.message.length).toBeGreaterThan(20);
    },
  );

  it('tells the classes apart: no class claims another class’s error', () => {
    for (const [ErrorClass, , own] of cases) {
      for (const [, , other] of cases) {
        if (other !== own) expect(ErrorClass.isInstance(other)).toBe(false);
      }
    }
  });

  it('answers false for null, undefined, plain errors and look-alike objects', () => {
    const lookAlike = { code: 'CODER_TIMEOUT', name: 'CoderTimeoutError', message: 'x' };
    for (const value of [null, undefined, 'CODER_TIMEOUT', 42, new Error('x'), lookAlike, {}]) {
      expect(SnodoError.isInstance(value)).toBe(false);
      expect(CoderTimeoutError.isInstance(value)).toBe(false);
    }
  });

  it('recognises an error from another copy of the SDK through the Symbol.for marker', () => {
    const foreign = Object.assign(new Error('from a duplicate install'), {
      code: 'CODER_FAILED',
      [Symbol.for('snodo.error')]: true,
      [Symbol.for('snodo.error.CODER_FAILED')]: true,
    });
    expect(SnodoError.isInstance(foreign)).toBe(true);
    expect(CoderFailedError.isInstance(foreign)).toBe(true);
    expect(CoderAbortedError.isInstance(foreign)).toBe(false);
  });

  it('gives CODER_NOT_INSTALLED a quick-setup text: install, check, and how to pick another coder', () => {
    const error = new CoderNotInstalledError({
      ...who,
      installHint: 'npm install -g @anthropic-ai/claude-code',
      binary: 'claude',
    });
    expect(error.quickSetup.split('\n')).toEqual([
      'Claude Code is not installed: no `claude` executable was found on PATH.',
      '  Install: npm install -g @anthropic-ai/claude-code',
      '  Check:   claude --version   (or: snodo coders)',
      "  Binary elsewhere? Set coders.claude-code.binary in snodo's config.",
      '  Or pick another coder: snodo run "<task>" --coder <id>   (snodo coders lists them)',
    ]);
    expect(error.message).toContain('npm install -g @anthropic-ai/claude-code');
  });

  it('names what the user needs in each message', () => {
    expect(
      new CoderCredentialsMissingError({
        ...who,
        envVars: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
        configKey: 'anthropic',
      }).message,
    ).toBe(
      'Claude Code needs a key and ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN is not set. ' +
        'Store a key with `snodo config add anthropic <key>`, or export ANTHROPIC_API_KEY=<key>.',
    );
    expect(
      new CoderUnknownError({ requestedId: 'claud', registeredIds: ['mock', 'claude-code'] }).message,
    ).toContain('(registered: claude-code, mock)');
    expect(new CoderFailedError({ ...who, signal: 'SIGSEGV', stderrTail: '' }).message).toContain(
      'was killed by signal SIGSEGV',
    );
    expect(new SnodoMutationError({ ...who, paths: ['.snodo/b', '.snodo/a'] }).paths).toEqual([
      '.snodo/a',
      '.snodo/b',
    ]);
    expect(
      new CoderCliVersionUnsupportedError({
        ...who,
        foundVersion: '1.0.0',
        supportedVersions: { min: '2.0.0' },
        installHint: 'npm i -g x',
      }).message,
    ).toContain('>= 2.0.0');
  });
});

describe('availabilityError', () => {
  const adapter = new MockCoderAdapterV1({
    id: 'claude-code',
    displayName: 'Claude Code',
    installHint: 'npm i -g x',
    credentials: { envVars: ['ANTHROPIC_API_KEY'], configKey: 'anthropic' },
  });

  it('returns undefined for a ready coder', () => {
    expect(
      availabilityError(adapter, { ready: true, installed: true, credentials: 'environment' }),
    ).toBeUndefined();
  });

  it('maps each not-ready state to its typed error', () => {
    expect(
      CoderNotInstalledError.isInstance(
        availabilityError(adapter, { ready: false, installed: false, credentials: 'environment' }),
      ),
    ).toBe(true);
    expect(
      CoderCliVersionUnsupportedError.isInstance(
        availabilityError(adapter, {
          ready: false,
          installed: true,
          version: '9.0.0',
          versionSupported: false,
          credentials: 'environment',
        }),
      ),
    ).toBe(true);
    const missing = availabilityError(adapter, { ready: false, installed: true, credentials: 'missing' });
    expect(CoderCredentialsMissingError.isInstance(missing)).toBe(true);
    expect((missing as CoderCredentialsMissingError).envVars).toEqual(['ANTHROPIC_API_KEY']);
    const other = availabilityError(adapter, {
      ready: false,
      installed: true,
      credentials: 'not-needed',
      reason: 'the Docker daemon is not running',
      fix: 'start Docker',
    });
    expect(CoderUnavailableError.isInstance(other)).toBe(true);
    expect((other as Error).message).toBe(
      'Claude Code cannot run here: the Docker daemon is not running. Fix: start Docker',
    );
    const sentence = availabilityError(adapter, {
      ready: false,
      installed: true,
      credentials: 'not-needed',
      reason: 'no model is set for --coder litellm.',
    });
    expect((sentence as Error).message).toBe(
      'Claude Code cannot run here: no model is set for --coder litellm. Run `snodo doctor` for details.',
    );
  });
});
