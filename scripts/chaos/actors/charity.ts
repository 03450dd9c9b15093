import { setTimeout as sleep } from 'node:timers/promises';
import { CHARITY_HOST } from '../instances';
import { grantAdmin, randomInt } from '../steps';
import type { Actor, Answer, Session } from '../traffic';

/**
 * Donation links on a charity host (docs/product.md#charity): users send links (the instances count only
 * their own address as a cash host, so calls naming CHARITY_HOST reach the charity tenant), and administrators
 * approve or reject them, replaying an Idempotency-Key now and then and sometimes racing two or three decisions of
 * one link under different keys. The verdict: each link decided at most once, every approved link credited exactly
 * once with its amount, nothing credited for anything else, and the credits equal the acknowledged approvals.
 */
export default function charity(): Actor {
  /** Links sent and acknowledged, waiting for a decision. */
  const queue: number[] = [];
  const sent = new Set<number>();
  /** Per link: the decisions acknowledged (200), and decision calls whose outcome stayed unknown. */
  const decided = new Map<number, { approved: boolean; amount: number | null }[]>();
  const unknown = new Set<number>();
  const usernames = new Set<string>();
  let hostChecked = false;

  async function checkHost(session: Session): Promise<void> {
    if (hostChecked) return;
    const res = await session.settle('charity public', 'GET', '/api/charity-link/public', { host: CHARITY_HOST });
    if (res.status !== 200) {
      throw new Error(
        `${CHARITY_HOST} is not a charity host here (GET /api/charity-link/public answered ${res.status})`,
      );
    }
    hostChecked = true;
  }

  const record = (linkId: number, answer: Answer) => {
    if (answer.status === 200) {
      const body = answer.body as { approved: boolean; amount: number | null };
      const list = decided.get(linkId) ?? [];
      list.push({ approved: body.approved, amount: body.amount });
      decided.set(linkId, list);
    } else if (answer.status === 0 || answer.status === 503) unknown.add(linkId);
  };

  async function decide(admin: Session, linkId: number): Promise<void> {
    const approve = Math.random() < 0.7;
    const body = (amount: number) => ({
      charityLinkId: linkId,
      charityName: 'Chaos Relief',
      adminCategory: 'Other',
      isPubliclyVisible: Math.random() < 0.5,
      ...(approve ? { amount } : { reason: 'Could not be verified.' }),
    });
    const path = approve ? '/api/admin/charity/approve' : '/api/admin/charity/reject';
    const kind = approve ? 'charity approve' : 'charity reject';
    if (Math.random() < 0.25) {
      // A race: the same link decided two or three times at once under different keys (two admins, a double click).
      const answers = await Promise.all(
        Array.from({ length: randomInt(2, 3) }, () =>
          admin.pay(kind, 'POST', path, { json: body(randomInt(1, 5_000)) }),
        ),
      );
      for (const a of answers) record(linkId, a);
    } else {
      record(linkId, await admin.pay(kind, 'POST', path, { json: body(randomInt(1, 5_000)) }));
    }
  }

  return {
    name: 'charity',
    async run(t) {
      const sender = async () => {
        const session = await t.signUp();
        usernames.add(session.username);
        await checkHost(session);
        for (let i = 0; t.running; i++) {
          const answer = await session.pay('charity send', 'POST', '/api/charity-link/send', {
            json: { link: `give.example.org/${session.username}/${i}` },
            host: CHARITY_HOST,
          });
          if (answer.status === 200) {
            const id = (answer.body as { id: number }).id;
            sent.add(id);
            queue.push(id);
          } else await sleep(100); // 400: this user's pending links are at the limit; wait for the admins
        }
      };
      const administrator = async () => {
        const session = await t.signUp();
        await grantAdmin(t, session.username);
        while (t.running || (queue.length > 0 && t.settling)) {
          const linkId = queue.shift();
          if (linkId === undefined) {
            await sleep(50);
            continue;
          }
          await decide(session, linkId);
        }
      };
      await Promise.all([...Array.from({ length: 3 }, sender), ...Array.from({ length: 2 }, administrator)]);
    },
    async verify(db) {
      const { rows: links } = await db.query<{
        id: number;
        decided: boolean;
        approved: boolean;
        amount: number | null;
        credits: number;
        credited: number;
      }>(
        `SELECT l.id, l.decided, l.approved, l.amount,
           (SELECT count(*) FROM journal_entries e WHERE e.kind = 'CHARITY_CREDIT' AND e.resource_id = l.id::text)::int
             AS credits,
           coalesce((SELECT sum(p.amount) FROM journal_entries e JOIN postings p ON p.entry_id = e.id
             WHERE e.kind = 'CHARITY_CREDIT' AND e.resource_id = l.id::text AND p.account_code LIKE 'user:%'), 0)::bigint
             AS credited
         FROM charity_links l JOIN users u ON u.id = l.sender_id WHERE u.username = ANY($1)`,
        [[...usernames]],
      );
      const byId = new Map(links.map((l) => [l.id, l]));
      const wrongCredit = links.filter((l) =>
        l.approved ? l.credits !== 1 || Number(l.credited) !== l.amount : l.credits !== 0,
      );
      const twice = [...decided].filter(([, ds]) => ds.length > 1);
      const mismatched = [...decided].filter(([id, ds]) => {
        const row = byId.get(id);
        const d = ds[0]!;
        return !row || !row.decided || row.approved !== d.approved || row.amount !== d.amount;
      });
      const missingSends = [...sent].filter((id) => !byId.has(id));
      const ackedCents = [...decided].reduce((s, [, ds]) => s + (ds[0]?.approved ? ds[0].amount! : 0), 0);
      const creditedCents = links.reduce((s, l) => s + Number(l.credited), 0);
      const unknownCents = links
        .filter((l) => unknown.has(l.id) && !decided.has(l.id))
        .reduce((s, l) => s + Number(l.credited), 0);
      const { rows: notes } = await db.query<{ decided: number; messages: number }>(
        `SELECT (SELECT count(*) FROM charity_links l JOIN users u ON u.id = l.sender_id
                  WHERE u.username = ANY($1) AND l.decided)::int AS decided,
                (SELECT count(*) FROM notification_events n JOIN users u ON u.id = n.user_id
                  WHERE u.username = ANY($1) AND n.topic = 'SYSTEM_MESSAGE')::int AS messages`,
        [[...usernames]],
      );
      const approvedCount = links.filter((l) => l.approved).length;
      return [
        {
          name: 'every acknowledged donation link is stored',
          ok: missingSends.length === 0 && sent.size > 0,
          detail: `${sent.size} sent and acknowledged, ${missingSends.length} missing`,
        },
        {
          name: 'a donation link is decided once, as acknowledged',
          ok: twice.length === 0 && mismatched.length === 0 && decided.size > 0,
          detail: `${decided.size} decisions acknowledged (${[...decided.values()].filter((d) => d[0]!.approved).length} approvals), ${twice.length} links acknowledged twice, ${mismatched.length} differing from the database`,
        },
        {
          name: 'every approved link credited exactly once with its amount, nothing else credited',
          ok: wrongCredit.length === 0 && creditedCents - unknownCents === ackedCents,
          detail: `${approvedCount} approved links, ${creditedCents}¢ credited; acknowledged approvals ${ackedCents}¢ (+${unknownCents}¢ whose answer was lost); ${wrongCredit.length} links credited wrongly${wrongCredit.length ? `: ${JSON.stringify(wrongCredit.slice(0, 3))}` : ''}`,
        },
        {
          name: 'one SYSTEM_MESSAGE per decided link',
          ok: notes[0]!.decided === notes[0]!.messages,
          detail: `${notes[0]!.decided} decided links, ${notes[0]!.messages} system messages to their senders`,
        },
      ];
    },
  };
}
