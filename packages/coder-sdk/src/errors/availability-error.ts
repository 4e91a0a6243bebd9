import type { SnodoError } from '@snodo/foundation';
import type { CoderAdapterV1 } from '../v1/coder-v1.js';
import type { CoderV1Availability } from '../v1/coder-v1-availability.js';
import { isVersionInRange, type SupportedVersionRange } from '../version/version-range.js';
import { CoderCliVersionUnsupportedError } from './coder-cli-version-unsupported-error.js';
import { CoderCredentialsMissingError } from './coder-credentials-missing-error.js';
import { CoderNotInstalledError } from './coder-not-installed-error.js';
import { CoderUnavailableError } from './coder-unavailable-error.js';

/** Reads `supportedVersions` from adapters that carry one (every `SubprocessCoderAdapter` does). */
function readSupportedVersions(adapter: CoderAdapterV1): SupportedVersionRange | undefined {
  const range = (adapter as { supportedVersions?: unknown }).supportedVersions;
  if (range === null || typeof range !== 'object') return undefined;
  const { min, below } = range as Record<string, unknown>;
  if ((min !== undefined && typeof min !== 'string') || (below !== undefined && typeof below !== 'string')) {
    return undefined;
  }
  return range as SupportedVersionRange;
}

/**
 * Turns a not-ready availability into the typed error core throws before creating any worktree:
 * not installed → `CODER_NOT_INSTALLED`; a version outside the verified range →
 * `CODER_CLI_VERSION_UNSUPPORTED`; no key → `CODER_CREDENTIALS_MISSING`; any other reason →
 * `CODER_UNAVAILABLE` with the coder's own reason and fix. Returns `undefined` when the coder is ready.
 */
export function availabilityError(
  adapter: CoderAdapterV1,
  availability: CoderV1Availability,
): SnodoError | undefined {
  if (availability.ready) return undefined;
  const { id: coderId, displayName, installHint } = adapter;
  if (!availability.installed) {
    const binary = (adapter as { binary?: unknown }).binary;
    return new CoderNotInstalledError({
      coderId,
      displayName,
      installHint,
      binary: availability.binaryPath ?? (typeof binary === 'string' ? binary : undefined),
    });
  }
  if (availability.versionSupported === false) {
    const supportedVersions = readSupportedVersions(adapter);
    return new CoderCliVersionUnsupportedError({
      coderId,
      displayName,
      foundVersion: availability.version ?? 'unknown',
      installHint,
      ...(supportedVersions === undefined ? {} : { supportedVersions }),
    });
  }
  if (availability.credentials === 'missing') {
    return new CoderCredentialsMissingError({
      coderId,
      displayName,
      envVars: adapter.credentials.envVars,
      ...(adapter.credentials.configKey === undefined ? {} : { configKey: adapter.credentials.configKey }),
      // A coder whose key depends on its model (no fixed variables) says itself which key is missing.
      ...(adapter.credentials.envVars.length === 0 && availability.reason
        ? { reason: availability.reason }
        : {}),
      ...(adapter.credentials.envVars.length === 0 && availability.fix ? { fix: availability.fix } : {}),
    });
  }
  if (availability.version !== undefined) {
    const supportedVersions = readSupportedVersions(adapter);
    if (supportedVersions !== undefined && !isVersionInRange(availability.version, supportedVersions)) {
      return new CoderCliVersionUnsupportedError({
        coderId,
        displayName,
        foundVersion: availability.version,
        installHint,
        supportedVersions,
      });
    }
  }
  return new CoderUnavailableError({
    coderId,
    displayName,
    reason: availability.reason ?? 'it reported itself not ready without saying why',
    ...(availability.fix === undefined ? {} : { fix: availability.fix }),
  });
}
