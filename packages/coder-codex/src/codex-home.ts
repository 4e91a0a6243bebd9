import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type CoderV1Request, coderStateDirectory } from '@snodo/coder-sdk';
import type { CodexRunConfig } from './codex-settings.js';

/** The name of the custom model provider snodo declares when `base_url` is configured. */
export const CODEX_PROVIDER_NAME = 'snodo';

/**
 * Codex's private home (`CODEX_HOME`) for a job: `codex-home` in the job's coder state directory
 * (`.snodo/jobs/<id>/coder/codex-home`, writable inside the sandbox), never in the worktree or `/tmp`. The
 * user's `~/.codex` (config, profiles, MCP servers, global `AGENTS.md`, trusted projects) never reaches a
 * snodo run, and Codex's own session log stays with the job.
 */
export function codexHomeDirectory(
  request: Pick<CoderV1Request, 'transcriptPath' | 'stateDirectory'>,
): string {
  return path.join(coderStateDirectory(request), 'codex-home');
}

/**
 * The variables this adapter adds to the allow-listed `request.env` (which already dropped any inherited
 * `OPENAI_BASE_URL` and other tools' keys): the private `CODEX_HOME`, the key as `CODEX_API_KEY`, and the
 * job's private `HOME` when core gives one.
 *
 * NOTE: `codex exec` authenticates its built-in OpenAI provider with `CODEX_API_KEY` and ignores
 * `OPENAI_API_KEY` (checked live at 0.171.0: no credentials reached the endpoint), so a key that arrives
 * as `OPENAI_API_KEY` is passed on under both names.
 */
export function buildCodexEnvironment(
  request: Pick<CoderV1Request, 'transcriptPath' | 'stateDirectory' | 'homeDirectory' | 'env'>,
): Record<string, string> {
  const key = nonEmpty(request.env.CODEX_API_KEY) ?? nonEmpty(request.env.OPENAI_API_KEY);
  return {
    CODEX_HOME: codexHomeDirectory(request),
    ...(key === undefined ? {} : { CODEX_API_KEY: key }),
    ...(request.homeDirectory === undefined ? {} : { HOME: request.homeDirectory }),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The `config.toml` snodo writes into the private home: nothing but, when `base_url` is configured, a
 * custom Responses provider for it that authenticates with `CODEX_API_KEY` (with `max_retries`, its retry
 * limits).
 */
export function codexConfigToml(config: CodexRunConfig): string {
  const lines = ['# Written by snodo for one job. Codex reads no other user config in a snodo run.', ''];
  if (config.baseUrl !== undefined) {
    // NOTE: JSON string syntax is valid TOML basic-string syntax for these values.
    lines.push(
      `model_provider = ${JSON.stringify(CODEX_PROVIDER_NAME)}`,
      '',
      `[model_providers.${CODEX_PROVIDER_NAME}]`,
      `name = ${JSON.stringify(CODEX_PROVIDER_NAME)}`,
      `base_url = ${JSON.stringify(config.baseUrl)}`,
      'env_key = "CODEX_API_KEY"',
      'wire_api = "responses"',
      ...(config.maxRetries === undefined
        ? []
        : [`request_max_retries = ${config.maxRetries}`, `stream_max_retries = ${config.maxRetries}`]),
      '',
    );
  }
  return lines.join('\n');
}

/**
 * Prepares the private home for an attempt: creates it (Codex refuses a `CODEX_HOME` that does not
 * exist), writes `config.toml`, and writes snodo's instructions as the home's `AGENTS.md`.
 *
 * NOTE: Codex reads `$CODEX_HOME/AGENTS.md` as global instructions and then the repository's own
 * `AGENTS.md` files, so both reach the model (checked live at 0.171.0). The alternatives do not fit:
 * `model_instructions_file` replaces Codex's built-in instructions, and `project_doc_fallback_filenames`
 * is skipped in a directory that has an `AGENTS.md`.
 */
export function prepareCodexHome(
  request: Pick<CoderV1Request, 'transcriptPath' | 'stateDirectory' | 'instructions'>,
  config: CodexRunConfig,
): string {
  const home = codexHomeDirectory(request);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(home, 'config.toml'), codexConfigToml(config));
  writeFileSync(path.join(home, 'AGENTS.md'), request.instructions);
  return home;
}
