import {
  type BackendFactory,
  type ConnectionOptions,
  createPostgresBackend,
  type Processor,
  Queue,
  QueueEvents,
  QueueEventsProducer,
  type RedisQueueBackend,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import { QueueUrlInvalidError } from './errors.js';

/** Which of BullMQ's backends a `queue.url` selects. */
export type QueueBackendKind = 'redis' | 'postgres';

/**
 * One `queue.url`, parsed once, and the BullMQ objects made from it. Every queue object snodo makes goes
 * through here, so the backend choice (Redis, or BullMQ's own PostgreSQL backend) is one decision.
 */
export interface QueueConnection {
  readonly url: string;
  readonly kind: QueueBackendKind;
  /** The URL with any password replaced by `***`, for messages. */
  readonly displayUrl: string;
  createQueue<Data = unknown, Result = unknown>(name: string): Queue<Data, Result>;
  createWorker<Data = unknown, Result = unknown>(
    name: string,
    processor: Processor<Data, Result>,
    options: Omit<WorkerOptions, 'connection'>,
  ): Worker<Data, Result>;
  createQueueEvents(name: string): QueueEvents;
  createEventsProducer(name: string): QueueEventsProducer;
}

/** Parses `queue.url`: `redis://` / `rediss://` for Redis, `postgres://` / `postgresql://` for PostgreSQL. */
export function openQueueConnection(url: string): QueueConnection {
  if (!URL.canParse(url)) throw new QueueUrlInvalidError({ url, problem: 'it is not a URL' });
  const parsed = new URL(url);
  const displayUrl = maskPassword(parsed);
  const protocol = parsed.protocol.replace(/:$/, '');
  if (protocol === 'redis' || protocol === 'rediss') {
    // NOTE: BullMQ workers need `maxRetriesPerRequest: null` (a blocking command must wait, not fail).
    const connection: ConnectionOptions = { url, maxRetriesPerRequest: null };
    return build(url, 'redis', displayUrl, connection, undefined);
  }
  if (protocol === 'postgres' || protocol === 'postgresql') {
    // BullMQ's own PostgreSQL backend; the class types are the Redis default's, the runtime is the backend's.
    const factory = createPostgresBackend as unknown as BackendFactory<RedisQueueBackend, ConnectionOptions>;
    // `migrate`: the first queue object on a fresh database creates BullMQ's schema (under BullMQ's advisory
    // lock, so workers starting at once do not race); without it every command fails until someone migrates.
    const connection = { connectionString: url, migrate: true } as unknown as ConnectionOptions;
    return build(url, 'postgres', displayUrl, connection, factory);
  }
  throw new QueueUrlInvalidError({ url: displayUrl, problem: `the scheme ${protocol}: is not supported` });
}

function build(
  url: string,
  kind: QueueBackendKind,
  displayUrl: string,
  connection: ConnectionOptions,
  factory: BackendFactory<RedisQueueBackend, ConnectionOptions> | undefined,
): QueueConnection {
  return {
    url,
    kind,
    displayUrl,
    createQueue: <Data, Result>(name: string) =>
      factory === undefined
        ? new Queue<Data, Result>(name, { connection })
        : new Queue<Data, Result>(name, { connection }, factory),
    createWorker: <Data, Result>(
      name: string,
      processor: Processor<Data, Result>,
      options: Omit<WorkerOptions, 'connection'>,
    ) =>
      factory === undefined
        ? new Worker<Data, Result>(name, processor, { ...options, connection })
        : new Worker<Data, Result>(name, processor, { ...options, connection }, factory),
    createQueueEvents: (name: string) =>
      factory === undefined
        ? new QueueEvents(name, { connection })
        : new QueueEvents(name, { connection }, factory),
    createEventsProducer: (name: string) =>
      factory === undefined
        ? new QueueEventsProducer(name, { connection })
        : new QueueEventsProducer(name, { connection }, factory),
  };
}

function maskPassword(url: URL): string {
  if (url.password === '') return url.toString();
  const copy = new URL(url.toString());
  copy.password = '***';
  return copy.toString();
}
