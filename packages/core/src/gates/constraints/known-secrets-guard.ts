import { Redactor } from '@snodo/audit';
import type { GateFinding } from '../gate-verdict.js';
import { parseAddedLines } from './parse-added-lines.js';
import type { Predicate } from './predicate.js';

/** The gate id of the built-in guard against credentials snodo holds appearing in the change. */
export const KNOWN_SECRETS_GUARD_ID = 'known_secrets_guard';

/**
 * Built-in and non-removable: no added line may carry a credential snodo itself holds — a provider key
 * from config or the environment, its signing key — raw, base64 (at any alignment) or URL-encoded. Unlike
 * the protocol's pattern-based `no_secrets_in_diff`, it knows the exact values, so a key a coder read and
 * encoded into a file is caught. Passes trivially when snodo holds no secret.
 */
export const knownSecretsGuard: Predicate = (context) => {
  const secrets = (context.knownSecrets ?? []).filter((secret) => secret.length >= 8);
  if (secrets.length === 0)
    return { passed: true, justification: 'No credential snodo holds is in the change.' };
  const redactor = new Redactor({ secrets });
  const findings: GateFinding[] = [];
  for (const added of parseAddedLines(context.diff.patch)) {
    if (redactor.redactString(added.text) === added.text) continue;
    findings.push({
      message: `${added.path}:${added.line} holds a credential snodo holds`,
      path: added.path,
      line: added.line,
    });
  }
  if (findings.length === 0)
    return { passed: true, justification: 'No credential snodo holds is in the change.' };
  return {
    passed: false,
    justification:
      `The change writes a credential snodo holds (a provider key or its signing key) into ${[...new Set(findings.map((finding) => finding.path))].join(', ')}; ` +
      'it is never landed. Rotate that key if the workspace or its branch was shared.',
    findings,
    evidence: { lines: findings.length },
  };
};
