import { z } from 'zod';
import { pathSegments } from './workspace-path.js';

/** The name of the terminal tool; calling it ends the loop. */
export const SUBMIT_FILES_TOOL_NAME = 'submit_files';

/** One file in a `submit_files` call. */
export const submittedFileSchema = z.object({
  path: z
    .string()
    .min(1)
    .describe('Path relative to the repository root, with / separators, e.g. src/app.ts'),
  action: z
    .enum(['write', 'delete'])
    .describe('write: create the file or replace it with content; delete: remove the file'),
  content: z
    .string()
    .optional()
    .describe('For write: the complete new content of the file (not a diff, not an excerpt)'),
});

/** A file as the model submitted it, before its path is checked. */
export type SubmittedFile = z.infer<typeof submittedFileSchema>;

/**
 * The input of `submit_files`. A write without content and the same path twice are refused here, so the
 * AI SDK hands the problem back to the model as a tool error and it may correct itself within its turns.
 */
export const submitFilesInputSchema = z
  .object({
    files: z
      .array(submittedFileSchema)
      .describe('Every file to create, replace or delete. An empty list means no change is needed.'),
  })
  .superRefine((input, context) => {
    const seen = new Set<string>();
    input.files.forEach((file, index) => {
      if (file.action === 'write' && file.content === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['files', index, 'content'],
          message: `"${file.path}" has action write but no content; give the complete new file content`,
        });
      }
      const key = pathSegments(file.path).join('/');
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: ['files', index, 'path'],
          message: `"${file.path}" is listed twice; list each file once`,
        });
      }
      seen.add(key);
    });
  });

/** The validated input of `submit_files`. */
export type SubmitFilesInput = z.infer<typeof submitFilesInputSchema>;

/** The tool's description, read by the model. */
export const SUBMIT_FILES_DESCRIPTION =
  'Deliver your change and finish. List every file to create or replace with its complete new content, ' +
  'and every file to delete. Files you do not list stay as they are. Call this exactly once, when the ' +
  'change is complete; it ends your work on the task.';
