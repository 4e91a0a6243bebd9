import type { ConversationView } from './conversation-view.js';

/**
 * Where coding CLIs state their working directory in the prompt. The first capture group is the path.
 * Extend this list when a CLI phrases it differently; the system prompt is searched before the messages.
 */
export const workspaceDirectoryPatterns: readonly RegExp[] = [
  // Codex: <environment_context><cwd>/path</cwd>… in a user message.
  /<cwd>\s*([^<\n]+?)\s*<\/cwd>/,
  // Claude Code (<env> block) and OpenCode: "Working directory: /path".
  /working directory:\s*[`'"]?(\/[^\s`'"<]*)/i,
  // Gemini CLI and others: "I'm currently working in the directory: /path", "current working directory is /path".
  /working in the directory:?\s*[`'"]?(\/[^\s`'"<]*)/i,
  /current working directory(?: is)?:?\s*[`'"]?(\/[^\s`'"<]*)/i,
  /workspace (?:directory|root|path)s?:?\s*[`'"]?(\/[^\s`'"<]*)/i,
];

/** The workspace directory the client announced in its prompt, if it did. */
export function findWorkspaceDirectory(view: ConversationView): string | undefined {
  const texts = [view.system, ...view.messages.map((message) => message.text)];
  for (const text of texts) {
    for (const pattern of workspaceDirectoryPatterns) {
      const found = pattern.exec(text)?.[1];
      if (found?.startsWith('/')) return found.replace(/[.,;:)]+$/, '');
    }
  }
  return undefined;
}
