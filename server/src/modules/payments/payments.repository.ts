import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/connection';
import { payments, webhookEvents } from './payments.tables';

export type PaymentProvider = 'demo' | 'stripe';
/** open -> paid | cancelled (demo) | expired (Stripe) | failed (the provider could not be reached). */
export type PaymentStatus = 'open' | 'paid' | 'cancelled' | 'expired' | 'failed';

export interface Payment {
  id: string;
  userId: number;
  provider: PaymentProvider;
  providerRef: string | null;
  amount: number;
  status: PaymentStatus;
}

const columns = {
  id: payments.id,
  userId: payments.userId,
  provider: payments.provider,
  providerRef: payments.providerRef,
  amount: payments.amount,
  status: payments.status,
};

/** The provider and status columns are plain text that only this module writes, always from the unions above. */
const asPayment = (row: Omit<Payment, 'provider' | 'status'> & { provider: string; status: string }) => row as Payment;

export async function insertPayment(
  exec: Executor,
  p: { id: string; userId: number; provider: PaymentProvider; amount: number; returnUrl: string },
): Promise<void> {
  await exec.insert(payments).values({ ...p, status: 'open' });
}

export async function findPayment(exec: Executor, id: string): Promise<Payment | undefined> {
  const [row] = await exec.select(columns).from(payments).where(eq(payments.id, id));
  return row && asPayment(row);
}

/**
 * The Stripe payment a Checkout Session pays for: by the session id we stored, or, when storing it never happened
 * (the create call timed out on our side), by the payment id we put in the session's metadata.
 */
export async function findStripePayment(
  exec: Executor,
  sessionId: string,
  paymentId: string | undefined,
): Promise<Payment | undefined> {
  const byRef = and(eq(payments.provider, 'stripe'), eq(payments.providerRef, sessionId));
  const byId = paymentId
    ? and(eq(payments.provider, 'stripe'), eq(payments.id, paymentId), isNull(payments.providerRef))
    : undefined;
  const found = await exec
    .select(columns)
    .from(payments)
    .where(byId ? or(byRef, byId) : byRef);
  const match = found.find((p) => p.providerRef === sessionId) ?? found[0];
  return match && asPayment(match);
}

export async function setProviderRef(exec: Executor, id: string, providerRef: string): Promise<void> {
  await exec.update(payments).set({ providerRef }).where(eq(payments.id, id));
}

/**
 * Moves a payment from one of `from` to `to` and returns it, or returns undefined when it was not in one of those
 * states. This guarded update is what makes a payment settle once: concurrent callers queue on the row lock and
 * all but the first find the status already changed.
 */
export async function moveStatus(
  exec: Executor,
  id: string,
  from: PaymentStatus[],
  to: PaymentStatus,
  now: Date,
  providerRef?: string,
): Promise<Payment | undefined> {
  const [row] = await exec
    .update(payments)
    .set({ status: to, settledAt: to === 'failed' ? null : now, ...(providerRef ? { providerRef } : {}) })
    .where(and(eq(payments.id, id), inArray(payments.status, from)))
    .returning(columns);
  return row && asPayment(row);
}

export async function setEntry(tx: Tx, id: string, entryId: number): Promise<void> {
  await tx.update(payments).set({ entryId }).where(eq(payments.id, id));
}

/** Whether a Stripe event was already handled, so a redelivery is answered without work. */
export async function webhookEventSeen(exec: Executor, id: string): Promise<boolean> {
  const [seen] = await exec.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, id));
  return seen !== undefined;
}

export async function recordWebhookEvent(exec: Executor, id: string, type: string): Promise<void> {
  await exec.insert(webhookEvents).values({ id, type }).onConflictDoNothing();
}
