import { randomUUID } from 'node:crypto';

/** A browser on the cluster's address, as its tests drive it: a cookie of its own and a same-site Origin. */
export class SiteClient {
  cookie = '';

  constructor(private readonly base: string) {}

  async call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(`${this.base}${url}`, {
      method,
      headers: {
        origin: this.base,
        cookie: this.cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (set.length) this.cookie = set.join('; ');
    return res;
  }

  /** Registers `name` and keeps its session. */
  async signUp(name: string): Promise<void> {
    const res = await this.call('POST', '/api/auth/register', {
      username: name,
      password: 'secret-pass-1',
      email: `${name}@example.com`,
    });
    if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  }

  /** Opens a checkout of `amount` cents with the demo provider, as the checkout page does; answers its id. */
  async checkout(amount: number): Promise<string> {
    const res = await this.call('POST', '/api/payment/checkout', { amount, url: '/profile' });
    if (res.status !== 200) throw new Error(`checkout answered ${res.status}: ${await res.text()}`);
    return new URL(((await res.json()) as { url: string }).url).pathname.split('/').pop()!;
  }

  /** Pays a checkout under `key` (a retry of the same payment sends the same key); answers the response. */
  pay(checkoutId: string, key: string): Promise<Response> {
    return this.call('POST', `/api/payment/demo/${checkoutId}/pay`, {}, { 'idempotency-key': key });
  }

  /** Tops up through the demo provider; answers the new balance. */
  async topUp(amount: number): Promise<number> {
    const paid = await this.pay(await this.checkout(amount), randomUUID());
    if (paid.status !== 200) throw new Error(`payment answered ${paid.status}: ${await paid.text()}`);
    return ((await paid.json()) as { balance: number }).balance;
  }
}
