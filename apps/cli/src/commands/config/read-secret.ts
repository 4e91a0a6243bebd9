import { fstatSync, readFileSync } from 'node:fs';
import { CliError } from '../../errors/cli-error.js';

/** The terminal `readSecretFromTerminal` reads from and prompts on. */
export interface SecretTerminal {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WritableStream;
}

const ENTER = new Set(['\r', '\n']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = new Set(['\u007f', '\b']);

/**
 * Prompts on the terminal and reads one line without echoing it: raw mode, so the key never appears on the
 * screen nor in the terminal's scrollback. Enter ends it, backspace deletes, Ctrl-C cancels (exit 130, like
 * any interrupt), Ctrl-D on an empty line ends it empty. The terminal's mode is restored in every case.
 */
export function readSecretFromTerminal(prompt: string, terminal: SecretTerminal): Promise<string> {
  const { input, output } = terminal;
  // Raw mode before the prompt: what is typed as soon as the prompt shows is never echoed.
  input.setRawMode(true);
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error === undefined) resolve(value);
      else reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      for (const character of chunk.toString('utf8')) {
        if (ENTER.has(character) || (character === CTRL_D && value === '')) return finish();
        if (character === CTRL_C) {
          return finish(new CliError('CLI_CANCELLED', { message: 'Cancelled: no key was stored.' }));
        }
        if (BACKSPACE.has(character)) value = value.slice(0, -1);
        else if (character >= ' ') value += character;
      }
    };
    input.resume();
    input.on('data', onData);
  });
}

/** Whether file descriptor 0 is open at all (`snodo … <&-` closes it). */
function stdinIsOpen(): boolean {
  try {
    fstatSync(0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The API key for `snodo config add <provider>`: the argument; else, on a terminal, a prompt that does not
 * echo; else what is piped in. Refused once, with the three ways to give it, when none gives a key.
 */
export async function readProviderKey(
  provider: string,
  argument: string | undefined,
  terminal: SecretTerminal = { input: process.stdin, output: process.stderr },
): Promise<string> {
  if (argument !== undefined && argument !== '-') return argument;
  let key = '';
  if (terminal.input.isTTY === true) {
    key = await readSecretFromTerminal(`API key for ${provider} (input hidden): `, terminal);
  } else if (stdinIsOpen()) {
    key = readFileSync(0, 'utf8');
  }
  key = key.trim();
  if (key !== '') return key;
  throw new CliError('CLI_USAGE', {
    message: `No API key for ${provider} was given.`,
    fix:
      `snodo config add ${provider}   (on a terminal: prompts without echo)   or   ` +
      `printf %s "$KEY" | snodo config add ${provider} -`,
  });
}
