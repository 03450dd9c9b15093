import type { Payment } from './payments.repository';
import { dollars } from './payments.service';

/**
 * The demo provider's hosted checkout page. The app's CSP allows scripts from 'self' only, so the page carries no
 * inline script: its behaviour is the separate DEMO_CHECKOUT_JS served beside it.
 */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  body { margin: 0; min-height: 100vh; display: grid; grid-template-rows: auto 1fr; place-items: center;
         background: #f2f4f7; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2330; }
  main { box-sizing: border-box; width: min(92vw, 380px); background: #fff; border-radius: 12px; padding: 28px;
         box-shadow: 0 8px 30px rgba(0, 0, 0, 0.12); text-align: center; }
  .demo-banner { justify-self: stretch; margin: 0 0 24px; padding: 10px 16px; background: #b42318; color: #fff;
                 font-size: 15px; font-weight: 700; text-align: center; }
  .demo { display: inline-block; margin: 0 0 12px; padding: 2px 10px; border-radius: 999px;
          background: #fff3cd; color: #7a5900; font-size: 13px; font-weight: 600; }
  h1 { margin: 0 0 4px; font-size: 20px; }
  .amount { margin: 8px 0 16px; font-size: 36px; font-weight: 700; }
  .note { color: #5b6474; font-size: 14px; }
  .actions { display: flex; gap: 12px; margin-top: 20px; }
  button { flex: 1; padding: 12px; border: 0; border-radius: 8px; font-size: 16px; font-weight: 600; cursor: pointer; }
  button:disabled { opacity: 0.6; cursor: default; }
  #pay { background: #2457d6; color: #fff; }
  #cancel { background: #e6e9ef; color: #1d2330; }
  #message { min-height: 1.5em; margin: 16px 0 0; color: #b42318; }
`;

/**
 * Shown across the top of every demo page, so nobody takes it for a real checkout, and an operator who reached it by
 * mistake in production (Stripe keys missing) sees at once that top-ups are free here.
 */
export const DEMO_BANNER = 'DEMO PAYMENTS: no card is charged and no real money moves. Pay adds balance for free.';

function layout(title: string, body: string, paymentId = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>${STYLE}</style>
<script src="/demo-checkout/checkout.js" defer></script>
</head>
<body data-payment-id="${escape(paymentId)}">
<p class="demo-banner" role="alert">${DEMO_BANNER}</p>
<main>
<p class="demo">Demo payment provider</p>
${body}
</main>
</body>
</html>`;
}

const ENDED: Record<Exclude<Payment['status'], 'open'>, string> = {
  paid: 'This payment is already paid.',
  cancelled: 'This payment was cancelled.',
  expired: 'This payment has expired.',
  failed: 'This payment could not be started.',
};

export function renderCheckoutPage(payment: Payment): string {
  const amount = dollars(payment.amount);
  if (payment.status !== 'open') {
    const landing = payment.status === 'paid' ? 'success' : 'cancel';
    return layout(
      'Demo checkout',
      `<h1>Balance top-up</h1>
<p class="amount">${amount}</p>
<p>${ENDED[payment.status]}</p>
<p><a href="/close-the-window?status=${landing}">Close this window</a></p>`,
    );
  }
  return layout(
    `Pay ${amount} (demo)`,
    `<h1>Balance top-up</h1>
<p class="amount">${amount}</p>
<p class="note">This is a demo payment provider: no card is charged and no real money moves.
Pay adds ${amount} to your balance.</p>
<div class="actions">
<button id="pay" type="button" data-action="pay">Pay</button>
<button id="cancel" type="button" data-action="cancel">Cancel</button>
</div>
<p id="message" role="status" aria-live="polite"></p>`,
    payment.id,
  );
}

export function renderMissingPage(signedIn: boolean): string {
  return layout(
    'Demo checkout',
    signedIn
      ? '<h1>No such payment</h1><p>This payment does not exist or belongs to another account.</p>'
      : '<h1>Sign in first</h1><p>Sign in on the site, then start the top-up again.</p>',
  );
}

/** Pay or Cancel, then land on /close-the-window, which the opener's poll recognises. */
export const DEMO_CHECKOUT_JS = `'use strict';
(function () {
  var id = document.body.getAttribute('data-payment-id');
  var message = document.getElementById('message');
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-action]'));
  if (!id || !message) return;
  function setBusy(busy) {
    buttons.forEach(function (b) { b.disabled = busy; });
  }
  function act(action) {
    setBusy(true);
    message.textContent = '';
    fetch('/api/payment/demo/' + encodeURIComponent(id) + '/' + action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: '{}'
    })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          if (res.ok || res.status === 409) {
            window.location.assign('/close-the-window?status=' + (body.status === 'paid' ? 'success' : 'cancel'));
            return;
          }
          message.textContent = (body && body.message) || 'Something went wrong. Please try again.';
          setBusy(false);
        });
      })
      .catch(function () {
        message.textContent = 'Could not reach the server. Please try again.';
        setBusy(false);
      });
  }
  buttons.forEach(function (b) {
    b.addEventListener('click', function () { act(b.getAttribute('data-action')); });
  });
})();
`;
