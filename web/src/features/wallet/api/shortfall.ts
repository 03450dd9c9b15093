import { ApiError } from '../../../lib/api';
import { openPopup } from '../../../lib/popups';

/**
 * A 402 answer (the balance is short): opens the top-up popup with the shortfall, and says whether it did. Every
 * paid action goes through it (`usePaidAction`), and so does a top-up's own checkout.
 */
export function topUpShortfall(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 402) return false;
  const missing = (err.body as { missing?: unknown } | undefined)?.missing;
  if (typeof missing === 'number' && missing > 0) openPopup({ kind: 'addMoney', missing });
  return true;
}
