import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_SECRET_LENGTH, Redactor, SIGNING_KEY_FILE } from '@snodo/audit';
import { signingKeyDirectory } from '../audit-trail/index.js';
import type { SnodoConfig } from '../config/index.js';

/** Variables that hold a provider's key by naming convention (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`…). */
const apiKeyVariable = /^[A-Z][A-Z0-9_]*_API_KEY$/;

/** Shorter values are not treated as secrets: they would mask ordinary words in task text. */
const shortest = Math.max(MIN_SECRET_LENGTH, 8);

/**
 * The credential values snodo holds for a run (SPEC §12): every provider key in config, every provider key
 * in the environment (`*_API_KEY`, and the variables config names with `api_key_env`), every value of a
 * coder's `env` in config, and the base64 body of snodo's signing key. They are masked wherever task text
 * goes (audit log, commit subject, branch name) and refused by the built-in guard when they appear in a
 * change. Values are never logged, only matched.
 */
export function collectKnownSecrets(options: {
  config: SnodoConfig;
  env: Readonly<Record<string, string | undefined>>;
  snodoHome: string;
}): string[] {
  const providers = Object.values(options.config.providers ?? {});
  const named = new Set(
    providers.map((provider) => provider?.api_key_env).filter((name): name is string => name !== undefined),
  );
  const values = [
    ...providers.map((provider) => provider?.api_key),
    ...Object.entries(options.env)
      .filter(([name]) => apiKeyVariable.test(name) || named.has(name))
      .map(([, value]) => value),
    ...Object.values(options.config.coders ?? {}).flatMap((coder) => Object.values(coder?.env ?? {})),
    signingKeyBody(options.snodoHome),
  ];
  return [
    ...new Set(
      values.filter((value): value is string => typeof value === 'string' && value.trim().length >= shortest),
    ),
  ];
}

/** The base64 between the PEM armour lines of snodo's private key, or `undefined` when there is none yet. */
function signingKeyBody(snodoHome: string): string | undefined {
  try {
    const pem = readFileSync(join(signingKeyDirectory(snodoHome), SIGNING_KEY_FILE), 'utf8');
    return pem
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('-----'))
      .join('');
  } catch {
    return undefined;
  }
}

/** `text` with every form of every known secret replaced by `[REDACTED]`. */
export function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : new Redactor({ secrets }).redactString(text);
}
