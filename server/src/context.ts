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
import { transact, type Work, type WorkDeps } from './db/unit-of-work';
import type { Bus } from './live/bus';
import type { LivePresence, LiveSnapshots } from './live/hub';
import type { Mailer } from './mail/mailer';

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
  db: Db;
  bus: Bus;
  /** Where a module registers the snapshots of its own live channels, and learns who follows one on this instance. */
  live: LiveSnapshots & LivePresence;
  mailer: Mailer;
  log: FastifyBaseLogger;
  now(): Date;
  /** A transaction whose live events are published after it commits. */
  transact<T>(fn: (work: Work) => Promise<T>): Promise<T>;
}

/** The one place a unit of work's dependencies are put together. */
export function makeContext(parts: Omit<AppContext, 'transact'>): AppContext {
  const deps: WorkDeps = {
    db: parts.db,
    send: (event) => parts.bus.send(event),
    onPublishError: (err) => parts.log.error({ err }, 'publish'),
  };
  return { ...parts, transact: (fn) => transact(deps, fn) };
}
