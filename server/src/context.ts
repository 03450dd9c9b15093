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
import { transact, type Work } from './db/unit-of-work';
import type { Bus } from './live/bus';
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
  mailer: Mailer;
  log: FastifyBaseLogger;
  now(): Date;
  /** A transaction whose live events are published after it commits. */
  transact<T>(fn: (work: Work) => Promise<T>): Promise<T>;
}

export function makeContext(parts: Omit<AppContext, 'transact'>): AppContext {
  const deps = { db: parts.db, bus: parts.bus, onPublishError: (err: unknown) => parts.log.error({ err }, 'publish') };
  return { ...parts, transact: (fn) => transact(deps, fn) };
}
