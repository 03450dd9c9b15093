import type { ConservationReport } from '../../../../../common/api/admin';

export interface HealthFigure {
  label: string;
  value: string;
  ok: boolean;
}

/** Each figure of the conservation check with whether it is as it must be (server/src/ledger/conservation.ts). */
export function healthFigures(r: ConservationReport): HealthFigure[] {
  const zero = (label: string, n: number): HealthFigure => ({ label, value: String(n), ok: n === 0 });
  const itemsOk = r.itemsMinted === r.itemsInExistence;
  return [
    zero('Sum of all postings', r.postingsTotal),
    zero('Unbalanced entries', r.unbalancedEntries),
    zero('Negative balances', r.negativeBalances),
    zero('Drifted accounts', r.driftedAccounts),
    { label: 'Money users hold (cents)', value: String(r.userMoney), ok: r.userMoney >= 0 },
    { label: 'Items minted', value: String(r.itemsMinted), ok: itemsOk },
    { label: 'Items in existence', value: String(r.itemsInExistence), ok: itemsOk },
    zero('Unbalanced item entries', r.unbalancedItemEntries),
    zero('Drifted inventories', r.driftedInventories),
    zero('Escrow mismatches', r.escrowMismatches),
    zero('Held item mismatches', r.heldMismatches),
    zero('Crossed order books', r.crossedBooks),
    zero('Goodwill batch mismatches', r.goodwillMismatches),
  ];
}
