#!/usr/bin/env node
// A fake `agy` (Google Antigravity CLI) for snodo's tests. agy is not on npm, so this script behaves as the
// CLI's documentation and changelog describe print mode, including the ways it punishes misuse:
// - `agy --version` prints the version (AGY_FAKE_VERSION, default 1.2.14);
// - the prompt is only ever the value of `-p` (or `--print`), which must be the last flag; stdin is never read;
// - enum flags (`--output-format`, `--model`, `--mode`) need `=`; space-separated they are refused;
// - without `--add-dir <dir>` files land in ~/.gemini/antigravity-cli/scratch/, not in the working directory;
// - without `--dangerously-skip-permissions` a file write needs approval nobody can give: status ERROR;
// - `--output-format=json` prints one envelope {status, response, conversation_id, num_turns,
//   duration_seconds, usage} at the end, indented; `text` (the default) prints only the response.
// What the run does comes from the JSON file named by FAKE_AGY_SCRIPT (optional):
//   { writeFile?: {path, content}, response?, status?, error?, usage?, exitCode?, stderr?, hangAfterOutput? }
// FAKE_AGY_RECORD, when set, names a file where the argv, working directory and the project rules it loaded
// (the Markdown files in <workspace>/.agents/rules/) are written.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const version = process.env.AGY_FAKE_VERSION ?? '1.2.14';
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${version}\n`);
  process.exit(0);
}

function refuse(message) {
  process.stderr.write(`agy: ${message}\n`);
  process.exit(2);
}

const enumFlags = new Set(['--output-format', '--model', '--mode']);
const valueFlags = new Set(['--add-dir', '--print-timeout', '--conversation', '--json-schema', '--log-file']);
const booleanFlags = new Set(['--dangerously-skip-permissions', '--continue']);
const options = { addDirs: [] };
let prompt;
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index];
  const [name, inline] =
    arg.startsWith('--') && arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
  if (name === '-p' || name === '--print') {
    const value = inline ?? args[index + 1];
    if (value === undefined) refuse('flag needs an argument: -p');
    if (index + (inline === undefined ? 2 : 1) !== args.length) {
      refuse('the prompt must be the value of -p, and -p the last flag');
    }
    prompt = value;
    break;
  }
  if (enumFlags.has(name)) {
    if (inline === undefined) refuse(`flag ${name} needs a value with "=" (${name}=<value>)`);
    options[name.slice(2)] = inline;
  } else if (valueFlags.has(name)) {
    const value = inline ?? args[index + 1];
    if (value === undefined) refuse(`flag needs an argument: ${name}`);
    if (inline === undefined) index += 1;
    if (name === '--add-dir') options.addDirs.push(value);
    else options[name.slice(2)] = value;
  } else if (booleanFlags.has(name)) {
    options[name.slice(2)] = true;
  } else {
    refuse(`unknown flag or argument: ${arg} (a prompt must be given with -p)`);
  }
}
if (prompt === undefined) refuse('no prompt: use -p "<prompt>" (agy never reads stdin in print mode)');
const format = options['output-format'] ?? 'text';
if (!['text', 'json', 'stream-json'].includes(format))
  refuse(`invalid value "${format}" for --output-format`);

if (process.env.FAKE_AGY_RECORD) {
  const rulesDirectory = path.join(options.addDirs[0] ?? process.cwd(), '.agents', 'rules');
  const rules = existsSync(rulesDirectory)
    ? readdirSync(rulesDirectory)
        .filter((name) => name.endsWith('.md'))
        .map((name) => readFileSync(path.join(rulesDirectory, name), 'utf8'))
    : [];
  const record = { argv: args, cwd: process.cwd(), prompt, options, rules };
  writeFileSync(process.env.FAKE_AGY_RECORD, JSON.stringify(record));
}
const script = process.env.FAKE_AGY_SCRIPT
  ? JSON.parse(readFileSync(process.env.FAKE_AGY_SCRIPT, 'utf8'))
  : {};
let status = script.status ?? 'SUCCESS';
let error = script.error;
if (script.writeFile && status === 'SUCCESS') {
  if (options['dangerously-skip-permissions'] !== true) {
    status = 'ERROR';
    error =
      'write_to_file needs approval, which print mode cannot ask for (use --dangerously-skip-permissions)';
  } else {
    const root = options.addDirs[0] ?? path.join(os.homedir(), '.gemini', 'antigravity-cli', 'scratch');
    const target = path.resolve(root, script.writeFile.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, script.writeFile.content);
  }
}
const response = script.response ?? (status === 'SUCCESS' ? 'Done.' : '');
if (format === 'json') {
  const envelope = {
    status,
    response,
    conversation_id: '3b4a1d20-3968-4ed2-90b3-00eea3060b02',
    num_turns: 2,
    duration_seconds: 4.2,
    usage: script.usage ?? {
      input_tokens: 1800,
      output_tokens: 120,
      thinking_tokens: 64,
      cache_read_tokens: 600,
      total_tokens: 2584,
    },
    ...(error === undefined ? {} : { error }),
  };
  process.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
} else if (format === 'text') {
  process.stdout.write(`${response}\n`);
}
if (script.stderr) process.stderr.write(script.stderr);
if (script.hangAfterOutput) setInterval(() => {}, 1 << 30);
else process.exitCode = script.exitCode ?? (status === 'SUCCESS' ? 0 : 1);
