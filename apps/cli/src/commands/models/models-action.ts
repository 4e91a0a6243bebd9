import { listCatalog, priceCatalogInfo } from '@snodo/llm';
import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { formatCount } from '../../output/format.js';
import { formatTable } from '../../output/table.js';

/** The flags of `snodo models`. */
export interface ModelsFlags {
  readonly provider?: string | undefined;
  readonly search?: string | undefined;
  readonly json?: boolean | undefined;
}

/** `$3.00`; prices under a cent keep their precision. */
function price(perMillion: number): string {
  return perMillion >= 0.01 || perMillion === 0
    ? `$${perMillion.toFixed(2)}`
    : `$${perMillion.toPrecision(2)}`;
}

/**
 * `snodo models [--provider x]`: every model of the committed catalog with its prices per million tokens
 * (input, output, cache read, cache write) and context window. Prices can be overridden in config
 * (`prices:`); this lists the catalog itself.
 */
export async function modelsAction(context: CliContext, flags: ModelsFlags): Promise<number> {
  const info = priceCatalogInfo();
  const all = listCatalog();
  const search = flags.search?.toLowerCase();
  const models = all.filter(
    (entry) =>
      (flags.provider === undefined || entry.provider === flags.provider) &&
      (search === undefined || entry.model.toLowerCase().includes(search)),
  );
  if (
    flags.provider !== undefined &&
    models.length === 0 &&
    !all.some((entry) => entry.provider === flags.provider)
  ) {
    const providers = [...new Set(all.map((entry) => entry.provider))].sort();
    throw new CliError('CLI_USAGE', {
      message: `The catalog has no provider "${flags.provider}". It has: ${providers.join(', ')}.`,
      fix: 'snodo models   (every provider), or snodo models --search <text>',
    });
  }
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify({ catalog: info, models }, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  const rows = [
    ['model', 'input', 'output', 'cache read', 'cache write', 'context'],
    ...models.map((entry) => [
      entry.model,
      price(entry.price.input),
      price(entry.price.output),
      price(entry.price.cacheRead),
      price(entry.price.cacheWrite),
      entry.contextWindow === null ? '-' : formatCount(entry.contextWindow),
    ]),
  ];
  context.stdout.write(`${formatTable(rows, { header: out.dim })}\n`);
  context.stdout.write(
    `${out.dim(
      `${models.length} of ${info.modelCount} models, USD per million tokens. Catalog of ${info.generatedAt} from ${info.source}; ${info.attribution}`,
    )}\n`,
  );
  return EXIT_CODES.done;
}
