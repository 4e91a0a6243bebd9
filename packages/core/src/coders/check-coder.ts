import { availabilityError, buildCoderEnvironment, SnodoError } from '@snodo/coder-sdk';
import { lookUpCoderCredentials } from '../pipeline/coder-credentials.js';
import type { Project } from '../project/project.js';
import type { CoderRegistry } from './coder-registry.js';

/** One coder as `snodo coders`, `snodo doctor` and `snodo run --dry-run` report it. */
export interface CoderStatus {
  /** The id users type after `--coder`. */
  readonly id: string;
  /** The human name. */
  readonly displayName: string;
  /** `engine-managed` (snodo writes the change) or `in-place` (the coder edits the worktree). */
  readonly kind: string;
  /** The model namespace routing to it (`<id>/`), when it has one. */
  readonly modelPrefix: string | null;
  /** `true` when this is the coder used when nothing chooses one. */
  readonly isDefault: boolean;
  /** Whether what it needs is installed. */
  readonly installed: boolean;
  /** The version its CLI reported, when it has one. */
  readonly version: string | null;
  /** Where its key was found (`environment`, `config`, `cli-login`), `not-needed`, or `missing`. */
  readonly credentials: string;
  /** The environment variables that can carry its key, names only. */
  readonly credentialVariables: readonly string[];
  /** `true` when it can run now. */
  readonly ready: boolean;
  /** Why it is not ready, when it is not. */
  readonly reason: string | null;
  /** The command or step that makes it ready. */
  readonly fix: string | null;
  /** How to install it. */
  readonly installHint: string | null;
  /**
   * Whether its processes run in snodo's sandbox: `supported` (an in-place coder that runs everything
   * through it), `unsupported` (an in-place coder that does not: it runs with your powers even where a
   * sandbox exists), `not-needed` (an engine-managed coder runs no process; snodo writes its files), or
   * `unknown` when the coder could not be loaded.
   */
  readonly sandbox: 'supported' | 'unsupported' | 'not-needed' | 'unknown';
}

/**
 * The step that makes a coder ready when it does not say so itself: install it, or (for a missing key,
 * a version outside the verified range…) what the typed error says to do.
 */
function fixFor(error: Error, installed: boolean, adapter: { installHint?: string }): string {
  if (!installed && adapter.installHint !== undefined) return adapter.installHint;
  return error.message;
}

/**
 * Asks one registered coder whether it can run here, with the environment core would give it (the
 * allow-listed variables plus only its own credentials), exactly as `snodo run` checks before creating a
 * worktree. A coder that cannot even be loaded is reported with the load error as the reason: not
 * installed (with its install hint) only when the load said `CODER_NOT_INSTALLED`; a package that is
 * installed but exports no coder, or fails to import, is installed and gets the error's own fix, never an
 * `npm install` hint for a package that is already there.
 */
export async function checkCoder(
  project: Pick<Project, 'registry' | 'config' | 'env'>,
  id: string,
): Promise<CoderStatus> {
  const { registry, config, env } = project;
  const registration = registry.registration(id);
  const common = {
    id,
    displayName: registration.displayName,
    kind: registration.kind,
    modelPrefix: registration.modelPrefix ?? null,
    isDefault: registry.defaultCoderId === id,
  };
  const unavailable = (error: unknown): CoderStatus => {
    const quickSetup = (error as { quickSetup?: unknown } | null)?.quickSetup;
    const ownFix = (error as { fix?: unknown } | null)?.fix;
    const notInstalled = !SnodoError.isInstance(error) || error.code === 'CODER_NOT_INSTALLED';
    return {
      ...common,
      installed: !notInstalled,
      version: null,
      credentials: 'unknown',
      credentialVariables: [],
      ready: false,
      reason: error instanceof Error ? error.message : String(error),
      fix:
        typeof ownFix === 'string'
          ? ownFix
          : typeof quickSetup === 'string'
            ? (quickSetup.split('\n')[1]?.trim() ?? null)
            : null,
      installHint: notInstalled ? (registration.installHint ?? null) : null,
      sandbox: 'unknown',
    };
  };
  let adapter: Awaited<ReturnType<CoderRegistry['get']>>;
  try {
    adapter = await registry.get(id);
  } catch (error) {
    return unavailable(error);
  }
  const settings = config.coders?.[id] ?? {};
  const credentials = lookUpCoderCredentials(adapter, config, env);
  const coderEnvironment = buildCoderEnvironment({
    parentEnv: env,
    credentials: { ...(settings.env ?? {}), ...credentials.variables },
  });
  let availability: Awaited<ReturnType<typeof adapter.checkAvailability>>;
  try {
    availability = await adapter.checkAvailability({
      env: coderEnvironment,
      ...(settings.binary ? { binaryPath: settings.binary } : {}),
    });
  } catch (error) {
    // `checkAvailability` must not throw; one that does is reported, not allowed to end the listing.
    return unavailable(error);
  }
  const notReady = availabilityError(adapter, availability);
  return {
    ...common,
    // The adapter's own name unless config chose one: a package coder's registration may only know its id.
    displayName: typeof settings.display_name === 'string' ? settings.display_name : adapter.displayName,
    installed: availability.installed,
    version: availability.version ?? null,
    credentials: availability.credentials,
    credentialVariables: [...adapter.credentials.envVars],
    ready: notReady === undefined,
    reason: notReady === undefined ? null : (availability.reason ?? notReady.message),
    fix:
      notReady === undefined ? null : (availability.fix ?? fixFor(notReady, availability.installed, adapter)),
    installHint: adapter.installHint ?? registration.installHint ?? null,
    sandbox:
      adapter.kind === 'engine-managed'
        ? 'not-needed'
        : adapter.supportsSandbox === true
          ? 'supported'
          : 'unsupported',
  };
}
