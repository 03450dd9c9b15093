import { newActionKey } from '../../../lib/api';
import { topUpShortfall } from '../../wallet/api/shortfall';
import { createCheckout } from '../api/checkout';

/** How often the payment window is checked (docs/product.md#top-up). */
export const PAYMENT_POLL_MS = 500;
export const CLOSE_PAGE = '/close-the-window';

export type PaymentOutcome = 'success' | 'cancelled' | 'closed' | 'failed';

/**
 * What the popup says of each outcome (docs/product.md#top-up; a cancel on the provider's page says what the
 * /cancel says, since the window did land, on the cancel address).
 */
export const PAYMENT_TEXTS = {
  success: 'Payment was successful!',
  cancelled: 'Payment Cancelled.',
  closed: 'Payment window was closed before completion.',
  failed: 'Failed to create checkout session. Please try again.',
} as const;

/**
 * Top-up through the hosted checkout in a new tab. The tab is opened inside the click (popup blockers allow only
 * that), pointed at the checkout once the server made one, and watched until it lands on /close-the-window or is
 * closed.
 */
export async function payInWindow(amountCents: number): Promise<PaymentOutcome> {
  const win = window.open('', '_blank');
  let url: string;
  try {
    ({ url } = await createCheckout({ amount: amountCents, url: window.location.href }, newActionKey()));
  } catch (err) {
    topUpShortfall(err);
    console.warn('checkout failed', err);
    win?.close();
    window.focus();
    // After the caller showed the text: a dialog from a tab that is not in front may wait until it is.
    setTimeout(() => window.alert(PAYMENT_TEXTS.failed), 50);
    return 'failed';
  }
  if (!win) {
    // The browser refused a new tab: pay in this one; the checkout lands back on the app.
    window.location.assign(url);
    return new Promise(() => {});
  }
  win.location.href = url;
  return watch(win);
}

function watch(win: Window): Promise<PaymentOutcome> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (win.closed) {
        clearInterval(timer);
        resolve('closed');
        return;
      }
      let landed = false;
      try {
        landed = win.location.pathname === CLOSE_PAGE;
      } catch {
        // Cross-origin while on the provider's page: keep waiting.
      }
      if (landed) {
        clearInterval(timer);
        const cancelled = /[?&](cancel|canceled|cancelled|status=cancel)/i.test(safeSearch(win));
        win.close();
        resolve(cancelled ? 'cancelled' : 'success');
      }
    }, PAYMENT_POLL_MS);
  });
}

function safeSearch(win: Window): string {
  try {
    return win.location.search;
  } catch {
    return '';
  }
}
