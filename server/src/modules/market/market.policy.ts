import { policy } from '../../http/authorization';
import { forbidden } from '../../http/errors';

/*
 * The market's rules (docs/ARCHITECTURE.md "server/src/http/": the rule vocabulary). The book is public and its
 * offers are there to be taken by anyone signed in ('user'; taking one's own offer is bad input, refused by
 * market.commands.ts); the trade data is for users who paid for the graphs.
 */
export const marketPolicy = policy('market', {
  /** 403 until the caller unlocked the graphs (the client shows the locked placeholder). */
  readTrades: {
    allow: (_actor, graphs: { unlocked: boolean }) => graphs.unlocked,
    refuse: () => forbidden('Unlock the graphs first.'),
  },
});
