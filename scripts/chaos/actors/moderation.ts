import { setTimeout as sleep } from 'node:timers/promises';
import type { DecideReportAnswer } from '../../../common/api/moderation';
import { grantAdmin, pictureIdOf, randomInt, topUp, upload } from '../steps';
import type { Actor, Answer, Session, Traffic } from '../traffic';

/** What each upload costs its author: the whole spend a refund gives back (the author never funds it again). */
const UPLOAD_CENTS = 100;

/**
 * Moderation under traffic (docs/product.md#moderation): authors upload pictures and keep a buy offer open (money
 * in escrow), a reporter reports their pictures, and administrators decide the reports: dismiss, or remove with a
 * refund now and then and a suspension of the author now and then, replaying Idempotency-Keys and sometimes racing
 * two decisions of one report under different keys. The verdict: each reported picture decided at most once, every
 * refund one REFUND entry of the upload's price, no suspended author with an open offer, and no paid call of a
 * suspended author acknowledged after its suspension was.
 */
export default function moderation(): Actor {
  /** Reports acknowledged and waiting for a decision: the report's id and the picture's author. */
  const queue: { reportId: number; author: string }[] = [];
  const authors = new Map<string, { suspendedAt?: number; lateSuccesses: number; refused: number }>();
  /** Decisions acknowledged (200), by picture; and pictures whose decision call stayed unknown. */
  const decided = new Map<number, DecideReportAnswer[]>();
  const refundsAcked = new Set<number>();
  const unknown = new Set<number>();
  const reported = new Set<number>();

  /** One author until a suspension stops it; then the next author signs up. */
  const author = async (t: Traffic) => {
    const session = await t.signUp();
    // Each author's own reporter: reports are rate limited per user (docs/product.md#blocks).
    const reporter = await t.signUp();
    const me = { lateSuccesses: 0, refused: 0 } as { suspendedAt?: number; lateSuccesses: number; refused: number };
    authors.set(session.username, me);
    await topUp(session, 5_000);
    const watch = (answer: Answer, sentAt: number) => {
      if (answer.status === 403 && (answer.body as { suspendedUntil?: unknown })?.suspendedUntil !== undefined) {
        me.refused++;
      } else if (answer.status === 200 && me.suspendedAt !== undefined && sentAt > me.suspendedAt) {
        me.lateSuccesses++;
      }
    };
    while (t.running && me.refused < 3) {
      let sentAt = Date.now();
      // A bid no letter sells this low for: money in escrow that a suspension must give back.
      watch(
        await session.pay('moderation bid', 'POST', '/api/market/generic-buy-offer', {
          json: { itemType: 'COMMON_LETTER_Z', quantity: randomInt(1, 3), price: 1, balance: 0 },
        }),
        sentAt,
      );
      sentAt = Date.now();
      const uploaded = await upload(session, UPLOAD_CENTS);
      watch(uploaded, sentAt);
      if (uploaded.status === 402) await topUp(session, 5_000);
      if (uploaded.status !== 200) {
        await sleep(me.refused > 0 ? 500 : 100);
        continue;
      }
      const pictureId = pictureIdOf(uploaded);
      const report = await reporter.settle('report', 'POST', '/api/user/report-message', {
        json: { messageId: pictureId, reason: 'spam', description: 'Chaos spam.', type: 'PICTURE' },
      });
      if (report.status === 200) {
        reported.add(pictureId);
        queue.push({ reportId: (report.body as { id: number }).id, author: session.username });
      }
      await sleep(3_000);
    }
  };
  const authorsInTurn = async (t: Traffic) => {
    while (t.running) await author(t);
  };

  async function decide(admin: Session, job: { reportId: number; author: string }): Promise<void> {
    const remove = Math.random() < 0.7;
    const refund = remove && Math.random() < 0.5;
    const suspend = remove && Math.random() < 0.25;
    const json = {
      reportId: job.reportId,
      action: remove ? 'remove' : 'dismiss',
      category: 'spam',
      reasons: 'Posted again and again to push other pictures down.',
      ...(refund ? { refund: true } : {}),
      ...(suspend ? { suspendDays: 1 } : {}),
    };
    const tries = Math.random() < 0.2 ? 2 : 1; // a race: two admins, or a double click under two keys
    const answers = await Promise.all(
      Array.from({ length: tries }, () =>
        admin.pay('moderation decide', 'POST', '/api/admin/reports/decide', { json }),
      ),
    );
    for (const a of answers) {
      if (a.status === 200) {
        const body = a.body as DecideReportAnswer;
        decided.set(body.contentId, [...(decided.get(body.contentId) ?? []), body]);
        if (refund) refundsAcked.add(body.contentId);
        const who = authors.get(job.author);
        if (suspend && who && who.suspendedAt === undefined) who.suspendedAt = Date.now();
      } else if (a.status === 0 || a.status === 503) unknown.add(job.reportId);
    }
  }

  return {
    name: 'moderation',
    async run(t) {
      const administrator = async () => {
        const session = await t.signUp();
        await grantAdmin(t, session.username);
        while (t.running || (queue.length > 0 && t.settling)) {
          const job = queue.shift();
          if (job === undefined) {
            await sleep(50);
            continue;
          }
          await decide(session, job);
        }
      };
      await Promise.all([authorsInTurn(t), authorsInTurn(t), administrator()]);
    },
    async verify(db) {
      const users = [...authors.keys()];
      const { rows: decisions } = await db.query<{
        content_id: number;
        action: string;
        refunded: number;
        entries: number;
        credited: number;
        removed: boolean;
      }>(
        `SELECT d.id, d.content_id, d.action, d.refunded,
           (SELECT count(*) FROM journal_entries e WHERE e.kind = 'REFUND' AND e.resource_id = d.id::text)::int
             AS entries,
           coalesce((SELECT sum(p.amount) FROM journal_entries e JOIN postings p ON p.entry_id = e.id
             WHERE e.kind = 'REFUND' AND e.resource_id = d.id::text AND p.account_code LIKE 'user:%'), 0)::int
             AS credited,
           (SELECT removed_at IS NOT NULL FROM pictures WHERE id = d.content_id) AS removed
         FROM moderation_decisions d JOIN users u ON u.id = d.author_id
         WHERE d.content_type = 'PICTURE' AND u.username = ANY($1)`,
        [users],
      );
      const acked = [...decided.entries()];
      const twice = acked.filter(([, list]) => new Set(list.map((d) => d.decisionId)).size > 1);
      const byPicture = new Map(decisions.map((d) => [d.content_id, d]));
      const missing = acked.filter(([id]) => !byPicture.has(id));
      const wrongRefund = decisions.filter(
        (d) =>
          d.entries !== (d.refunded > 0 ? 1 : 0) ||
          d.credited !== d.refunded ||
          (d.refunded > 0 && d.refunded !== UPLOAD_CENTS) ||
          (refundsAcked.has(d.content_id) && d.refunded === 0) ||
          d.removed !== (d.action === 'remove'),
      );
      const { rows: offers } = await db.query<{ username: string; open: number }>(
        `SELECT u.username, count(o.id)::int AS open FROM users u JOIN market_offers o ON o.user_id = u.id
         WHERE u.username = ANY($1) AND (u.suspended_for_good OR u.suspended_until > now()) GROUP BY u.username`,
        [users],
      );
      const suspended = [...authors.values()].filter((a) => a.suspendedAt !== undefined);
      const late = [...authors.entries()].filter(([, a]) => a.lateSuccesses > 0);
      return [
        {
          name: 'every acknowledged decision is in the books once, each refund one REFUND entry of the spend',
          ok: twice.length === 0 && missing.length === 0 && wrongRefund.length === 0,
          detail:
            `${reported.size} pictures reported, ${acked.length} decisions acknowledged (${refundsAcked.size} with a ` +
            `refund, ${unknown.size} unknown), ${decisions.length} in the books; ${twice.length} decided twice, ` +
            `${missing.length} missing, ${wrongRefund.length} refunded or removed otherwise` +
            (wrongRefund.length ? `: ${JSON.stringify(wrongRefund.slice(0, 3))}` : ''),
        },
        {
          name: 'a suspended author keeps no open offer and is refused every paid call from then on',
          ok: offers.length === 0 && late.length === 0,
          detail:
            `${suspended.length} of ${users.length} authors suspended, refused ${[...authors.values()].reduce((n, a) => n + a.refused, 0)} calls; ` +
            `${offers.length} suspended with open offers, ${late.length} with a paid call acknowledged after the suspension`,
        },
      ];
    },
  };
}
