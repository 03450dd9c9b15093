import { openLootboxes, pictureIdOf, randomInt, topUp, upload } from '../steps';
import type { Actor, Answer, Session } from '../traffic';

/**
 * Comments, replies, paid reactions and pins (15¢, the chosen price, 1¢), each under an Idempotency-Key and some
 * replayed. Users write with the letters their lootboxes found (on their own picture, with every letter) and react
 * with the emojis they found. Each acknowledged comment, reaction and pin must be in the books exactly once, and
 * every picture's commentCount must equal its comments and replies.
 */
export default function comments(): Actor {
  interface Tally {
    comments: number;
    unknownComments: number;
    reactions: number;
    reactionCents: number;
    unknownReactions: number;
    unknownReactionCents: number;
    pins: number;
    unknownPins: number;
  }
  const tally = new Map<string, Tally>();
  const pictures = new Set<number>();

  interface Listed {
    id: number;
    isPinned: boolean;
    commentResponses: { id: number }[];
  }

  return {
    name: 'comments',
    async run(t) {
      const worker = async () => {
        const session = await t.signUp();
        const mine: Tally = {
          comments: 0,
          unknownComments: 0,
          reactions: 0,
          reactionCents: 0,
          unknownReactions: 0,
          unknownReactionCents: 0,
          pins: 0,
          unknownPins: 0,
        };
        tally.set(session.username, mine);
        await topUp(session, 5_000);
        const uploaded = await upload(session, 100);
        const own = uploaded.status === 200 ? pictureIdOf(uploaded) : undefined;
        if (own !== undefined) pictures.add(own);
        await openLootboxes(session, 2);
        const { letters, emojis } = await inventory(session);

        const counted = (a: Answer, ok: () => void, unknown: () => void) => {
          if (a.status === 200) ok();
          else if (a.status === 0 || a.status === 503) unknown();
        };
        const refill = async (a: Answer) => {
          if (a.status === 402) await topUp(session, 5_000);
        };

        while (t.running) {
          const onOwn = own !== undefined && Math.random() < 0.4;
          const pictureId = onOwn ? own : await someonesPicture(session);
          if (pictureId === undefined) continue;
          pictures.add(pictureId);
          const list = await session.settle('comment list', 'GET', `/api/picture/comment/${pictureId}`);
          const listed = list.status === 200 ? (list.body as Listed[]) : [];
          const text = onOwn ? `Thanks, All! #${randomInt(1, 999)}` : writable(letters);
          if (text) {
            const parent = listed.length && Math.random() < 0.4 ? listed[randomInt(0, listed.length - 1)] : undefined;
            const a = await session.pay('comment', 'POST', '/api/picture/comment', {
              json: { pictureId, comment: text, balance: 0, ...(parent ? { responseTo: parent.id } : {}) },
            });
            counted(
              a,
              () => mine.comments++,
              () => mine.unknownComments++,
            );
            await refill(a);
          }
          const anyComment = listed.flatMap((c) => [c.id, ...c.commentResponses.map((r) => r.id)]);
          if (emojis.length && anyComment.length) {
            const price = randomInt(1, 40);
            const a = await session.pay('reaction', 'POST', '/api/picture/comment/reaction', {
              json: {
                commentId: anyComment[randomInt(0, anyComment.length - 1)],
                reactionType: emojis[randomInt(0, emojis.length - 1)],
                price,
                balance: 0,
              },
            });
            counted(
              a,
              () => {
                mine.reactions++;
                mine.reactionCents += price;
              },
              () => {
                mine.unknownReactions++;
                mine.unknownReactionCents += price;
              },
            );
            await refill(a);
          }
          const unpinned = onOwn ? listed.filter((c) => !c.isPinned) : [];
          if (unpinned.length && Math.random() < 0.3) {
            const a = await session.pay('pin', 'POST', '/api/picture/comment/pin', {
              json: { commentId: unpinned[0]!.id, balance: 0 },
            });
            counted(
              a,
              () => mine.pins++,
              () => mine.unknownPins++,
            );
            await refill(a);
          }
        }
      };
      await Promise.all(Array.from({ length: 3 }, worker));
    },
    async verify(db) {
      const users = [...tally.keys()];
      const { rows } = await db.query<{
        username: string;
        comments: number;
        charged: number;
        reactions: number;
        cents: number;
        reaction_entries: number;
        pins: number;
        pinned: number;
      }>(
        `SELECT u.username,
           (SELECT count(*) FROM comments c WHERE c.author_id = u.id)::int AS comments,
           (SELECT count(*) FROM journal_entries e WHERE e.user_id = u.id AND e.kind = 'COMMENT')::int AS charged,
           (SELECT count(*) FROM comment_reactions r WHERE r.user_id = u.id)::int AS reactions,
           (SELECT coalesce(sum(price), 0) FROM comment_reactions r WHERE r.user_id = u.id)::int AS cents,
           (SELECT count(*) FROM journal_entries e WHERE e.user_id = u.id AND e.kind = 'REACTION')::int AS reaction_entries,
           (SELECT count(*) FROM journal_entries e WHERE e.user_id = u.id AND e.kind = 'PIN')::int AS pins,
           (SELECT count(*) FROM comments c JOIN pictures p ON p.id = c.picture_id
              WHERE p.author_id = u.id AND c.pinned_at IS NOT NULL)::int AS pinned
         FROM users u WHERE u.username = ANY($1)`,
        [users],
      );
      const within = (n: number, ok: number, unknown: number) => n >= ok && n <= ok + unknown;
      const off = rows.filter((r) => {
        const s = tally.get(r.username)!;
        return (
          !within(r.comments, s.comments, s.unknownComments) ||
          r.charged !== r.comments ||
          !within(r.reactions, s.reactions, s.unknownReactions) ||
          !within(r.cents, s.reactionCents, s.unknownReactionCents) ||
          r.reaction_entries !== r.reactions ||
          !within(r.pins, s.pins, s.unknownPins) ||
          r.pins !== r.pinned
        );
      });
      const counts = await db.query<{ off: number; pictures: number }>(
        `SELECT count(*) FILTER (WHERE p.comment_count <> (SELECT count(*) FROM comments c WHERE c.picture_id = p.id))::int AS off,
           count(*)::int AS pictures
         FROM pictures p WHERE p.id = ANY($1)`,
        [[...pictures]],
      );
      const sum = (f: (s: Tally) => number) => [...tally.values()].reduce((n, s) => n + f(s), 0);
      return [
        {
          name: 'every acknowledged comment, reaction and pin is in the books once, and charged once',
          ok: off.length === 0 && rows.length === users.length,
          detail: `${sum((s) => s.comments)} comments, ${sum((s) => s.reactions)} reactions, ${sum((s) => s.pins)} pins acknowledged by ${users.length} users; ${off.length} users outside [acknowledged, + unknown] or charged otherwise${off.length ? `: ${JSON.stringify(off.slice(0, 3))}` : ''}`,
        },
        {
          name: "each picture's commentCount equals its comments and replies",
          ok: counts.rows[0]!.off === 0,
          detail: `${counts.rows[0]!.pictures} pictures commented on, ${counts.rows[0]!.off} with a wrong count`,
        },
      ];
    },
  };
}

/** The letters and emoji items the user owns. */
async function inventory(session: Session): Promise<{ letters: string[]; emojis: string[] }> {
  const res = await session.settle('items', 'GET', '/api/items/details');
  const items =
    res.status === 200 ? (res.body as { itemType: string; rarity: number; user: { quantity: number } }[]) : [];
  const owned = items.filter((i) => i.user.quantity > 0);
  return {
    letters: owned.filter((i) => i.rarity === 1).map((i) => i.itemType.slice(-1).toLowerCase()),
    emojis: owned.filter((i) => i.rarity > 1).map((i) => i.itemType),
  };
}

/** A text of owned lowercase letters (words when five letters allow the space); empty with no letter. */
function writable(letters: string[]): string {
  if (letters.length === 0) return '';
  const word = () => Array.from({ length: randomInt(2, 7) }, () => letters[randomInt(0, letters.length - 1)]).join('');
  return letters.length >= 5 ? `${word()} ${word()}` : word();
}

async function someonesPicture(session: Session): Promise<number | undefined> {
  const list = await session.settle('wall', 'GET', '/api/pictures?sort=top&limit=20');
  const ids = list.status === 200 ? (list.body as { id: number }[]).map((p) => p.id) : [];
  return ids.length ? ids[randomInt(0, ids.length - 1)] : undefined;
}
