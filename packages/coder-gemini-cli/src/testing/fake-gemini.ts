/**
 * Test support (not exported, not built): a stand-in `gemini` that answers `--version`, records what it
 * was run with (argv, environment, the settings file in its private home, the instructions it could read)
 * and then follows a plan: write a file, print lines, fail, or hang.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkspace } from '@snodo/conformance/testing';

/** What the fake does on a run. */
export interface FakeGeminiPlan {
  readonly version?: string;
  readonly writeFile?: { readonly path: string; readonly content: string };
  readonly stdout?: readonly string[];
  readonly stderr?: string;
  readonly exitCode?: number;
  /** Keep running after printing, until killed. */
  readonly hang?: boolean;
}

/** What the fake saw on its last run. */
export interface FakeGeminiRecord {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly settings: Record<string, unknown> | null;
  readonly instructions: string | null;
}

/** Writes the fake as `gemini` into the workspace's bin directory. */
export function installFakeGemini(
  workspace: TestWorkspace,
  plan: FakeGeminiPlan,
): { readonly path: string; readRecord(): FakeGeminiRecord } {
  const planPath = path.join(workspace.root, 'fake-gemini-plan.json');
  const recordPath = path.join(workspace.root, 'fake-gemini-record.json');
  writeFileSync(planPath, JSON.stringify(plan));
  const executable = workspace.writeExecutable(
    'gemini',
    `(async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const plan = JSON.parse(fs.readFileSync(${JSON.stringify(planPath)}, 'utf8'));
  const args = process.argv.slice(2);
  if (args.length === 1 && args[0] === '--version') { process.stdout.write((plan.version ?? '0.61.0') + '\\n'); return; }
  const home = process.env.GEMINI_CLI_HOME;
  const settingsFile = home ? path.join(home, '.gemini', 'settings.json') : undefined;
  const settings = settingsFile && fs.existsSync(settingsFile) ? JSON.parse(fs.readFileSync(settingsFile, 'utf8')) : null;
  const contextFile = settings?.context?.fileName?.[0];
  const instructions = contextFile && fs.existsSync(contextFile) ? fs.readFileSync(contextFile, 'utf8') : null;
  fs.writeFileSync(${JSON.stringify(recordPath)}, JSON.stringify({ argv: args, env: process.env, settings, instructions }));
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
    readRecord: () => JSON.parse(readFileSync(recordPath, 'utf8')) as FakeGeminiRecord,
  };
}
