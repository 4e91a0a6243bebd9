import { describe, expect, it } from 'vitest';
import { parseTextProposals } from './parse-text-proposals.js';

describe('parseTextProposals', () => {
  it('reads a bare JSON list and a { files } object, defaulting the action to write', () => {
    expect(parseTextProposals('[{"path":"a.ts","content":"a"}]')).toEqual([
      { path: 'a.ts', action: 'write', content: 'a' },
    ]);
    expect(parseTextProposals('{"files":[{"path":"b.ts","action":"delete"}]}')).toEqual([
      { path: 'b.ts', action: 'delete' },
    ]);
  });

  it('matches the outer fence greedily, so a fence inside file content survives (Python original bug 9)', () => {
    const content = 'Usage:\n\n```sh\nnpm test\n```\n';
    const text = `\`\`\`json\n${JSON.stringify([{ path: 'README.md', content }], null, 2)}\n\`\`\``;
    expect(parseTextProposals(text)).toEqual([{ path: 'README.md', action: 'write', content }]);
  });

  it('reads a fenced list with prose around it, as the Python original did', () => {
    const text = 'Here you go:\n```json\n[{"path":"a.ts","content":"a"}]\n```\nHope it helps!';
    expect(parseTextProposals(text)).toEqual([{ path: 'a.ts', action: 'write', content: 'a' }]);
  });

  it.each([
    ['prose', 'I changed the file for you.'],
    ['an empty answer', '   '],
    ['JSON that is not a file list', '{"answer": 42}'],
    ['a write without content', '[{"path":"a.ts"}]'],
    ['a fence holding prose', 'Here you go:\n```\nI changed a.ts\n```'],
  ])('refuses %s', (_label, text) => {
    expect(parseTextProposals(text)).toBeUndefined();
  });
});
