import type { SessionUser } from '../../http/auth';
import { forbidden, notFound } from '../../http/errors';
import type { Payment } from './payments.repository';

/*
 * Every ownership check of the payments domain. payments.policy.test.ts proves another user is refused on every
 * route that takes a payment id.
 */

/** A payment is its owner's alone: an unknown id is 404, another user's 403. */
export function authorizePayment(user: SessionUser, payment: Payment | undefined): Payment {
  if (!payment) throw notFound('No such payment.');
  if (payment.userId !== user.id) throw forbidden('This payment belongs to another user.');
  return payment;
}

/** The demo buttons settle demo payments only: a card payment is settled by its provider alone. */
export function authorizeDemoSettlement(user: SessionUser, payment: Payment | undefined): Payment {
  const own = authorizePayment(user, payment);
  if (own.provider !== 'demo') throw notFound('No such payment.');
  return own;
}

/** The demo checkout page shows only its owner's open demo payment; anything else looks like nothing at all. */
export const mayViewDemoCheckout = (user: SessionUser, payment: Payment | undefined): payment is Payment =>
  payment !== undefined && payment.provider === 'demo' && payment.userId === user.id;
