import { describe, expect, it } from 'vitest';
import { parseProtocol } from './parse-protocol.js';
import { findMode, validatorsForMode } from './protocol-queries.js';
import { PROTOCOL_TEMPLATE_NAMES, renderProtocolTemplate } from './protocol-templates.js';
import { yamlArgv } from './template-commands.js';

const npm = {
  test: { command: ['npm', 'test'], source: 'package.json' },
  setup: {
    command: ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund'],
    source: 'lockfile package-lock.json',
  },
};

describe('templates with what snodo init detected', () => {
  it.each(PROTOCOL_TEMPLATE_NAMES)(
    '%s states the detected test command and setup, and still loads cleanly',
    (name) => {
      const text = renderProtocolTemplate(name, npm);
      const { protocol, warnings } = parseProtocol(text, { strict: true, registeredCoders: [] });
      expect(warnings).toEqual([]);
      const tests = protocol.validators.find((validator) => validator.validator_id === 'tests');
      expect(tests?.tooling.test_command).toEqual(['npm', 'test']);
      expect(protocol.execution.setup).toEqual(['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund']);
      expect(text).toContain('test_command: [npm, test]   # detected by `snodo init` from package.json');
      expect(text).toContain('Detected by `snodo init` from package-lock.json');
      expect(text).toContain('  setup: [npm, ci, --prefer-offline, --no-audit, --no-fund]\n');
    },
  );

  it.each(PROTOCOL_TEMPLATE_NAMES)(
    '%s without tests has no tests gate, says runs report "no tests ran", and loads',
    (name) => {
      const text = renderProtocolTemplate(name, { test: null, setup: null });
      const { protocol, warnings } = parseProtocol(text, { strict: true, registeredCoders: [] });
      expect(warnings).toEqual([]);
      expect(protocol.validators.some((validator) => validator.validator_type === 'quality')).toBe(false);
      for (const mode of protocol.modes) {
        expect(findMode(protocol, mode.mode_id)?.validators).not.toContain('tests');
        expect(validatorsForMode(protocol, mode.mode_id).length).toBeGreaterThan(0);
      }
      expect(text).toContain('"no tests ran"');
      expect(protocol.execution.setup).toBe('auto');
    },
  );

  it('keeps the solo template’s alternatives as comments under the detected command', () => {
    const text = renderProtocolTemplate('solo', {
      test: { command: ['go', 'test', './...'], source: 'go.mod' },
    });
    expect(text).toContain(
      '    tooling:\n      test_command: [go, test, ./...]   # detected by `snodo init` from go.mod\n      # test_command: npm test',
    );
    expect(text).not.toContain('# tooling:');
  });

  it('leaves the template as it is without detection', () => {
    expect(renderProtocolTemplate('solo', {})).toBe(renderProtocolTemplate('solo'));
  });

  it('quotes only the argv parts YAML would misread', () => {
    expect(yamlArgv(['pytest', '-q', '--no-audit'])).toBe('[pytest, -q, --no-audit]');
    expect(yamlArgv(['-', '- x', '@scope/pkg', 'a b'])).toBe('["-", "- x", "@scope/pkg", "a b"]');
    expect(yamlArgv(['npm', 'run', 'test:unit'])).toBe('[npm, run, "test:unit"]');
    expect(yamlArgv(['make', 'test'])).toBe('[make, test]');
  });
});
