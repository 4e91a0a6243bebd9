import type { SnodoConfig } from '../config/index.js';
import type { Protocol, ProtocolMode } from '../protocol/index.js';

/** A decision with where it came from (`flag`, `protocol`, `config:…`), as a plan shows it. */
export interface Sourced<T> {
  readonly value: T;
  readonly source: string;
}

/**
 * The coder's wall-clock limit per attempt and where it comes from: `--timeout`, else the mode's
 * `coder_config.timeout_seconds` (only when the mode is for this coder), else config
 * `coders.<id>.timeout_seconds`, else `execution.coder_timeout_seconds`. The order of the request's
 * `coderConfig`, which puts the mode over config.
 */
export function resolveCoderTimeout(options: {
  readonly flag: number | undefined;
  readonly coderId: string;
  readonly mode: ProtocolMode | undefined;
  readonly config: SnodoConfig;
  readonly protocol: Protocol;
}): Sourced<number> {
  const { flag, coderId, mode } = options;
  if (flag !== undefined) return { value: flag, source: 'flag' };
  const modeApplies = mode !== undefined && (mode.coder === undefined || mode.coder === coderId);
  const modeTimeout = modeApplies ? mode.coder_config.timeout_seconds : undefined;
  if (typeof modeTimeout === 'number') {
    return { value: modeTimeout, source: 'protocol:coder_config.timeout_seconds' };
  }
  const configured = options.config.coders?.[coderId]?.timeout_seconds;
  if (typeof configured === 'number') {
    return { value: configured, source: `config:coders.${coderId}.timeout_seconds` };
  }
  return { value: options.protocol.execution.coder_timeout_seconds, source: 'protocol' };
}
