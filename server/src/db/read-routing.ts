import { sql } from 'drizzle-orm';
import type { Db } from './connection';

/**
 * Where a read goes when a streaming replica is configured (DATABASE_READ_URL; docs/scaling.md, "Read replica").
 *
 * Reads that tolerate a second of lag (walls, picture detail, profiles, comments, items, offers, trade graphs,
 * donations, the goodwill proof) ask for `lagTolerant()`: the replica while it answers and is no further behind than
 * DB_READ_MAX_LAG_MS, else the primary. Everything else (a user's own money and inventory, anything read inside a
 * write) stays on the primary. When the primary is down and the replica is up, the site stays readable: lag-tolerant
 * reads go to the replica whatever its lag, and so does `current()` (the session lookup), so signed-in pages load
 * with the last replicated state while writes answer 503.
 *
 * A check every second keeps the picture: the replica's lag, and whether each server answers at all. A change is
 * seen within about two seconds (a check, and its time to answer).
 */
export interface ReadRoutingOptions {
  primary: Db;
  replica: Db | undefined;
  maxLagMs: number;
  /** How often both servers are checked. */
  checkEveryMs?: number;
  onChange?: (state: ReadState) => void;
}

export interface ReadState {
  primaryUp: boolean;
  replicaUp: boolean;
  /** How far the replica's replay is behind, in ms; null while it does not answer or follows no primary. */
  replicaLagMs: number | null;
}

/** A check that has not answered in this long counts as failed. */
const CHECK_TIMEOUT_MS = 1_000;

export class ReadRouting {
  private state: ReadState = { primaryUp: true, replicaUp: false, replicaLagMs: null };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly opts: ReadRoutingOptions) {}

  /** Checks once, then every `checkEveryMs`. */
  async start(): Promise<void> {
    if (!this.opts.replica) return;
    await this.check();
    this.timer = setInterval(() => {
      this.running ??= this.check().finally(() => (this.running = undefined));
    }, this.opts.checkEveryMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  get status(): ReadState {
    return { ...this.state };
  }

  /** For reads that tolerate the replica's lag. */
  lagTolerant(): Db {
    const { replica } = this.opts;
    if (!replica || !this.state.replicaUp) return this.opts.primary;
    if (!this.state.primaryUp) return replica;
    return (this.state.replicaLagMs ?? Infinity) <= this.opts.maxLagMs ? replica : this.opts.primary;
  }

  /** For reads that must see the latest write: the primary, or the replica while only it answers. */
  current(): Db {
    const { replica } = this.opts;
    return replica && !this.state.primaryUp && this.state.replicaUp ? replica : this.opts.primary;
  }

  /** Every server reads may go to: the primary, then the replica if there is one. */
  servers(): Db[] {
    return this.opts.replica ? [this.opts.primary, this.opts.replica] : [this.opts.primary];
  }

  /** When the replica was last seen streaming, and its lag then. */
  private streaming: { at: number; lagMs: number } | undefined;

  /**
   * The lag to route by. A replica that stopped streaming (its primary just died, or the network between them did)
   * is at most its last lag plus the time since behind: so for DB_READ_MAX_LAG_MS it keeps serving while the check
   * finds out whether the primary is down, and the reads never go to a dead primary meanwhile.
   */
  private bound(lag: number | null | undefined): number | null {
    if (lag === undefined) return null;
    if (lag !== null) {
      this.streaming = { at: Date.now(), lagMs: lag };
      return lag;
    }
    return this.streaming ? this.streaming.lagMs + (Date.now() - this.streaming.at) : null;
  }

  private async check(): Promise<void> {
    const [primaryUp, lag] = await Promise.all([
      answers(this.opts.primary.execute(sql`SELECT 1`)),
      this.opts.replica ? replicaLag(this.opts.replica) : Promise.resolve(undefined),
    ]);
    const next: ReadState = { primaryUp, replicaUp: lag !== undefined, replicaLagMs: this.bound(lag) };
    const changed =
      next.primaryUp !== this.state.primaryUp ||
      next.replicaUp !== this.state.replicaUp ||
      (next.replicaLagMs ?? 0) > this.opts.maxLagMs !== (this.state.replicaLagMs ?? 0) > this.opts.maxLagMs;
    this.state = next;
    if (changed) this.opts.onChange?.(this.status);
  }
}

/**
 * The replica's replay lag in ms: 0 when it streams from its primary and has replayed all it received (an idle
 * primary is no lag), null when it follows no primary (then how far behind it is cannot be known), undefined when it
 * does not answer.
 */
async function replicaLag(replica: Db): Promise<number | null | undefined> {
  const query = replica.execute(
    sql`SELECT CASE
             WHEN NOT EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') THEN NULL
             WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
             ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) * 1000, 0)
           END::float8 AS lag`,
  );
  const result = await withinTime(query);
  const row = (result as { rows?: { lag: number | null }[] } | undefined)?.rows?.[0];
  if (!row) return undefined;
  return row.lag === null ? null : Math.max(0, row.lag);
}

async function answers(query: Promise<unknown>): Promise<boolean> {
  return (await withinTime(query)) !== undefined;
}

/** The query's result, or undefined when it failed or did not answer within CHECK_TIMEOUT_MS. */
async function withinTime<T>(query: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([query.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
