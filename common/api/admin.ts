import { Type, type Static } from 'typebox';
import { Nullable } from './shared';

/** GET /api/admin/am-i-worthy: YES for administrators (403 NO for everyone else). */
export const AmIWorthyAnswer = Type.Object({ message: Type.Literal('YES') });
export type AmIWorthyAnswer = Static<typeof AmIWorthyAnswer>;

/** GET /api/admin/ledger-check: the books at this moment (docs/product.md#money). */
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
  goodwillMismatches: Type.Integer(),
});
export type ConservationReport = Static<typeof ConservationReport>;

/** GET /api/admin/reports?beforeId=&limit=: reports of comments and chat messages, newest first (the Reports tab). */
export const AdminReportsQuery = Type.Object({
  beforeId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
});
export type AdminReportsQuery = Static<typeof AdminReportsQuery>;

export const AdminReport = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('COMMENT'), Type.Literal('CHAT'), Type.Literal('PICTURE')]),
  messageId: Type.Integer(),
  reason: Type.String(),
  description: Type.String(),
  reporter: Type.Object({ id: Type.Integer(), username: Type.String() }),
  /** The reported text; null when the message is gone. */
  messageText: Type.Union([Type.String(), Type.Null()]),
  createdOn: Type.String({ description: 'ISO 8601' }),
  /** The decision on the reported content (docs/product.md#moderation); null while it is open. */
  decision: Type.Optional(
    Nullable(
      Type.Object({
        action: Type.Union([Type.Literal('dismiss'), Type.Literal('remove')]),
        decidedOn: Type.String({ description: 'ISO 8601' }),
      }),
    ),
  ),
});
export type AdminReport = Static<typeof AdminReport>;
export const AdminReports = Type.Array(AdminReport);
export type AdminReports = Static<typeof AdminReports>;
