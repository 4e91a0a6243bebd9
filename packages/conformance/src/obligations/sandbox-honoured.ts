import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CoderV1Sandbox } from '@snodo/coder-sdk';
import { writeRecordingSandbox } from '../conformance/recording-sandbox.js';
import { defineObligation } from './define-obligation.js';
import { type ObligationScope, showArgv } from './obligation-scope.js';

/** `true` when `argv` holds `sequence` as consecutive elements. */
function holds(argv: readonly string[], sequence: readonly string[]): boolean {
  for (let index = 0; index + sequence.length <= argv.length; index += 1) {
    if (sequence.every((element, offset) => argv[index + offset] === element)) return true;
  }
  return false;
}

/** The bubblewrap options a call must carry for `sandbox`, before its `--`. */
function expectedOptions(sandbox: CoderV1Sandbox): string[][] {
  const mounts = sandbox.mounts.map((mount) => {
    if (mount.type === 'hide') return ['--tmpfs', mount.path];
    const source = mount.source ?? mount.path;
    return mount.type === 'read-only' ? ['--ro-bind', source, mount.path] : ['--bind', source, mount.path];
  });
  return [
    ['--ro-bind', '/', '/'],
    ...mounts,
    ['--unshare-pid'],
    ['--die-with-parent'],
    ['--cap-drop', 'ALL'],
  ];
}

/**
 * An adapter that declares `supportsSandbox` starts every process of an attempt inside `request.sandbox`:
 * the request's sandbox is a recording wrapper, and every start of the CLI must carry the marker only that
 * wrapper sets, every call of the wrapper the mounts and isolation flags the sandbox asks for, and the
 * CLI the sandbox's private TMPDIR.
 */
export const sandboxHonoured = defineObligation('sandbox-honoured', async (scope: ObligationScope) => {
  const steps = [{ writeFile: { path: 'sandboxed.txt', content: 'written inside the sandbox\n' } }];
  await scope.withRun({ scenario: { steps: [...steps, ...scope.finalOutput()] } }, async (run) => {
    const wrapper = writeRecordingSandbox(path.join(run.root, 'sandbox'));
    const hidden = path.join(run.root, 'hidden-home');
    const tools = path.join(hidden, 'tools');
    const tmp = path.join(run.root, 'sandbox-tmp');
    for (const directory of [tools, tmp, run.stateDirectory]) mkdirSync(directory, { recursive: true });
    const sandbox: CoderV1Sandbox = {
      kind: 'bubblewrap',
      executable: wrapper.executable,
      mounts: [
        { type: 'hide', path: hidden },
        { type: 'read-only', path: tools },
        { type: 'read-write', path: run.workspace },
        { type: 'read-write', path: run.home },
        { type: 'read-write', path: run.stateDirectory },
        { type: 'read-write', path: tmp },
      ],
      network: true,
      environment: { HOME: run.home, TMPDIR: tmp },
    };

    const result = await scope.expectSuccess(scope.doRun(run, { sandbox }), 'a run with request.sandbox');

    const starts = run.fakeCli?.readStarts() ?? [];
    scope.check(
      starts.length > 0,
      'doRun resolved but the CLI never ran (no start recorded by the fake CLI).',
    );
    const outside = starts.filter((start) => start.sandboxMarker !== wrapper.marker);
    scope.check(
      outside.length === 0,
      () =>
        `${outside.length} of ${starts.length} start(s) of the CLI did not go through request.sandbox ` +
        `(pids ${outside.map((start) => start.pid).join(', ')}): the adapter started them itself, with the ` +
        "user's full powers.",
    );
    const calls = wrapper.calls();
    for (const call of calls) {
      const separator = call.indexOf('--');
      const options = separator === -1 ? call : call.slice(0, separator);
      scope.check(
        separator !== -1 && separator < call.length - 1,
        `the sandbox was called without "--" and a command: ${showArgv(call)}.`,
      );
      const missing = expectedOptions(sandbox).filter((sequence) => !holds(options, sequence));
      scope.check(
        missing.length === 0,
        () =>
          `the sandbox was called without ${missing.map((sequence) => sequence.join(' ')).join(', ')} ` +
          `(its argv: ${showArgv(options)}): the request's mounts or isolation did not reach it.`,
      );
      scope.check(
        !options.includes('--unshare-net'),
        'the sandbox was called with --unshare-net although request.sandbox.network is true: the coder could not reach its model.',
      );
    }
    const record = run.fakeCli?.readRecord();
    scope.check(
      record?.env.TMPDIR === tmp,
      `the CLI ran with TMPDIR ${JSON.stringify(record?.env.TMPDIR)}, not the sandbox's private ${tmp}.`,
    );
    scope.check(
      result.status === 'changed' && result.changedFiles.includes('sandboxed.txt'),
      `the change the CLI made inside the sandbox was not committed (status "${result.status}").`,
    );
  });
});
