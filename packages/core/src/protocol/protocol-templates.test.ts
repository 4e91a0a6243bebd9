import { describe, expect, it } from 'vitest';
import { ProtocolTemplateUnknownError } from '../errors.js';
import { parseProtocol } from './parse-protocol.js';
import { findMode, validatorsForMode } from './protocol-queries.js';
import {
  DEFAULT_PROTOCOL_TEMPLATE,
  isProtocolTemplateName,
  PROTOCOL_TEMPLATE_NAMES,
  protocolTemplates,
  renderProtocolTemplate,
} from './protocol-templates.js';

describe('protocol templates', () => {
  it('offers solo, team, 2+n and intent, with solo as the default', () => {
    expect(PROTOCOL_TEMPLATE_NAMES).toEqual(['solo', 'team', '2+n', 'intent']);
    expect(DEFAULT_PROTOCOL_TEMPLATE).toBe('solo');
    expect(isProtocolTemplateName('2+n')).toBe(true);
    expect(isProtocolTemplateName('toString')).toBe(false);
  });

  it.each(PROTOCOL_TEMPLATE_NAMES)('%s loads with no errors and no warnings, even under --strict', (name) => {
    const text = renderProtocolTemplate(name);
    const { protocol, warnings } = parseProtocol(text, {
      fileName: `${name}.yml`,
      strict: true,
      registeredCoders: [],
    });
    expect(warnings).toEqual([]);
    expect(protocol.protocol_id).toBe(name);
    expect(findMode(protocol, protocol.initial_mode)).toBeDefined();
  });

  it.each(PROTOCOL_TEMPLATE_NAMES)('%s is commented for the person who reads it after snodo init', (name) => {
    const text = renderProtocolTemplate(name);
    expect(text.startsWith('# .snodo/protocol.yml')).toBe(true);
    expect(text).toContain('snodo protocol validate');
    expect(text.split('\n').filter((line) => line.trimStart().startsWith('#')).length).toBeGreaterThan(5);
  });

  it('solo has a pre-execute planning judge, post-execute security and architecture judges, a command gate and a secret scan', () => {
    const { protocol } = parseProtocol(protocolTemplates.solo);
    expect(protocol.modes.map((mode) => mode.mode_id)).toEqual(['producer']);
    const pre = validatorsForMode(protocol, 'producer', 'pre_execute').map((v) => v.validator_type);
    const post = validatorsForMode(protocol, 'producer', 'post_execute').map((v) => v.validator_type);
    expect(pre).toEqual(['planning']);
    expect(post).toEqual(['security', 'architecture', 'quality']);
    expect(protocol.disagreement_policy).toBe('unanimous');
    expect(protocol.global_constraints.map((constraint) => constraint.predicate)).toEqual([
      'no_secrets_in_diff',
    ]);
    // Offline under --mock: no judge pins its own model, so every judge uses the judging model.
    expect(protocol.validators.every((validator) => validator.model === undefined)).toBe(true);
    expect(protocol.modes.every((mode) => mode.coder === undefined)).toBe(true);
  });

  it('team routes work through three modes with disjoint duties', () => {
    const { protocol } = parseProtocol(protocolTemplates.team);
    expect(protocol.modes.map((mode) => mode.mode_id)).toEqual(['planner', 'producer', 'reviewer']);
    expect(protocol.modes.every((mode) => (mode.description ?? '').length > 0)).toBe(true);
  });

  it('2+n carries the three predicate-backed global constraints', () => {
    const { protocol } = parseProtocol(protocolTemplates['2+n']);
    expect(protocol.global_constraints.map((constraint) => constraint.predicate)).toEqual([
      'files_in_scope',
      'tests_exist_for_modified',
      'no_secrets_in_diff',
    ]);
  });

  it('refuses an unknown template name with a typed error listing the names', () => {
    expect(() => renderProtocolTemplate('solo2')).toThrow(ProtocolTemplateUnknownError);
    try {
      renderProtocolTemplate('solo2');
    } catch (error) {
      expect(ProtocolTemplateUnknownError.isInstance(error)).toBe(true);
      expect((error as ProtocolTemplateUnknownError).code).toBe('PROTOCOL_TEMPLATE_UNKNOWN');
      expect((error as Error).message).toContain('solo, team, 2+n, intent');
    }
  });
});
