import type { CoderCredentialOrigin, CoderStatus } from '@snodo/core';
import { lookUpCoderCredentials } from '@snodo/core';
import type { LoadedCoderRegistry } from '../coders/load-coder-registry.js';
import type { Palette } from './palette.js';

/** Where a coder's credential comes from, as `snodo coders` shows it. */
export type CredentialSource =
  /** `providers.<provider>.api_key` in the config file, stored by `snodo config add <provider>`. */
  | { readonly kind: 'config'; readonly provider: string; readonly variable?: string; readonly path: string }
  /** A variable of snodo's environment, passed on under `variable` (or its own name). */
  | { readonly kind: 'environment'; readonly variable: string }
  /** The coder's CLI uses its own login (an OAuth session in its home); snodo passes it no key. */
  | { readonly kind: 'cli-login' }
  /** An in-place coder that declares no key: it reads its own login and `coders.<id>.env`, nothing from snodo. */
  | { readonly kind: 'own-login-only' }
  /** None needed, none found, or the coder could not be loaded: the status's `credentials` says which. */
  | { readonly kind: 'none' };

/**
 * The real source of each coder's credential: the key core's lookup (the one a run uses) would hand it,
 * else what the coder says about its own login. A key stored in config is never called "environment"
 * although core passes it to the coder as an environment variable.
 */
export async function credentialSources(
  loaded: Pick<LoadedCoderRegistry, 'registry' | 'config' | 'store'>,
  env: Readonly<Record<string, string | undefined>>,
  statuses: readonly CoderStatus[],
): Promise<Map<string, CredentialSource>> {
  const sources = new Map<string, CredentialSource>();
  const path = loaded.store.configPath();
  await Promise.all(
    statuses.map(async (status) => {
      let origin: CoderCredentialOrigin | undefined;
      let declaresNone = false;
      try {
        const adapter = await loaded.registry.get(status.id);
        declaresNone = adapter.credentials.envVars.length === 0;
        origin = lookUpCoderCredentials(adapter, loaded.config, env).origin;
      } catch {
        // A coder that cannot be loaded is reported by its status; it has no source.
      }
      sources.set(status.id, describe(origin, status, declaresNone, path));
    }),
  );
  return sources;
}

function describe(
  origin: CoderCredentialOrigin | undefined,
  status: CoderStatus,
  declaresNone: boolean,
  path: string,
): CredentialSource {
  if (origin?.kind === 'config') return { ...origin, path };
  if (origin?.kind === 'environment') return origin;
  if (status.credentials === 'cli-login') return { kind: 'cli-login' };
  if (declaresNone && status.kind === 'in-place' && status.installed) return { kind: 'own-login-only' };
  return { kind: 'none' };
}

/** The table cell: `config (openai)`, `env OPENAI_API_KEY`, `Claude Code login`, `missing (…)`. */
export function credentialSourceText(
  status: CoderStatus,
  source: CredentialSource,
  palette: Palette,
): string {
  if (status.credentials === 'missing') {
    return palette.red(`missing (${status.credentialVariables.join(' or ') || 'key'})`);
  }
  switch (source.kind) {
    case 'config':
      return `config (${source.provider})`;
    case 'environment':
      return `env ${source.variable}`;
    case 'cli-login':
      return `${status.displayName} login`;
    case 'own-login-only':
      return 'own login only';
    case 'none':
      return status.credentials;
  }
}

/** Lines under the table that say what a label means, once each. */
export function credentialSourceNotes(sources: Iterable<CredentialSource>, palette: Palette): string[] {
  const notes: string[] = [];
  const list = [...sources];
  const fromConfig = list.find((source) => source.kind === 'config');
  if (fromConfig?.kind === 'config') {
    notes.push(
      palette.dim(`config (<provider>): the key stored with \`snodo config add\` in ${fromConfig.path}`),
    );
  }
  if (list.some((source) => source.kind === 'own-login-only')) {
    notes.push(
      palette.dim(
        'own login only: snodo passes such a coder no key; it uses its own login, or the variables you put in coders.<id>.env',
      ),
    );
  }
  return notes;
}
