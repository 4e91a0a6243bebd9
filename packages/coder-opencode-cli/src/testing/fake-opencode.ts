/**
 * Test support (not exported, not built): a stand-in `opencode` that answers `--version`, records what it
 * was run with (argv, environment, whether its XDG directories existed, the instructions it could read
 * through its configuration) and then follows a plan: write a file, print lines, fail, or hang.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkspace } from '@snodo/conformance/testing';

/** What the fake does on a run. */
export interface FakeOpencodePlan {
  readonly version?: string;
  readonly writeFile?: { readonly path: string; readonly content: string };
  readonly stdout?: readonly string[];
  readonly stderr?: string;
  readonly exitCode?: number;
  /** Keep running after printing, until killed. */
  readonly hang?: boolean;
}

/** What the fake saw on its last run. */
export interface FakeOpencodeRecord {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly config: Record<string, unknown> | null;
  readonly xdgDataExisted: boolean;
  /** The text of the first `instructions` entry of the configuration, when it could read it. */
  readonly instructions: string | null;
}

/** Writes the fake as `opencode` into the workspace's bin directory. */
export function installFakeOpencode(
  workspace: TestWorkspace,
  plan: FakeOpencodePlan,
): { readonly path: string; readRecord(): FakeOpencodeRecord } {
  const planPath = path.join(workspace.root, 'fake-opencode-plan.json');
  const recordPath = path.join(workspace.root, 'fake-opencode-record.json');
  writeFileSync(planPath, JSON.stringify(plan));
  const executable = workspace.writeExecutable(
    'opencode',
    `(async () => {
  const fs = await import('node:fs');
  const plan = JSON.parse(fs.readFileSync(${JSON.stringify(planPath)}, 'utf8'));
  const args = process.argv.slice(2);
  if (args.length === 1 && args[0] === '--version') { process.stdout.write((plan.version ?? '1.18.33') + '\\n'); return; }
  const config = process.env.OPENCODE_CONFIG_CONTENT ? JSON.parse(process.env.OPENCODE_CONFIG_CONTENT) : null;
  const first = config?.instructions?.[0];
  const instructions = first && fs.existsSync(first) ? fs.readFileSync(first, 'utf8') : null;
  const xdgDataExisted = Boolean(process.env.XDG_DATA_HOME && fs.existsSync(process.env.XDG_DATA_HOME));
  fs.writeFileSync(${JSON.stringify(recordPath)}, JSON.stringify({ argv: args, env: process.env, config, xdgDataExisted, instructions }));
  if (plan.writeFile) fs.writeFileSync(plan.writeFile.path, plan.writeFile.content);
  for (const line of plan.stdout ?? []) process.stdout.write(line + '\\n');
  if (plan.stderr) process.stderr.write(plan.stderr);
  if (plan.hang) { setInterval(() => {}, 1 << 30); return; }
  process.exitCode = plan.exitCode ?? 0;
})();
`,
  );
  return {
    path: executable,
    readRecord: () => JSON.parse(readFileSync(recordPath, 'utf8')) as FakeOpencodeRecord,
  };
}
