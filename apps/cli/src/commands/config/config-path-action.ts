import { configFilePath, resolveSnodoHome } from '@snodo/core/paths';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';

/**
 * `snodo config path`: where the config file is. The environment alone decides it, so nothing is read and
 * neither yaml nor the config schema is loaded: scripts call this often.
 */
export function configPathAction(context: CliContext): number {
  const home = resolveSnodoHome({ env: context.env, homedir: context.homeDirectory });
  context.stdout.write(`${configFilePath(home)}\n`);
  return EXIT_CODES.done;
}
