import { existsSync } from 'node:fs';
import path from 'node:path';
import { describeCoderConformance } from '@snodo/conformance';
import { createOpencodeCoder } from './opencode-adapter.js';
import { writeFakeOpencode } from './testing/fake-executables.js';

/**
 * The Tier 1 suite, run against the host runtime. The suite writes a fake coding CLI that edits the
 * worktree, commits, hangs, floods stdout, reads stdin or fails as each obligation needs. A server coder
 * has no such CLI, so the fixture puts that fake CLI where OpenCode's agent would be: `configureBinary`
 * writes a fake `opencode` beside it whose `serve` is the fake OpenCode server, and each prompt runs the
 * suite's CLI in the session's directory (argv: `--model provider/model` when the prompt names a model,
 * then the prompt text; stdin and stdout the server's own). So every obligation runs through the real
 * path: snodo starts the server (its own process group, stdin closed, the coder's environment), passes
 * the worktree, prompt and model over HTTP, waits for idle, reads errors from `session.error`, and the
 * SDK base guards and commits.
 *
 * What the argv obligations prove here: the prompt and the model reach the server over HTTP unchanged
 * and without the `opencode/` namespace. What the process obligations prove: the server's process
 * group (the agent's tools run inside it) is killed on a timeout and on abort, and its output is capped.
 * `missing-credentials` is skipped by the kit itself: the coder declares no key (OpenCode reads its
 * provider keys from `coders.opencode.env` and its own config).
 */
describeCoderConformance(
  (options) =>
    createOpencodeCoder({
      killGraceMs: options.killGraceMs,
      transcriptCapBytes: options.transcriptCapBytes,
      pollIntervalMs: 100,
      startupTimeoutMs: 20_000,
    }),
  {
    kind: 'in-place',
    fakeCli: { versionOutput: '1.18.33' },
    model: 'mock/conformance-model',
    configureBinary: (binaryPath) => {
      // A missing CLI stays missing: the not-installed obligation checks exactly that.
      if (!existsSync(binaryPath)) return { binary: binaryPath };
      const server = writeFakeOpencode(
        path.dirname(binaryPath),
        { prompt: { kind: 'agent', command: [binaryPath] } },
        'opencode-server',
      );
      return { binary: server };
    },
    // The server takes about a second to start (a TypeScript program behind the fake `opencode`), and
    // the limits below run from the moment the run starts, server start-up included.
    timeouts: { hangTimeoutMs: 6000, stdinTimeoutMs: 10_000 },
  },
);
