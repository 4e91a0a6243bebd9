import { type CoderV1Credentials, SubprocessCoderAdapter } from '@snodo/coder-sdk';
import type { CommandCoderAdapterFactory, CommandCoderDefinition } from './command-coder-registration.js';

/**
 * A coder that is a command template from config, run by the SDK's `SubprocessCoderAdapter`: binary
 * lookup (PATH or `coders.<id>.binary` through the request's coder config), version probe, supervised
 * spawn without a shell, transcript, and the single commit of the in-place base.
 *
 * Its credentials are config's `coders.<id>.credentials`: core passes a declared variable from snodo's
 * environment (or the key stored with `snodo config add <id>` as the first one) and masks its value in the
 * audit log and transcript; with none declared the coder gets the usual allow-listed environment plus
 * `coders.<id>.env`, and a CLI that logs in by itself needs nothing more.
 */
class CommandTemplateCoderAdapter extends SubprocessCoderAdapter {
  readonly id: string;
  readonly displayName: string;
  readonly modelPrefix: string;
  readonly installHint: string;
  readonly binary: string;
  readonly credentials: CoderV1Credentials;
  readonly #definition: CommandCoderDefinition;

  constructor(definition: CommandCoderDefinition) {
    super();
    this.#definition = definition;
    this.id = definition.id;
    this.displayName = definition.displayName;
    this.modelPrefix = definition.modelPrefix;
    this.installHint = definition.installHint;
    this.binary = definition.binary;
    this.credentials =
      definition.credentialVariables.length === 0
        ? { envVars: [] }
        : { envVars: [...definition.credentialVariables], configKey: definition.id };
  }

  buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    return this.#definition.buildArgv(prompt, workspace, model);
  }
}

/**
 * The default `CommandCoderAdapterFactory`: builds a command-template coder on the SDK's
 * `SubprocessCoderAdapter`. Used by `createCommandCoderRegistration` unless a caller passes its own.
 */
export const createCommandTemplateAdapter: CommandCoderAdapterFactory = (definition) =>
  new CommandTemplateCoderAdapter(definition);
