import type { GoodWillPayment, GoodWillTotals } from '../../../../common/api/goodwill';
import { GOODWILL_TYPES } from '../../../../common/constants';
import { GOODWILL_CSV_HEADER } from '../../../../common/goodwill';
import { isoTime } from '../../../../common/time';
import type { BatchRow, ShareRow, TotalsRow } from './goodwill.repository';

/** The fields of goodwill that leave the server. */

export function presentShare(r: ShareRow): GoodWillPayment {
  return {
    id: Number(r.id),
    amount: Number(r.amount),
    goodWillType: r.cause,
    paidOn: isoTime(r.paid_on),
    status: r.reference === null ? 'PENDING' : 'FORWARDED',
    reference: r.reference,
  };
}

/** One line per batch under the header, amounts in integer cents as every CSV here (docs/product.md#goodwill); causes and references are fixed words, so nothing needs quoting. */
export function batchesCsv(batches: BatchRow[]): string {
  const lines = batches.map((b) => [b.id, b.cause, Number(b.amount), isoTime(b.forwarded_on), b.reference].join(','));
  return [GOODWILL_CSV_HEADER, ...lines].join('\r\n') + '\r\n';
}

export function presentTotals(found: TotalsRow[]): GoodWillTotals {
  const byCause = new Map(found.map((r) => [r.cause, r]));
  return {
    causes: GOODWILL_TYPES.map((cause) => {
      const r = byCause.get(cause);
      return {
        cause,
        paidIn: Number(r?.paid_in ?? 0),
        pending: Number(r?.pending ?? 0),
        forwarded: Number(r?.forwarded ?? 0),
      };
    }),
  };
}
