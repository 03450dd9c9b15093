import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config';
import type { Database, Db } from './db/connection';
import type { ReadRouting } from './db/read-routing';
import { transactCall, type OneCaller } from './db/one-call';
import { transact, type Work, type WorkDeps } from './db/unit-of-work';
import type { Bus, BusListener } from './live/bus';
import type { LiveDelivery, LivePresence, LiveSnapshots } from './live/hub';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';

/** The Fastify instance every module registers its routes on, typed from the route schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What a module needs from the running server; built once in app.ts and passed in explicitly. */
export interface AppContext {
  config: Config;
  database: Database;
  /** The primary: writes, and reads that must see the latest write. */
  db: Db;
  /** Where reads go when a replica is configured: `reads.lagTolerant()` for the public, lag-tolerant ones. */
  reads: ReadRouting;
  /** Every live event, from every instance, to listen to; events are raised only through `transact`. */
  bus: BusListener;
  /** Where a module registers the snapshots of its own live channels, and learns who follows one on this instance. */
  live: LiveSnapshots & LivePresence;
  mailer: Mailer;
  /** Where image files live: local disk or the S3 bucket, as configured (storage/open-storage.ts). */
  storage: Storage;
  log: FastifyBaseLogger;
  now(): Date;
  /** Where this instance is in its life: draining once it was told to stop (docs/scaling.md, "Load balancer"). */
  lifecycle: Lifecycle;
  /** A transaction whose live events are handed over after it commits: the one way a live event leaves a module. */
  transact<T>(fn: (work: Work) => Promise<T>): Promise<T>;
  /** A transaction whose whole work is one statement of the database, in one round trip (db/one-call.ts). */
  transactCall: OneCaller['transactCall'];
}

export interface Lifecycle {
  /** Told to stop: the health check answers 503 so the balancer sends nothing new, and everything else is served. */
  draining: boolean;
}

/** What app.ts holds: the whole bus, and the hub that also takes this instance's own events. */
export interface ContextParts extends Omit<AppContext, 'transact' | 'transactCall' | 'bus' | 'live'> {
  bus: Bus;
  live: AppContext['live'] & LiveDelivery;
}

/** The one place a unit of work's dependencies are put together. */
export function makeContext(parts: ContextParts): AppContext {
  const deps: WorkDeps = {
    db: parts.db,
    bus: parts.bus,
    hub: parts.live,
    // Redis away: the bus announces a resync once it can publish again, so the event's loss is made good then.
    onPublishError: (err, event) =>
      parts.log.warn({ reason: (err as Error).message, ch: event.ch, t: event.t }, 'live event not published yet'),
  };
  return { ...parts, transact: (fn) => transact(deps, fn), transactCall: (s, then) => transactCall(deps, s, then) };
}
