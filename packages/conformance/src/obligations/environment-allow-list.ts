import { randomBytes } from 'node:crypto';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

/** Keys of other tools a developer's shell typically holds; the ones the coder does not own are planted. */
const otherProviderKeys = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GITHUB_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
];

/** Secrets in snodo's own environment never reach the CLI; the coder's own key does. */
export const environmentAllowList = defineObligation(
  'environment-allow-list',
  async (scope: ObligationScope) => {
    const own = new Set([...scope.adapter.credentials.envVars, ...Object.keys(scope.resolved.credentials)]);
    const canaries = new Map<string, string>();
    canaries.set('SNODO_CONFORMANCE_CANARY_SECRET', `canary-${randomBytes(8).toString('hex')}`);
    for (const name of otherProviderKeys) {
      if (!own.has(name))
        canaries.set(name, `canary-${name.toLowerCase()}-${randomBytes(8).toString('hex')}`);
    }
    const saved = [...canaries.keys()].map((name) => [name, process.env[name]] as const);
    // Planted where an adapter reading process.env would find them; core's filtered env never has them.
    for (const [name, value] of canaries) process.env[name] = value;
    try {
      await scope.withRun({ scenario: { steps: scope.finalOutput() } }, async (run) => {
        await scope.expectSuccess(scope.doRun(run), 'a run with canaries in process.env');
        const record = run.fakeCli?.readRecord();
        scope.check(
          record !== undefined,
          'doRun resolved but the CLI never ran (no record from the fake CLI).',
        );
        const seen = [
          ...Object.entries(record.env),
          ...record.argv.map((argument) => ['argv', argument] as const),
        ];
        for (const [canaryName, canaryValue] of canaries) {
          const leak = seen.find(([, value]) => value.includes(canaryValue));
          scope.check(
            leak === undefined,
            `the ${canaryName} planted in process.env reached the CLI (as ${leak?.[0]}); only request.env may.`,
          );
        }
        for (const [name, value] of Object.entries(scope.resolved.credentials)) {
          scope.check(
            Object.values(record.env).includes(value),
            `the coder's own key ${name} (in request.env) never reached the CLI's environment.`,
          );
        }
      });
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  },
);
