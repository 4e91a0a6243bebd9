import path from 'node:path';
import { type CoderV1Request, coderStateDirectory } from '@snodo/coder-sdk';
import type { ClaudeCodeRunConfig } from './claude-code-settings.js';

/**
 * Claude Code's private configuration directory for a job: `claude-code-home` in the job's coder state
 * directory (`.snodo/jobs/<id>/coder/claude-code-home`, writable inside the sandbox), never in the worktree
 * or `/tmp`. It holds Claude Code's settings, its own session log and plugin state, so the user's
 * `~/.claude` (settings, hooks, MCP servers, `CLAUDE.md`) never reaches a snodo run, and the session stays
 * inspectable with the job.
 */
export function claudeCodeConfigDirectory(
  request: Pick<CoderV1Request, 'transcriptPath' | 'stateDirectory'>,
): string {
  return path.join(coderStateDirectory(request), 'claude-code-home');
}

/**
 * The variables this adapter adds to the allow-listed `request.env` (which already dropped the nesting
 * guard `CLAUDECODE`, every `CLAUDE_CODE_*` and any inherited `ANTHROPIC_BASE_URL`):
 * a private `CLAUDE_CONFIG_DIR`, auto-update and non-essential traffic (telemetry, error reports, update
 * checks) off, `ANTHROPIC_BASE_URL` and `CLAUDE_CODE_MAX_RETRIES` only when configured for this coder
 * (`base_url`, `max_retries`), and the job's private `HOME`
 * when core gives one.
 */
export function buildClaudeCodeEnvironment(
  request: Pick<CoderV1Request, 'transcriptPath' | 'stateDirectory' | 'homeDirectory'>,
  config: ClaudeCodeRunConfig,
): Record<string, string> {
  return {
    CLAUDE_CONFIG_DIR: claudeCodeConfigDirectory(request),
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...(config.baseUrl === undefined ? {} : { ANTHROPIC_BASE_URL: config.baseUrl }),
    ...(config.maxRetries === undefined ? {} : { CLAUDE_CODE_MAX_RETRIES: String(config.maxRetries) }),
    ...(request.homeDirectory === undefined ? {} : { HOME: request.homeDirectory }),
  };
}
