/**
 * Test support (not exported, not built): an example coder whose process handling is written by hand, to
 * show the suite catching the mistakes a hand-written spawn makes. Each flaw is off unless asked for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import {
  CoderAbortedError,
  CoderFailedError,
  CoderTimeoutError,
  type CoderV1Request,
  type InPlaceExecution,
  type InPlaceExecutionContext,
  type SubprocessCoderAdapterSettings,
  type SubprocessPreparation,
  stripModelPrefix,
} from '@snodo/coder-sdk';
import { ExampleCoder } from '../example/example-coder.js';

/** The mistakes this coder can make. */
export interface NaiveProcessFlaws {
  /** Spawn in snodo's process group and signal only the CLI's pid: grandchildren survive. */
  readonly killOnlyChild?: boolean;
  /** Give the CLI a stdin pipe and never close it. */
  readonly stdinPipe?: boolean;
  /** Keep the whole output in memory as text (as a spawn helper with buffering on does) and the transcript uncapped. */
  readonly bufferOutput?: boolean;
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Already gone.
  }
}

export class NaiveProcessCoder extends ExampleCoder {
  constructor(
    settings: SubprocessCoderAdapterSettings,
    private readonly flaws: NaiveProcessFlaws,
  ) {
    super(settings);
  }

  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    const argv = this.buildArgv(
      request.prompt,
      request.workspace,
      stripModelPrefix(request.model, this.modelPrefix),
    );
    const child: ChildProcess = spawn(context.preparation.binaryPath, argv.slice(1), {
      cwd: request.workspace,
      env: { ...request.env },
      detached: this.flaws.killOnlyChild !== true,
      stdio: [this.flaws.stdinPipe === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid ?? 0;
    const target = this.flaws.killOnlyChild === true ? pid : -pid;
    const kept: string[] = [];
    const cap =
      this.flaws.bufferOutput === true
        ? Number.POSITIVE_INFINITY
        : (this.settings.transcriptCapBytes ?? 1 << 20);
    let written = 0;
    let stdoutTail = '';
    let stderrTail = '';
    const record = (stream: 'stdout' | 'stderr', chunk: Buffer) => {
      if (this.flaws.bufferOutput === true) kept.push(chunk.toString('utf8'));
      if (stream === 'stdout') stdoutTail = (stdoutTail + chunk.toString('utf8')).slice(-65536);
      else stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4096);
      if (written < cap) {
        appendFileSync(request.transcriptPath, chunk.subarray(0, Math.max(cap - written, 0)));
        written += chunk.length;
        if (written >= cap) appendFileSync(request.transcriptPath, '\n[transcript truncated]\n');
      }
    };
    child.stdout?.on('data', (chunk: Buffer) => record('stdout', chunk));
    child.stderr?.on('data', (chunk: Buffer) => record('stderr', chunk));

    let stoppedBy: 'wall-clock' | 'abort' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: 'wall-clock' | 'abort') => {
      stoppedBy ??= reason;
      signal(target, 'SIGTERM');
      killTimer = setTimeout(() => signal(target, 'SIGKILL'), this.settings.killGraceMs ?? 5000);
    };
    const wallClock = setTimeout(() => stop('wall-clock'), request.timeoutMs);
    const onAbort = () => stop('abort');
    request.abortSignal.addEventListener('abort', onAbort, { once: true });
    const [code, exitSignal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (exitCode, name) => resolve([exitCode, name])),
    );
    clearTimeout(wallClock);
    clearTimeout(killTimer);
    request.abortSignal.removeEventListener('abort', onAbort);
    if (this.flaws.killOnlyChild !== true) signal(-pid, 'SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();

    const who = { coderId: this.id, displayName: this.displayName };
    if (stoppedBy === 'abort') throw new CoderAbortedError(who);
    if (stoppedBy === 'wall-clock')
      throw new CoderTimeoutError({ ...who, limit: 'wall-clock', timeoutMs: request.timeoutMs });
    if (code !== 0) {
      throw new CoderFailedError({
        ...who,
        exitCode: code ?? undefined,
        signal: exitSignal ?? undefined,
        stderrTail,
      });
    }
    const parsed = this.parseOutput({ stdout: stdoutTail, stderr: stderrTail, exitCode: 0 });
    return {
      usage: parsed.usage ?? null,
      cliVersion: context.preparation.version,
      exitCode: 0,
      transcriptPath: request.transcriptPath,
    };
  }
}
