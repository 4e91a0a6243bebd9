import { describe, expect, it } from 'vitest';
import { CliError } from './errors/cli-error.js';
import { EXIT_CODES, exitCodeForError, exitCodeForErrorCode, exitCodeForResult } from './exit-codes.js';

/** An error shaped like any snodo package's error: the marker and a code. */
function snodoError(code: string): Error {
  const error = new Error(code) as Error & { code: string };
  error.code = code;
  Object.defineProperty(error, Symbol.for('snodo.error'), { value: true });
  return error;
}

describe('exit codes (SPEC §9)', () => {
  it('maps bad input to 2', () => {
    for (const code of [
      'PROTOCOL_INVALID',
      'PROTOCOL_NOT_FOUND',
      'CONFIG_INVALID',
      'CONFIG_KEY_INVALID',
      'CODER_UNKNOWN',
      'MODEL_CODER_MISMATCH',
      'MODE_UNKNOWN',
      'BASE_BRANCH_REQUIRED',
      'NOT_A_GIT_REPOSITORY',
      'WORKTREE_DIRTY',
      'JOB_NOT_FOUND',
      'CODER_CONFIG_INVALID',
      'WORKSPACE_FOREIGN',
    ]) {
      expect(exitCodeForErrorCode(code), code).toBe(EXIT_CODES.badInput);
    }
  });

  it('maps coder and environment failures, and anything unknown, to 3', () => {
    for (const code of [
      'CODER_NOT_INSTALLED',
      'CODER_CREDENTIALS_MISSING',
      'CODER_TIMEOUT',
      'CODER_FAILED',
      'GIT_COMMAND_FAILED',
      'LLM_CALL_FAILED',
      'SOMETHING_NEW',
    ]) {
      expect(exitCodeForErrorCode(code), code).toBe(EXIT_CODES.failure);
    }
    expect(exitCodeForError(new TypeError('a bug'))).toBe(EXIT_CODES.failure);
  });

  it('reads errors from any package through their marker, and commander errors as usage', () => {
    expect(exitCodeForError(snodoError('MODE_UNKNOWN'))).toBe(2);
    expect(exitCodeForError(new CliError('PROTOCOL_EXISTS', { message: 'exists' }))).toBe(2);
    expect(exitCodeForError(Object.assign(new Error('x'), { code: 'commander.unknownOption' }))).toBe(2);
    expect(exitCodeForError(Object.assign(new Error('x'), { code: 'commander.helpDisplayed' }))).toBe(0);
    // A code alone is not enough: a Node error (ENOENT) is an environment failure, not bad input.
    expect(exitCodeForError(Object.assign(new Error('x'), { code: 'PROTOCOL_LIKE' }))).toBe(3);
  });

  it('maps run results: done 0, halted 1, cancelled 130, failed by the error code', () => {
    expect(exitCodeForResult({ status: 'done' })).toBe(0);
    expect(exitCodeForResult({ status: 'halted' })).toBe(1);
    expect(exitCodeForResult({ status: 'cancelled' })).toBe(130);
    expect(exitCodeForResult({ status: 'failed', error: { code: 'CODER_UNKNOWN' } })).toBe(2);
    expect(exitCodeForResult({ status: 'failed', error: { code: 'CODER_TIMEOUT' } })).toBe(3);
    expect(exitCodeForResult({ status: 'failed' })).toBe(3);
  });
});
