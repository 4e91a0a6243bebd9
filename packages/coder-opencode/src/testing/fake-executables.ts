/**
 * Test support (not exported, not built): fake `opencode` and `docker` executables that start the fake
 * OpenCode server as a real separate process, so the host and docker runtimes are exercised end to end:
 * spawning, reading the address, process groups, `docker run/port/logs/rm`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FakeOpencodeScenario } from './fake-opencode-scenario.js';

const require = createRequire(import.meta.url);
const mainPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-opencode-main.ts');
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;

/** The argv that runs the fake OpenCode program with `scenarioPath`. */
export function fakeOpencodeCommand(scenarioPath: string): string[] {
  return [process.execPath, '--import', tsxLoader, mainPath, scenarioPath];
}

function quote(text: string): string {
  if (text.includes("'")) throw new Error(`fake executables: a path with a quote is not supported: ${text}`);
  return `'${text}'`;
}

/** Writes `<directory>/<name>.scenario.json`. */
export function writeScenario(directory: string, name: string, scenario: FakeOpencodeScenario): string {
  const scenarioPath = path.join(directory, `${name}.scenario.json`);
  writeFileSync(scenarioPath, JSON.stringify(scenario, null, 2));
  return scenarioPath;
}

/** Writes a fake `opencode` executable into `directory`; returns its path. */
export function writeFakeOpencode(
  directory: string,
  scenario: FakeOpencodeScenario,
  name = 'opencode',
): string {
  const scenarioPath = writeScenario(directory, name, scenario);
  const executable = path.join(directory, name);
  writeFileSync(
    executable,
    `#!/bin/sh\nexec ${fakeOpencodeCommand(scenarioPath).map(quote).join(' ')} "$@"\n`,
  );
  chmodSync(executable, 0o755);
  return executable;
}

/** How the fake docker misbehaves. */
export interface FakeDockerOptions {
  /** `docker version` fails as it does when the engine is not running. */
  readonly engineDown?: boolean;
  /** `docker run` fails as it does for an image that cannot be pulled. */
  readonly runFails?: boolean;
}

/** One call of the fake docker, as recorded. */
export interface FakeDockerCall {
  readonly argv: string[];
  /** The names of the variables in the docker CLI's environment. */
  readonly envNames: string[];
}

/** A fake docker on disk and what it recorded. */
export interface FakeDocker {
  readonly path: string;
  /** Every call, in order. */
  calls(): FakeDockerCall[];
  /** The containers it started: name → `{ pid, url, removed, env }`. */
  containers(): Record<string, { pid: number; url: string; removed: boolean; env: Record<string, string> }>;
}

const dockerProgram = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');
const args = process.argv.slice(2);
const statePath = path.join(settings.state, 'containers.json');
const readState = () => (fs.existsSync(statePath) ? JSON.parse(fs.readFileSync(statePath, 'utf8')) : {});
const writeState = (state) => fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
fs.appendFileSync(path.join(settings.state, 'calls.jsonl'), JSON.stringify({ argv: args, envNames: Object.keys(process.env).sort() }) + '\n');
const find = (key) => Object.entries(readState()).find(([name, value]) => name === key || value.id === key);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

if (args[0] === 'version') {
  if (settings.engineDown) {
    process.stderr.write('Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n');
    process.exit(1);
  }
  process.stdout.write('27.3.1\n');
} else if (args[0] === 'run') {
  if (settings.runFails) {
    process.stderr.write("docker: Error response from daemon: pull access denied for missing/image, repository does not exist.\n");
    process.exit(125);
  }
  const env = { PATH: process.env.PATH };
  let name = 'fake-container';
  let workdir = process.cwd();
  let index = 1;
  const valued = new Set(['--name', '--label', '--publish', '--volume', '--workdir', '--user', '--env', '--entrypoint']);
  while (index < args.length && args[index].startsWith('-')) {
    const flag = args[index];
    const value = valued.has(flag) ? args[index + 1] : undefined;
    if (flag === '--name') name = value;
    if (flag === '--workdir') workdir = value;
    if (flag === '--env') {
      const equals = value.indexOf('=');
      if (equals >= 0) env[value.slice(0, equals)] = value.slice(equals + 1);
      else if (process.env[value] !== undefined) env[value] = process.env[value];
    }
    index += valued.has(flag) ? 2 : 1;
  }
  const log = path.join(settings.state, name + '.log');
  const output = fs.openSync(log, 'a');
  const server = childProcess.spawn(settings.command[0], [...settings.command.slice(1), ...args.slice(index + 1)], {
    cwd: workdir, env, detached: true, stdio: ['ignore', output, output],
  });
  server.unref();
  let url;
  for (let waited = 0; waited < 30000 && url === undefined; waited += 50) {
    sleep(50);
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(fs.readFileSync(log, 'utf8'));
    if (match) url = match[1];
  }
  if (url === undefined) {
    process.stderr.write('fake docker: the server did not start\n');
    process.exit(1);
  }
  const id = require('node:crypto').randomBytes(32).toString('hex');
  writeState({ ...readState(), [name]: { id, pid: server.pid, url, removed: false, env } });
  process.stdout.write(id + '\n');
} else if (args[0] === 'port') {
  const found = find(args[1]);
  if (!found || found[1].removed) {
    process.stderr.write('Error: No such container: ' + args[1] + '\n');
    process.exit(1);
  }
  process.stdout.write(found[1].url.replace('http://', '') + '\n');
} else if (args[0] === 'logs') {
  const found = find(args[args.length - 1]);
  if (!found) process.exit(1);
  process.stdout.write(fs.readFileSync(path.join(settings.state, found[0] + '.log'), 'utf8'));
} else if (args[0] === 'rm') {
  const key = args[args.length - 1];
  const found = find(key);
  if (!found) {
    process.stderr.write('Error: No such container: ' + key + '\n');
    process.exit(1);
  }
  try { process.kill(-found[1].pid, 'SIGKILL'); } catch {}
  writeState({ ...readState(), [found[0]]: { ...found[1], removed: true } });
  process.stdout.write(key + '\n');
} else {
  process.stderr.write('fake docker: unsupported command ' + JSON.stringify(args) + '\n');
  process.exit(2);
}
`;

/** Writes a fake `docker` into `directory` whose containers run the fake server with `scenario`. */
export function writeFakeDocker(
  directory: string,
  scenario: FakeOpencodeScenario,
  options: FakeDockerOptions = {},
): FakeDocker {
  const scenarioPath = writeScenario(directory, 'docker', scenario);
  const state = path.join(directory, 'docker.state');
  mkdirSync(state, { recursive: true });
  const settings = { state, command: fakeOpencodeCommand(scenarioPath), ...options };
  const executable = path.join(directory, 'docker');
  writeFileSync(
    executable,
    `#!${process.execPath}\nconst settings = ${JSON.stringify(settings)};\n${dockerProgram}`,
  );
  chmodSync(executable, 0o755);
  const callsPath = path.join(state, 'calls.jsonl');
  const statePath = path.join(state, 'containers.json');
  return {
    path: executable,
    calls: () =>
      existsSync(callsPath)
        ? readFileSync(callsPath, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as FakeDockerCall)
        : [],
    containers: () => (existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : {}),
  };
}
