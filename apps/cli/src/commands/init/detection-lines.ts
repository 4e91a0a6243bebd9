import type { ProjectCommands } from '@snodo/core';

/** An argv as people type it. */
function commandText(argv: readonly string[]): string {
  return argv.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
}

/**
 * What `snodo init` tells the user it detected and wrote: the test command and the workspace setup, each
 * with the file that decided it, or what a run will do without one ("no tests ran", nothing installed).
 */
export function detectionLines(detected: ProjectCommands): string[] {
  const lines: string[] = [];
  if (detected.test !== undefined) {
    lines.push(`  tests: ${commandText(detected.test.command)}   (detected from ${detected.test.source})`);
  } else {
    const why = detected.testNotes.length > 0 ? ` (${detected.testNotes.join('; ')})` : '';
    lines.push(
      `  tests: none found${why}; the protocol has no tests gate, so runs will report "no tests ran".`,
      '         Add one under validators when the project has tests.',
    );
  }
  if (detected.setup !== undefined) {
    const source = detected.setup.source.replace(/^(lockfile|manifest) /, '');
    lines.push(
      `  setup: ${commandText(detected.setup.command)}   (detected from ${source}; runs in each job's workspace before the coder)`,
    );
  } else {
    lines.push('  setup: nothing to install (no lockfile found); execution.setup is auto');
  }
  return lines;
}
