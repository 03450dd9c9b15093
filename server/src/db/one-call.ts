import { sql } from 'drizzle-orm';
import { liveEvent } from '../../../common/live';
import type { LiveEvent } from '../../../common/live';
import { sqlRows, type Db } from './connection';
import { handOver, type Work, type WorkDeps } from './unit-of-work';

/** What a one-call transaction's answer is read with: the raising of live events, as a unit of work has it. */
export type Events = Pick<Work, 'emit'>;

/**
 * A transaction whose whole work is one statement of the database (a money call written as a function of the
 * database: docs/ARCHITECTURE.md, "Money"). On PostgreSQL its BEGIN, the statement and its
 * COMMIT travel together as one simple query, one round trip, and row locks the statement takes are held only while
 * the server runs it and commits. The statement is text with no parameters: every value in it is the caller's own
 * number, or a string written with `literal` below.
 *
 * The answer's rows are read by `then` once the transaction has committed; the live events it raises are handed
 * over as a unit of work's are (unit-of-work.ts). A refusal the statement answers (a short balance, say) must have
 * written nothing: its transaction commits all the same, and `then` throws the error the caller expects.
 */
export async function transactCall<R, T>(
  deps: WorkDeps,
  statement: string,
  then: (rows: R[], events: Events) => T,
): Promise<T> {
  const rows = await oneCall<R>(deps.db, statement);
  const raised: { event: LiveEvent; here: boolean }[] = [];
  const result = then(rows, {
    emit: (channel, topic, payload, ...[to]) => {
      raised.push({ event: liveEvent(channel, topic, payload, to), here: to?.kind === 'thisInstance' });
    },
  });
  handOver(deps, raised);
  return result;
}

/** What a command running one-call transactions needs; the app context is one (context.ts). */
export interface OneCaller {
  db: Db;
  transactCall<R, T>(statement: string, then: (rows: R[], events: Events) => T): Promise<T>;
}

/** A unit of work's dependencies as a OneCaller (benchmarks and tests, which have no app context). */
export const oneCaller = (deps: WorkDeps): OneCaller => ({
  db: deps.db,
  transactCall: (statement, then) => transactCall(deps, statement, then),
});

/** A pg pool, as node-postgres's drizzle keeps it: the one driver where a round trip costs anything. */
interface Pool {
  connect(): Promise<PoolClient>;
  totalCount: number;
}
interface PoolClient {
  query(text: string): Promise<{ rows: unknown[] } | { rows: unknown[] }[]>;
  release(err?: Error | boolean): void;
}

async function oneCall<R>(db: Db, statement: string): Promise<R[]> {
  const client = (db as unknown as { $client: unknown }).$client as Pool;
  // The embedded database runs in this process: a transaction of its own there costs no round trip anyway.
  if (typeof client?.connect !== 'function' || typeof client.totalCount !== 'number') {
    return db.transaction((tx) => sqlRows(tx, sql<R>`${sql.raw(statement)}`));
  }
  const conn = await client.connect();
  try {
    const results = await conn.query(`BEGIN; ${statement}; COMMIT`);
    conn.release();
    const list = Array.isArray(results) ? results : [results];
    return list[1]!.rows as R[];
  } catch (err) {
    // The statement failed and PostgreSQL skipped the COMMIT: the transaction is left aborted until rolled back.
    // A connection that cannot even roll back is discarded by the pool.
    try {
      await conn.query('ROLLBACK');
      conn.release();
    } catch (rollbackErr) {
      conn.release(rollbackErr as Error);
    }
    throw err;
  }
}

/** A string as an SQL literal, for the text of a one-call statement (the values of requests included). */
export function literal(value: string | null): string {
  if (value === null) return 'NULL';
  if (value.includes('\0')) throw new Error('a NUL character cannot be written to the database');
  // As pg's escapeLiteral writes it: quotes doubled, and with a backslash an E'' string with backslashes doubled,
  // which reads the same whatever standard_conforming_strings says.
  const quoted = `'${value.replaceAll("'", "''").replaceAll('\\', '\\\\')}'`;
  return value.includes('\\') ? `E${quoted}` : quoted;
}

/** A whole number of ours as SQL text; anything else is a bug of the caller. */
export function int(n: number | null): string {
  if (n === null) return 'NULL';
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
}
