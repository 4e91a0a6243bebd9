import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { judgeToolCallLines } from './judge-tool-calls.js';

const palette = picocolors.createColors(false);

describe('judgeToolCallLines (snodo task show)', () => {
  it('lists what a judge looked at: each call, its input, the bytes back or why it was refused', () => {
    const lines = judgeToolCallLines(
      [
        { tool: 'read_file', input: '{"path":"src/limit.ts"}', ok: true, bytes: 812 },
        {
          tool: 'read_file',
          input: '{"path":"../../etc/passwd"}',
          ok: false,
          error: '../../etc/passwd is outside the workspace',
          bytes: 48,
        },
      ],
      palette,
    );
    expect(lines).toEqual([
      '      looked read_file {"path":"src/limit.ts"} 812 B',
      '      looked read_file {"path":"../../etc/passwd"} refused: ../../etc/passwd is outside the workspace',
    ]);
  });

  it('prints nothing for a judge without tools, and counts calls beyond the first twelve', () => {
    expect(judgeToolCallLines(undefined, palette)).toEqual([]);
    const many = Array.from({ length: 15 }, () => ({ tool: 'git_log', input: '{}', ok: true, bytes: 10 }));
    const lines = judgeToolCallLines(many, palette);
    expect(lines).toHaveLength(13);
    expect(lines.at(-1)).toContain('3 more tool call(s)');
  });
});
