import type { RunEvent } from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { firstLine, formatCount, formatDuration, outcomeWords } from './format.js';
import type { OutputStream } from './palette.js';
import { severityText } from './run-summary.js';

/** Renders a run's events on stderr while it runs. */
export interface ProgressRenderer {
  /** Shows one event. */
  handle(event: RunEvent): void;
  /** A line from the CLI itself ("cancelling…"). */
  note(message: string): void;
  /** Clears the live line and stops the timer; safe to call more than once. */
  stop(): void;
}

/** `execute (attempt 1, Mock coder)`: a stage with what it is about to do. */
export function stageLabel(event: { stage: string; attempt?: number; detail?: string }): string {
  const parts: string[] = [];
  if (event.attempt !== undefined) parts.push(`attempt ${event.attempt}`);
  if (event.detail !== undefined) parts.push(event.detail);
  return parts.length === 0 ? event.stage : `${event.stage} (${parts.join(', ')})`;
}

const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\x1b[2K';

/**
 * The terminal renderer: one live line — a spinner, the stage, the stage's own time (then the job's) and the
 * tokens so far — redrawn in place, with finished stages, verdicts and notes printed above it as they happen.
 */
class SpinnerProgress implements ProgressRenderer {
  private frame = 0;
  private stageText = 'starting';
  private tokens = 0;
  private readonly startedAt: number;
  /** When the stage on the live line started: the line shows that stage's own time, then the job's. */
  private stageStartedAt: number;
  /** The label each running stage started with: `stage-end` does not repeat the detail. */
  private readonly labels = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: OutputStream & { columns?: number },
    private readonly context: CliContext,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
    this.stageStartedAt = this.startedAt;
    this.timer = setInterval(() => this.draw(), 80);
    // The run keeps the process alive; the spinner alone must not.
    this.timer.unref();
    this.draw();
  }

  handle(event: RunEvent): void {
    const palette = this.context.err;
    switch (event.type) {
      case 'job-start':
        this.print(palette.dim(`snodo ${event.jobId}: ${firstLine(event.task)}`));
        break;
      case 'stage-start':
        this.stageText = stageLabel(event);
        this.stageStartedAt = this.now();
        this.labels.set(`${event.stage}#${event.attempt ?? 0}`, this.stageText);
        break;
      case 'stage-end': {
        const key = `${event.stage}#${event.attempt ?? 0}`;
        const label = this.labels.get(key) ?? stageLabel(event);
        this.labels.delete(key);
        this.stageText = 'working';
        this.stageStartedAt = this.now();
        this.print(`${palette.dim('•')} ${label} ${palette.dim(formatDuration(event.durationMs))}`);
        break;
      }
      case 'gate-verdict':
        this.print(
          `  gate ${event.gateId}: ${severityText(event.severity, event.error, palette)}${palette.dim(
            ` (${event.phase.replace('_', '-')}, ${formatDuration(event.durationMs)})`,
          )}`,
        );
        break;
      case 'usage':
        this.tokens = event.totalTokens;
        break;
      case 'coder-progress':
        this.print(palette.dim(`  coder: ${event.message}`));
        break;
      case 'coder-output':
        if (this.context.verbose) this.print(palette.dim(`  ${event.text.trimEnd()}`));
        break;
      case 'job-note':
        this.print(
          event.level === 'warn' ? palette.yellow(`warning: ${event.message}`) : `note: ${event.message}`,
        );
        break;
      case 'job-end':
        this.stop();
        break;
    }
  }

  note(message: string): void {
    this.print(this.context.err.yellow(message));
  }

  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write(CLEAR_LINE);
  }

  private print(line: string): void {
    this.stream.write(`${CLEAR_LINE}${line}\n`);
    if (this.timer !== undefined) this.draw();
  }

  private draw(): void {
    const palette = this.context.err;
    this.frame = (this.frame + 1) % SPINNER_FRAMES.length;
    const now = this.now();
    const stage = formatDuration(now - this.stageStartedAt);
    const job = formatDuration(now - this.startedAt);
    const text = `${SPINNER_FRAMES[this.frame]} ${this.stageText} · ${stage} (job ${job}) · ${formatCount(this.tokens)} tokens`;
    // A line wider than the terminal wraps, and `\r` would then redraw only its last row.
    const width = (this.stream.columns ?? 80) - 1;
    const shown = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.stream.write(`${CLEAR_LINE}${palette.cyan(shown)}`);
  }
}

/** The non-terminal renderer: one plain line per event worth a line (each finished stage with its time), for logs and CI. */
class PlainProgress implements ProgressRenderer {
  private tokens = 0;

  constructor(
    private readonly stream: OutputStream,
    private readonly context: CliContext,
  ) {}

  handle(event: RunEvent): void {
    switch (event.type) {
      case 'job-start':
        this.line(`job ${event.jobId}: ${firstLine(event.task)}`);
        break;
      case 'stage-start':
        this.line(`stage ${stageLabel(event)}…`);
        break;
      case 'gate-verdict':
        this.line(`gate ${event.gateId}: ${event.error ? 'error' : event.severity}`);
        break;
      case 'usage':
        this.tokens = event.totalTokens;
        break;
      case 'coder-progress':
        this.line(`coder: ${event.message}`);
        break;
      case 'coder-output':
        if (this.context.verbose) this.line(`coder ${event.stream}: ${event.text.trimEnd()}`);
        break;
      case 'job-note':
        this.line(`${event.level === 'warn' ? 'warning' : 'note'}: ${event.message}`);
        break;
      case 'job-end': {
        const { result } = event;
        const words = outcomeWords(result.status, result.outcome, {
          baseRef: result.baseRef,
          branch: result.branch,
        });
        this.line(
          `job ${event.jobId} ended: ${words} (${formatDuration(result.durationMs)}, ${formatCount(this.tokens)} tokens)`,
        );
        break;
      }
      case 'stage-end':
        // Logs and CI see where the time went: each finished stage with its own duration.
        this.line(`stage ${stageLabel(event)} done in ${formatDuration(event.durationMs)}`);
        break;
    }
  }

  note(message: string): void {
    this.line(message);
  }

  stop(): void {}

  private line(text: string): void {
    this.stream.write(`[snodo] ${text}\n`);
  }
}

/**
 * The progress renderer for stderr: a live spinner on a terminal, plain lines otherwise (a pipe, a file,
 * CI). `TERM=dumb` counts as not a terminal, since it cannot redraw a line.
 */
export function createProgressRenderer(
  context: CliContext,
  options: { readonly now?: () => number } = {},
): ProgressRenderer {
  const stream = context.stderr;
  if (stream.isTTY === true && context.env.TERM !== 'dumb') {
    return new SpinnerProgress(stream, context, options.now ?? Date.now);
  }
  return new PlainProgress(stream, context);
}
