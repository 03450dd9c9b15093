import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { GOODWILL_TYPES } from '../../../common/constants';
import { randomInt, topUp, upload } from '../steps';
import type { Actor, Session } from '../traffic';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
/** An entry older than this when a forwarding starts has committed by then: statements and transactions time out sooner. */
const COMMITTED_AFTER_MS = 15_000;

/**
 * The goodwill forwarding as an operator runs it, `npm run admin -- forward-goodwill` in a process of its own, every
 * few seconds and now and then two at once, while the other actors' spends pay shares in, a spender of its own
 * changes cause between uploads (so a run forwards several causes' batches) and the disruptions strike.
 * Every batch a run printed must be in the books as printed; every share older than the last acknowledged run must be
 * in exactly one batch; the conservation check proves each batch against its shares.
 */
export default function goodwill(): Actor {
  const printed: { reference: string; cause: string; cents: number }[] = [];
  let acknowledgedRuns = 0;
  let failedRuns = 0;
  let lastAcknowledgedStart: number | undefined;

  async function forward(databaseUrl: string): Promise<void> {
    const startedAt = Date.now();
    try {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', 'server/src/admin/cli.ts', 'forward-goodwill'],
        {
          cwd: root,
          env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
          timeout: 60_000,
        },
      );
      for (const line of stdout.split('\n')) {
        const m = /^(\S+): ([A-Z_]+) (\d+)\.(\d{2})$/.exec(line.trim());
        if (m) printed.push({ reference: m[1]!, cause: m[2]!, cents: Number(m[3]) * 100 + Number(m[4]) });
      }
      acknowledgedRuns++;
      lastAcknowledgedStart = Math.max(lastAcknowledgedStart ?? 0, startedAt);
    } catch {
      failedRuns++; // killed by a restart of the database, or timed out: it forwarded all or nothing
    }
  }

  return {
    name: 'goodwill',
    async run(t) {
      const spender = async (session: Session) => {
        await topUp(session, 50_000);
        while (t.running) {
          const goodWill = GOODWILL_TYPES[randomInt(0, GOODWILL_TYPES.length - 1)];
          await session.settle('good-will', 'POST', '/api/user/good-will', { json: { goodWill } });
          // Whole dollars, as upload prices are (common/upload-rules.ts): each spend pays a share to the cause.
          if ((await upload(session, randomInt(1, 4) * 100)).status === 402) await topUp(session, 50_000);
        }
      };
      const forwarder = async () => {
        for (let i = 1; t.running; i++) {
          await sleep(4_000);
          await Promise.all(Array.from({ length: i % 3 === 0 ? 2 : 1 }, () => forward(t.databaseUrl)));
        }
      };
      await Promise.all([spender(await t.signUp()), forwarder()]);
    },
    async verify(db) {
      const { rows: batches } = await db.query<{ reference: string; cause: string; amount: number }>(
        `SELECT reference, cause, amount FROM goodwill_batches WHERE reference = ANY($1)`,
        [printed.map((p) => p.reference)],
      );
      const stored = new Map(batches.map((b) => [b.reference, b]));
      const lost = printed.filter((p) => {
        const b = stored.get(p.reference);
        return !b || b.cause !== p.cause || Number(b.amount) !== p.cents;
      });
      const cutoff = new Date((lastAcknowledgedStart ?? 0) - COMMITTED_AFTER_MS);
      const { rows: left } = await db.query<{ n: number; cents: number; forwarded: number }>(
        `SELECT count(*) FILTER (WHERE s.posting_id IS NULL AND e.created_at < $1)::int AS n,
                coalesce(sum(p.amount) FILTER (WHERE s.posting_id IS NULL AND e.created_at < $1), 0)::bigint AS cents,
                count(s.posting_id)::int AS forwarded
         FROM postings p JOIN journal_entries e ON e.id = p.entry_id
         LEFT JOIN goodwill_shares s ON s.posting_id = p.id
         WHERE p.account_code LIKE 'goodwill:%:payable' AND p.amount > 0`,
        [cutoff],
      );
      const skipped = left[0]!;
      return [
        {
          name: 'goodwill forwarding ran while spends paid in',
          ok: acknowledgedRuns > 0 && printed.length > 0,
          detail: `${acknowledgedRuns} runs acknowledged, ${failedRuns} cut off, ${printed.length} batches printed, ${skipped.forwarded} shares forwarded`,
        },
        {
          name: 'every batch a forwarding printed is in the books as printed',
          ok: lost.length === 0,
          detail: `${printed.length - lost.length} of ${printed.length}${lost.length ? `; missing or different: ${JSON.stringify(lost.slice(0, 3))}` : ''}`,
        },
        {
          name: 'no share older than the last acknowledged forwarding was left behind',
          ok: lastAcknowledgedStart !== undefined && skipped.n === 0,
          detail: `${skipped.n} shares (${skipped.cents}¢) paid before ${cutoff.toISOString()} in no batch`,
        },
      ];
    },
  };
}
