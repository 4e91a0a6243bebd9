import { ATTRIBUTION_LINE_PATTERNS } from '@snodo/coder-sdk';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

const cliIdentity = { name: 'Fake CLI', email: 'fake-cli@conformance.invalid' };

/** Attribution the CLI wrote into its own commit never reaches snodo's commit. */
export const attributionScrubbed = defineObligation(
  'attribution-scrubbed',
  async (scope: ObligationScope) => {
    const samples = scope.resolved.attributionSamples;
    const steps = [
      { writeFile: { path: 'src/greeting.txt', content: 'hello\n' } },
      { commit: { message: `Add a greeting\n\n${samples.join('\n')}\n`, author: cliIdentity } },
    ];
    await scope.withRun({ scenario: { steps: [...steps, ...scope.finalOutput()] } }, async (run) => {
      const result = await scope.expectSuccess(
        scope.doRun(run),
        'a run where the CLI commits with attribution',
      );
      scope.check(result.commit !== undefined, 'the run made no commit, so attribution cannot be checked.');
      const message = run.git(['log', '-1', '--format=%B', result.commit]);
      const lines = message.split('\n').map((line) => line.trim());
      for (const sample of samples) {
        scope.check(
          !lines.some((line) => line.toLowerCase() === sample.trim().toLowerCase()),
          `snodo's commit still says "${sample.trim()}".`,
        );
      }
      const attributed = lines.find((line) =>
        ATTRIBUTION_LINE_PATTERNS.some((pattern) => pattern.test(line)),
      );
      scope.check(attributed === undefined, `snodo's commit still has the attribution line "${attributed}".`);
      const [author, committer] = run
        .git(['log', '-1', '--format=%ae%n%ce', result.commit])
        .trim()
        .split('\n');
      scope.check(
        author !== cliIdentity.email && committer !== cliIdentity.email,
        `snodo's commit carries the CLI's identity <${cliIdentity.email}>.`,
      );
    });
  },
);
