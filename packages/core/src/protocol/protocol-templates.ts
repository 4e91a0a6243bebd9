import { ProtocolTemplateUnknownError } from '../errors.js';
import { applyTemplateCommands, type TemplateCommands } from './template-commands.js';
import { intentTemplate } from './templates/intent-template.js';
import { soloTemplate } from './templates/solo-template.js';
import { teamTemplate } from './templates/team-template.js';
import { twoPlusNTemplate } from './templates/two-plus-n-template.js';

/**
 * The protocol templates `snodo init --template <name>` writes, as commented YAML text. `solo` is the
 * default. Each loads through `parseProtocol` with no errors and no warnings (a test checks it).
 */
export const protocolTemplates = {
  solo: soloTemplate,
  team: teamTemplate,
  '2+n': twoPlusNTemplate,
  intent: intentTemplate,
} as const satisfies Readonly<Record<string, string>>;

/** `solo`, `team`, `2+n` or `intent`. */
export type ProtocolTemplateName = keyof typeof protocolTemplates;

/** Template names in the order `snodo init --help` lists them. */
export const PROTOCOL_TEMPLATE_NAMES = Object.keys(protocolTemplates) as ProtocolTemplateName[];

/** The template `snodo init` uses without `--template`. */
export const DEFAULT_PROTOCOL_TEMPLATE: ProtocolTemplateName = 'solo';

/** Whether `name` is a template name (for validating `--template`). */
export function isProtocolTemplateName(name: string): name is ProtocolTemplateName {
  return Object.hasOwn(protocolTemplates, name);
}

/**
 * The YAML text of a template, ready to write to `.snodo/protocol.yml`, with what `snodo init` detected
 * written in when `commands` is given (see `applyTemplateCommands`). Throws `ProtocolTemplateUnknownError`
 * (PROTOCOL_TEMPLATE_UNKNOWN) naming the templates for an unknown name.
 */
export function renderProtocolTemplate(
  name: ProtocolTemplateName | (string & {}),
  commands?: TemplateCommands,
): string {
  if (!isProtocolTemplateName(name)) {
    throw new ProtocolTemplateUnknownError({ template: name, available: PROTOCOL_TEMPLATE_NAMES });
  }
  const text = protocolTemplates[name];
  return commands === undefined ? text : applyTemplateCommands(text, commands);
}
