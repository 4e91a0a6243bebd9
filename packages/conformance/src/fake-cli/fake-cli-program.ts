/** What the generated program needs to know; embedded in it as JSON. */
export interface FakeCliProgramSettings {
  /** Absolute path of the scenario JSON, read on every run. */
  readonly scenarioPath: string;
  /** Absolute path of the directory the CLI writes `record.json` and `pids` to. */
  readonly evidenceDirectory: string;
  /** What it prints for the version probe. */
  readonly version: string;
  /** The exact arguments of the version probe. */
  readonly versionArgs: readonly string[];
}

/**
 * The body of the fake CLI. It runs as CommonJS or as an ES module alike (only `process` and dynamic
 * `import()`), so it works whatever `package.json` sits above the directory it is written to.
 */
const body = String.raw`
(async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const childProcess = await import('node:child_process');
  const args = process.argv.slice(2);
  if (args.length === settings.versionArgs.length && args.every((arg, index) => arg === settings.versionArgs[index])) {
    process.stdout.write(settings.version.endsWith('\n') ? settings.version : settings.version + '\n');
    return;
  }
  const scenario = JSON.parse(fs.readFileSync(settings.scenarioPath, 'utf8'));
  if (scenario.ignoreSigterm) process.on('SIGTERM', () => {});
  const evidence = (name) => path.join(settings.evidenceDirectory, name);
  fs.appendFileSync(evidence('pids'), 'cli ' + process.pid + '\n');
  fs.appendFileSync(
    evidence('starts'),
    JSON.stringify({ pid: process.pid, sandboxMarker: process.env.SNODO_CONFORMANCE_SANDBOX_MARKER ?? null }) + '\n',
  );

  const readIfSmall = (filePath) => {
    try {
      const stat = fs.lstatSync(filePath);
      return stat.isFile() && stat.size <= 1048576 ? fs.readFileSync(filePath, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  };
  const search = (root, marker, depth) => {
    const found = [];
    const walk = (directory, relative, left) => {
      let entries = [];
      try {
        entries = fs.readdirSync(directory, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.name === '.git' || entry.name === 'node_modules') continue;
        const absolute = path.join(directory, entry.name);
        const shown = relative === '' ? entry.name : relative + '/' + entry.name;
        if (entry.isDirectory() && left > 0) walk(absolute, shown, left - 1);
        else if (entry.isFile() && (readIfSmall(absolute) ?? '').includes(marker)) found.push(shown);
      }
    };
    walk(root, '', depth);
    return found;
  };
  const findInstructions = (marker) => {
    const sightings = [];
    for (const found of search(process.cwd(), marker, 6)) sightings.push({ via: 'workspace', path: found });
    const home = process.env.HOME;
    if (home && path.resolve(home) !== path.resolve(process.cwd())) {
      for (const found of search(home, marker, 4)) sightings.push({ via: 'home', path: path.join(home, found) });
    }
    args.forEach((arg, index) => {
      if (arg.includes(marker)) {
        sightings.push({ via: 'argument', argumentIndex: index });
        return;
      }
      for (const candidate of [arg, arg.slice(arg.indexOf('=') + 1)]) {
        if (candidate === '') continue;
        const absolute = path.resolve(candidate);
        if ((readIfSmall(absolute) ?? '').includes(marker)) {
          sightings.push({ via: 'argument-file', path: absolute, argumentIndex: index });
          return;
        }
      }
    });
    return sightings;
  };

  const record = { argv: args, env: { ...process.env }, cwd: process.cwd(), pid: process.pid, finished: false };
  if (scenario.instructionsMarker) record.instructions = findInstructions(scenario.instructionsMarker);
  const writeRecord = () => {
    const temporary = evidence('record.json.' + process.pid);
    fs.writeFileSync(temporary, JSON.stringify(record, null, 2));
    fs.renameSync(temporary, evidence('record.json'));
  };
  writeRecord();

  if (scenario.readStdin) {
    let bytes = 0;
    for await (const chunk of process.stdin) bytes += chunk.length;
    record.stdinBytes = bytes;
    writeRecord();
  }
  let grandchild;
  if (scenario.spawnGrandchild) {
    grandchild = childProcess.spawn('sleep', ['300'], { stdio: ['ignore', 'inherit', 'inherit'] });
    grandchild.on('error', (error) => process.stderr.write('fake CLI: could not spawn sleep: ' + error.message + '\n'));
    if (grandchild.pid !== undefined) fs.appendFileSync(evidence('pids'), 'grandchild ' + grandchild.pid + '\n');
  }

  const git = (gitArgs, extraEnv) =>
    childProcess.execFileSync('git', gitArgs, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...extraEnv },
    });
  const write = async (stream, data) => {
    if (!stream.write(data)) await new Promise((resolve) => stream.once('drain', resolve));
  };
  for (const step of scenario.steps ?? []) {
    if (step.writeFile) {
      const target = path.resolve(step.writeFile.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, step.writeFile.content);
    } else if (step.deleteFile) {
      fs.rmSync(path.resolve(step.deleteFile.path), { force: true });
    } else if (step.commit) {
      const author = step.commit.author ?? { name: 'Fake CLI', email: 'fake-cli@conformance.invalid' };
      git(['add', '-A']);
      git(['commit', '-q', '-m', step.commit.message], {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
      });
    } else if (step.plantHook) {
      const directory =
        step.plantHook.directory ?? path.join(path.resolve(git(['rev-parse', '--git-common-dir']).trim()), 'hooks');
      fs.mkdirSync(directory, { recursive: true });
      fs.writeFileSync(path.join(directory, step.plantHook.name), step.plantHook.content, { mode: 0o755 });
    } else if (step.setHooksPath) {
      git(['config', 'core.hooksPath', step.setHooksPath]);
    } else if (step.stdout !== undefined) {
      await write(process.stdout, step.stdout);
    } else if (step.stderr !== undefined) {
      await write(process.stderr, step.stderr);
    } else if (step.printMegabytes) {
      const line = Buffer.alloc(1024, 'x');
      line[line.length - 1] = 10;
      const chunk = Buffer.concat(Array.from({ length: 64 }, () => line));
      let left = Math.round(step.printMegabytes * 1048576);
      while (left > 0) {
        const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= part.length;
        await write(process.stdout, part);
      }
    }
  }
  record.finished = true;
  writeRecord();

  if (scenario.hang) {
    setInterval(() => {}, 1 << 30);
    return;
  }
  if (grandchild) grandchild.unref();
  process.exitCode = scenario.exitCode ?? 0;
})().catch((error) => {
  process.stderr.write('fake CLI failed: ' + ((error && error.stack) || error) + '\n');
  process.exit(70);
});
`;

/** What ends a line in JavaScript (the launcher line must stay one `//` comment) or a shell word (NUL). */
const unsafeInLauncher = /[\n\r\u2028\u2029\0]/;

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The first two lines, read by `/bin/sh` and, as a string and a comment, by node. The shell answers the
 * version probe itself and hands every other run to node with `exec` (same pid, same signals). Why: a
 * coder probes the version on each run and node takes 150–250 ms of CPU to start, a third of the fake's
 * cost in the conformance suite. NOTE: dash exports `PWD` to what it runs, so it is unset again: core's
 * allow-list never passes one, and the record shows the environment the coder gave, not the launcher's.
 * A version or argument with a line break would end the comment, so then node answers the probe too.
 */
function launcher(settings: FakeCliProgramSettings): string {
  const version = settings.version.replace(/\n$/, '');
  const oneLine = ![version, ...settings.versionArgs].some((text) => unsafeInLauncher.test(text));
  const sameArguments = settings.versionArgs.map(
    (argument, index) => ` && [ "\${${index + 1}}" = ${shellQuote(argument)} ]`,
  );
  const probe = oneLine
    ? `if [ "$#" -eq ${settings.versionArgs.length} ]${sameArguments.join('')}; ` +
      `then printf '%s\\n' ${shellQuote(version)}; exit 0; fi; `
    : '';
  return `#!/bin/sh\n':' //; ${probe}exec /usr/bin/env -u PWD node "$0" "$@"\n`;
}

/** The complete text of a fake CLI executable with `settings` embedded. */
export function fakeCliProgram(settings: FakeCliProgramSettings): string {
  return (
    launcher(settings) +
    '// A fake coding CLI written by @snodo/conformance/fake-cli. What it does is in the scenario file.\n' +
    `const settings = ${JSON.stringify(settings)};\n` +
    body.trimStart()
  );
}
