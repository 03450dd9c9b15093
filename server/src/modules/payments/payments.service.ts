import { randomUUID } from 'node:crypto';
import { MAX_TOPUP_CENTS } from '../../../../common/constants';
import type { AppContext } from '../../context';
import type { Work } from '../../db/unit-of-work';
import type { SessionUser } from '../../http/auth';
import { conflict, fieldError, notFound } from '../../http/errors';
import { creditTopUp } from '../../ledger/commands';
import { paymentsPolicy } from './payments.policy';
import {
  findPayment,
  insertPayment,
  moveStatus,
  setEntry,
  type Payment,
  type PaymentProvider,
  type PaymentStatus,
} from './payments.repository';

/** A hosted checkout: where the payment window goes once the payment row exists. */
export interface CheckoutProvider {
  name: PaymentProvider;
  /** Smallest amount the provider accepts, in cents. */
  minAmount: number;
  /** Answers the URL of the hosted checkout page, or throws an HttpError after marking the payment failed. */
  open(ctx: AppContext, payment: Payment, origin: string): Promise<string>;
}

export const dollars = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/**
 * The amount is checked by hand rather than by the route schema: Fastify's validator coerces "500" to 500, and a
 * top-up must be exactly what the user typed, a whole number of cents.
 */
export function parseAmount(value: unknown, minAmount: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw fieldError('amount', 'Enter the amount as a whole number of cents.');
  }
  if (value < minAmount) throw fieldError('amount', `The smallest top-up is ${dollars(minAmount)}.`);
  if (value > MAX_TOPUP_CENTS) throw fieldError('amount', `The largest top-up is ${dollars(MAX_TOPUP_CENTS)}.`);
  return value;
}

/**
 * The page to come back to, kept as a path of this site: an absolute URL is accepted only when it points here, so
 * the stored value can never send a user to another site.
 */
export function parseReturnUrl(
  raw: string | undefined,
  host: string | undefined,
  publicUrl: string | undefined,
): string {
  if (raw === undefined || raw === '') return '/';
  const here = (host ?? 'localhost').toLowerCase();
  let url: URL;
  try {
    url = new URL(raw, `http://${here}`);
  } catch {
    throw fieldError('url', 'The return page must be a page of this site.');
  }
  const allowed = new Set([here, publicUrl ? new URL(publicUrl).host.toLowerCase() : here]);
  if (!['http:', 'https:'].includes(url.protocol) || !allowed.has(url.host.toLowerCase())) {
    throw fieldError('url', 'The return page must be a page of this site.');
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Records an open payment and hands it to the provider; answers the hosted checkout URL. */
export async function startCheckout(
  ctx: AppContext,
  provider: CheckoutProvider,
  input: { userId: number; amount: number; returnUrl: string; origin: string },
): Promise<string> {
  const payment: Payment = {
    id: randomUUID(),
    userId: input.userId,
    provider: provider.name,
    providerRef: null,
    amount: input.amount,
    status: 'open',
  };
  await insertPayment(ctx.db, { ...payment, returnUrl: input.returnUrl });
  return provider.open(ctx, payment, input.origin);
}

/** A payment the caller owns (404 for an unknown id, 403 for another user's). */
export async function ownPayment(ctx: AppContext, user: SessionUser, id: string): Promise<Payment> {
  const payment = await findPayment(ctx.db, id);
  if (!payment) throw notFound('No such payment.');
  paymentsPolicy.authorize(user, 'read', payment);
  return payment;
}

/** A payment by id, for the provider pages that decide themselves what to show. */
export const paymentById = (ctx: AppContext, id: string): Promise<Payment | undefined> => findPayment(ctx.db, id);

/**
 * Credits a payment's amount to its owner if it is still in one of `from`, in the caller's transaction; answers
 * the payment after the call and whether this call was the one that credited it.
 */
export async function creditPayment(
  work: Work,
  ctx: AppContext,
  id: string,
  from: PaymentStatus[],
  providerRef?: string,
): Promise<{ payment: Payment | undefined; credited: boolean }> {
  const claimed = await moveStatus(work.tx, id, from, 'paid', ctx.now(), providerRef);
  if (!claimed) return { payment: await findPayment(work.tx, id), credited: false };
  const { entryId } = await creditTopUp(work, claimed.userId, claimed.amount, claimed.id);
  await setEntry(work.tx, claimed.id, entryId);
  return { payment: claimed, credited: true };
}

const settledText: Record<PaymentStatus, string> = {
  open: 'This payment is still open.',
  paid: 'This payment is already paid.',
  cancelled: 'This payment was cancelled.',
  expired: 'This payment has expired.',
  failed: 'This payment could not be started.',
};

/**
 * Demo Pay or Cancel. Repeating the action that settled a payment answers its status again and changes nothing;
 * the opposite action on a settled payment is a 409 carrying the status it ended in.
 */
export async function settleDemo(work: Work, ctx: AppContext, id: string, action: 'pay' | 'cancel'): Promise<Payment> {
  const target: PaymentStatus = action === 'pay' ? 'paid' : 'cancelled';
  const after =
    action === 'pay'
      ? (await creditPayment(work, ctx, id, ['open'])).payment
      : ((await moveStatus(work.tx, id, ['open'], 'cancelled', ctx.now())) ?? (await findPayment(work.tx, id)));
  if (!after) throw notFound('No such payment.');
  if (after.status !== target) throw conflict({ message: settledText[after.status], status: after.status });
  return after;
}
