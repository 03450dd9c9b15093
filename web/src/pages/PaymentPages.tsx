export function SuccessPage() {
  return (
    <section className="page">
      <h1>Payment Successful!</h1>
    </section>
  );
}

export function CancelPage() {
  return (
    <section className="page">
      <h1>Payment Cancelled.</h1>
    </section>
  );
}

/** Where the payment tab lands; the tab that opened it notices, shows the result and closes this one. */
export function CloseTheWindowPage() {
  const cancelled = new URLSearchParams(window.location.search).get('status') === 'cancel';
  return (
    <section className="page">
      <h1>{cancelled ? 'Payment cancelled' : 'Payment complete'}</h1>
      <p>You can close this window.</p>
      <button type="button" className="button" onClick={() => window.close()}>
        Close window
      </button>
    </section>
  );
}
