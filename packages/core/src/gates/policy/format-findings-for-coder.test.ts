import { describe, expect, it } from 'vitest';
import { verdict } from '../../testing/verdict.js';
import { applySeverityCap } from './apply-severity-cap.js';
import { formatFindingsForCoder } from './format-findings-for-coder.js';

describe('formatFindingsForCoder', () => {
  it('lists every gate that did not pass with findings and command output, and skips passes', () => {
    const text = formatFindingsForCoder([
      verdict('scope', 'pass', { kind: 'constraint' }),
      applySeverityCap(
        verdict('arch', 'blocker', {
          justification: 'Business logic leaks into the route handler.',
          findings: [{ message: 'move the check into the service', path: 'src/routes/login.ts', line: 12 }],
        }),
        'warn',
      ),
      verdict('tests', 'blocker', {
        kind: 'command',
        gateType: 'quality',
        justification: 'Tests failed: `npm test` exited with code 1.',
        evidence: { outputTail: 'FAIL login.test.ts > locks after 5 attempts' },
      }),
    ]);
    expect(text).not.toContain('## scope');
    expect(text).toContain('## arch (security): blocker');
    expect(text).toContain('- src/routes/login.ts:12: move the check into the service');
    expect(text).toContain('## tests (quality): blocker');
    expect(text).toContain('FAIL login.test.ts > locks after 5 attempts');
    expect(text).toContain('.snodo/');
  });

  it('is empty when everything passed', () => {
    expect(formatFindingsForCoder([verdict('a', 'pass')])).toBe('');
  });
});
