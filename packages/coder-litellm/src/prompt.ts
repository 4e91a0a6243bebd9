import { realpathSync } from 'node:fs';
import { listWorkspaceFiles } from './read-only-tools.js';

/** How many entries of the repository listing go into the first message; `list_files` shows more. */
export const INITIAL_LISTING_LIMIT = 200;

/**
 * The system prompt of every model call: how to work with the tools, and the rules a submission must
 * keep. The task itself, the mode's instructions, constraints and any findings to fix travel in the
 * first user message (`request.prompt`, built by snodo's shared prompt builder).
 */
export function buildSystemPrompt(maxTurns: number): string {
  return [
    'You are an expert software engineer making one change to a git repository. You cannot run ' +
      'commands, and you never write files yourself: snodo writes what you submit and commits it.',
    '',
    'How to work:',
    '- Look at the repository with list_files, read_file and read_file_lines. Read every file you will ' +
      'change before changing it, so your new version keeps everything the task does not ask to change.',
    '- Deliver the change by calling submit_files once, with the complete new content of every file to ' +
      'create or change, and every file to delete. Paths are relative to the repository root and use /.',
    '- Only a submit_files call changes anything; prose changes nothing. If no change is needed, call ' +
      'submit_files with an empty list.',
    '- Never write under .git/ or .snodo/, and never use an absolute path or "..": such a submission is ' +
      'refused and the run stops.',
    `- You have at most ${maxTurns} replies in total. Tool calls made together in one reply share it, so ` +
      'read the files you need together.',
  ].join('\n');
}

/**
 * The first user message: snodo's prompt, then the repository's files (up to `INITIAL_LISTING_LIMIT`)
 * so the model can read what it needs in its first reply instead of spending one on `list_files`.
 */
export function buildFirstMessage(prompt: string, workspace: string): string {
  const { entries, truncated } = listWorkspaceFiles(realpathSync(workspace), '.', INITIAL_LISTING_LIMIT);
  const listing =
    entries.length === 0
      ? '(the repository has no files yet)'
      : `${entries.join('\n')}${truncated ? '\n[more entries not shown; use list_files]' : ''}`;
  return `${prompt.trimEnd()}\n\n## Repository files\n\n${listing}\n`;
}

/** Sent once when the model answers in prose instead of calling a tool. */
export const CORRECTIVE_MESSAGE =
  'You answered in prose, but only a submit_files call delivers a change. Call submit_files now with the ' +
  'complete content of every file to create or change (or an empty list if nothing needs to change). ' +
  'Do not answer in prose.';

/** Added before the last turn of the budget. */
export const LAST_TURN_MESSAGE =
  'This is your last reply: call submit_files now with your change. Reading more files is no longer possible.';
