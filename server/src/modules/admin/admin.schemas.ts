import { Type } from 'typebox';
import { Message } from '../../http/schemas';

export { Message };

export const AmIWorthy = {
  response: { 200: Type.Object({ message: Type.Literal('YES') }), 401: Message, 403: Message },
};

export const ConservationReport = Type.Object({
  ok: Type.Boolean(),
  postingsTotal: Type.Integer(),
  unbalancedEntries: Type.Integer(),
  negativeBalances: Type.Integer(),
  driftedAccounts: Type.Integer(),
  userMoney: Type.Integer(),
});

export const LedgerCheck = {
  response: { 200: ConservationReport, 401: Message, 403: Message },
};
