import { type CoderAdapterV1, CoderConfigInvalidError } from '@snodo/coder-sdk';
import type { CoderRegistration, CoderSettings } from './coder-registration.js';
import { createCommandTemplateAdapter } from './command-template-coder-adapter.js';
import { checkCommandTemplate, expandCommandTemplate } from './expand-command-template.js';

/**
 * Everything a subprocess coder base needs to run a command-template coder: the metadata and a
 * `buildArgv` that expands the template. Handed to `CommandCoderOptions.createAdapter`.
 */
export interface CommandCoderDefinition {
  /** The coder id (the config key under `coders`). */
  readonly id: string;
  /** The human name (config `display_name`, else the id). */
  readonly displayName: string;
  /** The program to run: the template's first element (config `binary` may point elsewhere). */
  readonly binary: string;
  /** The model namespace routing to this coder (`<id>/` unless config says otherwise). */
  readonly modelPrefix: string;
  /** How to install the program, for `snodo coders` and not-installed errors. */
  readonly installHint: string;
  /**
   * Config `coders.<id>.credentials`: the environment variables the program may receive from snodo's
   * environment (or, for the first, the key stored with `snodo config add <id>`); empty when it logs in
   * by itself. Nothing else of snodo's environment beyond the usual allow-list reaches it.
   */
  readonly credentialVariables: readonly string[];
  /**
   * The full argv of one run, program first, each placeholder substituted inside its own element; without
   * a model the `--model {model}` pair is left out.
   */
  readonly buildArgv: (prompt: string, workspace: string, model: string | undefined) => string[];
}

/**
 * Builds the adapter of a command-template coder from its definition and its config entry. The default,
 * `createCommandTemplateAdapter`, is built on the SDK's `SubprocessCoderAdapter` (binary lookup, process
 * group, timeouts, transcript, the single commit); a caller may pass another (tests, a sandboxing wrapper).
 */
export type CommandCoderAdapterFactory = (
  definition: CommandCoderDefinition,
  settings: CoderSettings,
) => CoderAdapterV1 | Promise<CoderAdapterV1>;

/** What `createCommandCoderRegistration` needs. */
export interface CommandCoderOptions {
  /** The coder id (the config key under `coders`). */
  readonly id: string;
  /** The template from config `coders.<id>.command`: program first, then arguments with placeholders. */
  readonly command: readonly unknown[];
  /** The human name; defaults to the id. */
  readonly displayName?: string;
  /** The model namespace; defaults to `<id>/`. */
  readonly modelPrefix?: string;
  /** Config `coders.<id>.credentials`: the variable names the program may receive; none by default. */
  readonly credentials?: readonly string[];
  /** Turns the definition into a running adapter; defaults to `createCommandTemplateAdapter`. */
  readonly createAdapter?: CommandCoderAdapterFactory;
}

/**
 * A registration for a coder declared in config as a plain command template
 * (`coders: { mine: { command: ["my-cli", "--prompt", "{prompt}", "--model", "{model}"] } }`). Such a coder
 * is always in-place: the program edits the worktree and the subprocess base makes the commit.
 *
 * The template is checked now, so a typo fails at start-up, not mid-run.
 *
 * @throws {CoderConfigInvalidError} (`CODER_CONFIG_INVALID`) naming `coders.<id>.command` and what is wrong with it.
 */
export function createCommandCoderRegistration(options: CommandCoderOptions): CoderRegistration {
  const { id } = options;
  const problems = checkCommandTemplate(options.command);
  if (problems.length > 0) {
    throw new CoderConfigInvalidError({ coderId: id, setting: 'command', problem: problems.join('; ') });
  }
  const template = [...(options.command as readonly string[])];
  const binary = template[0] ?? '';
  const displayName = options.displayName ?? id;
  const definition: CommandCoderDefinition = {
    id,
    displayName,
    binary,
    modelPrefix: options.modelPrefix ?? `${id}/`,
    installHint: `Install \`${binary}\` and put it on PATH, or set coders.${id}.binary to its path.`,
    credentialVariables: [...(options.credentials ?? [])],
    buildArgv: (prompt, workspace, model) => expandCommandTemplate(template, { prompt, workspace, model }),
  };
  return {
    id,
    displayName,
    kind: 'in-place',
    modelPrefix: definition.modelPrefix,
    installHint: definition.installHint,
    load: (settings) => (options.createAdapter ?? createCommandTemplateAdapter)(definition, settings),
  };
}
