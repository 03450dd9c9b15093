import { Type, type Static } from 'typebox';

/** GET /api/admin/am-i-worthy: YES for administrators (403 NO for everyone else). */
export const AmIWorthyAnswer = Type.Object({ message: Type.Literal('YES') });
export type AmIWorthyAnswer = Static<typeof AmIWorthyAnswer>;

/** GET /api/admin/ledger-check: the books at this moment (DESIGN.md §3). */
export const ConservationReport = Type.Object({
  ok: Type.Boolean(),
  postingsTotal: Type.Integer(),
  unbalancedEntries: Type.Integer(),
  negativeBalances: Type.Integer(),
  driftedAccounts: Type.Integer(),
  userMoney: Type.Integer(),
  itemsMinted: Type.Integer(),
  itemsInExistence: Type.Integer(),
  unbalancedItemEntries: Type.Integer(),
  driftedInventories: Type.Integer(),
  escrowMismatches: Type.Integer(),
  heldMismatches: Type.Integer(),
  crossedBooks: Type.Integer(),
});
export type ConservationReport = Static<typeof ConservationReport>;
