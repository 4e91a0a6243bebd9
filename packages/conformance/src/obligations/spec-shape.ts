import { isCoderAdapterV1 } from '@snodo/coder-sdk';
import { defineObligation } from './define-obligation.js';
import { describeError, type ObligationScope } from './obligation-scope.js';

const kebabCase = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const environmentVariable = /^[A-Za-z_][A-Za-z0-9_]*$/;
const capabilityFlags = ['supportsUsage', 'supportsAbort', 'supportsResume', 'supportsStreamingEvents'];
const credentialSources = new Set(['environment', 'config', 'cli-login', 'not-needed', 'missing']);

/** The adapter is a well-formed `coder-v1` object and reports itself ready when it is. */
export const specShape = defineObligation('spec-shape', async (scope: ObligationScope) => {
  const { adapter, fixture } = scope;
  scope.check(isCoderAdapterV1(adapter), () => {
    const loose = adapter as unknown as Record<string, unknown>;
    return (
      'the adapter is not a coder-v1 object (isCoderAdapterV1 is false): ' +
      `specificationVersion=${JSON.stringify(loose.specificationVersion)}, id=${JSON.stringify(loose.id)}, ` +
      `kind=${JSON.stringify(loose.kind)}, doRun is ${typeof loose.doRun}, ` +
      `checkAvailability is ${typeof loose.checkAvailability}.`
    );
  });
  scope.check(kebabCase.test(adapter.id), `id "${adapter.id}" is not kebab case (the --coder name).`);
  scope.check(adapter.displayName.trim() !== '', 'displayName is empty.');
  scope.check(
    adapter.installHint.trim() !== '',
    'installHint is empty: users are told nothing on a missing install.',
  );
  scope.check(
    adapter.modelPrefix === undefined ||
      (adapter.modelPrefix.length > 1 && adapter.modelPrefix.endsWith('/')),
    `modelPrefix "${adapter.modelPrefix}" must end with "/" (like "agy/") or be undefined.`,
  );
  const { credentials } = adapter;
  for (const variable of credentials.envVars) {
    scope.check(
      typeof variable === 'string' && environmentVariable.test(variable),
      `credentials.envVars has ${JSON.stringify(variable)}, which is not an environment variable name.`,
    );
  }
  scope.check(
    credentials.configKey === undefined || typeof credentials.configKey === 'string',
    'credentials.configKey is not a string.',
  );
  scope.check(
    credentials.optional === undefined || typeof credentials.optional === 'boolean',
    'credentials.optional is not a boolean.',
  );
  for (const flag of capabilityFlags) {
    const value = (adapter as unknown as Record<string, unknown>)[flag];
    scope.check(
      value === undefined || typeof value === 'boolean',
      `${flag} is ${typeof value}, not a boolean.`,
    );
  }
  scope.check(
    fixture.kind === undefined || fixture.kind === adapter.kind,
    `the fixture expects kind "${fixture.kind}" but the adapter declares "${adapter.kind}".`,
  );

  const inPlace = adapter.kind === 'in-place';
  await scope.withRun({ scenario: inPlace ? {} : undefined, configureBinary: inPlace }, async (run) => {
    let availability: Awaited<ReturnType<typeof adapter.checkAvailability>>;
    try {
      availability = await adapter.checkAvailability(run.availabilityOptions());
    } catch (error) {
      scope.fail(
        `checkAvailability threw ${describeError(error)}; it must report problems, not throw.`,
        error,
      );
    }
    scope.check(
      availability !== null && typeof availability === 'object',
      'checkAvailability resolved with no object.',
    );
    scope.check(typeof availability.ready === 'boolean', 'availability.ready is not a boolean.');
    scope.check(typeof availability.installed === 'boolean', 'availability.installed is not a boolean.');
    scope.check(
      credentialSources.has(availability.credentials),
      `availability.credentials is ${JSON.stringify(availability.credentials)}, not one of ${[...credentialSources].join(', ')}.`,
    );
    scope.check(
      availability.ready,
      `checkAvailability says not ready with the fake CLI installed${inPlace ? ` (printing version "${scope.resolved.versionOutput.trim()}")` : ''} and the key set: ` +
        `${availability.reason ?? 'no reason given'}${availability.fix === undefined ? '' : ` (fix: ${availability.fix})`}.`,
    );
  });
});
