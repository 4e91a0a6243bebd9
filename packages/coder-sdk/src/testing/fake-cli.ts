/**
 * Test support (not exported, not built): throwaway executables that stand in for a coding CLI. Each is a
 * small CommonJS node script; `--version` prints a version, anything else runs the body the test wrote.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Helpers every fake CLI body can use: `fs`, `path`, `childProcess`, `args` (argv after the program),
 * `git(...args)` in the current directory, and `commitAs(message)` which stages everything and commits as
 * the CLI would, with its own identity.
 */
const prelude = `
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');
const args = process.argv.slice(2);
const git = (...gitArgs) => childProcess.execFileSync('git', gitArgs, { encoding: 'utf8' });
const commitAs = (message) => {
  git('add', '-A');
  git('-c', 'user.name=Claude', '-c', 'user.email=noreply@anthropic.com', 'commit', '-q', '-m', message);
};
`;

/** Writes `<directory>/<name>` (mode 0755) and returns its path. */
export function writeFakeCli(
  directory: string,
  name: string,
  body: string,
  options: { version?: string } = {},
): string {
  const filePath = path.join(directory, name);
  const version = JSON.stringify(options.version ?? '1.2.3');
  writeFileSync(
    filePath,
    `#!/usr/bin/env node\n'use strict';\n${prelude}\n` +
      `if (args[0] === '--version') { process.stdout.write('fake-coder ' + ${version} + ' (test double)\\n'); process.exit(0); }\n` +
      `${body}\n`,
  );
  chmodSync(filePath, 0o755);
  return filePath;
}
