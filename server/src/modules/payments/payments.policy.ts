import { policy } from '../../http/authorization';
import { forbidden, notFound } from '../../http/errors';
import type { Payment } from './payments.repository';

/*
 * The payments domain's rules (docs/ARCHITECTURE.md "server/src/http/": the rule vocabulary). A payment is its
 * owner's alone; whether it exists at all (404) is the service's to say before any rule is asked.
 */
const isOwner = (actor: { id: number } | null, payment: Payment) => payment.userId === actor?.id;

export const paymentsPolicy = policy('payments', {
  /** Reading a payment: another user's is 403. */
  read: { allow: isOwner, refuse: () => forbidden('This payment belongs to another user.') },
  /** The demo buttons settle the owner's demo payments only: a card payment (settled by its provider) is 404. */
  settleDemo: {
    allow: (actor, payment: Payment) => isOwner(actor, payment) && payment.provider === 'demo',
    refuse: () => notFound('No such payment.'),
  },
  /** The demo checkout page shows its owner's demo payment; anything else looks like nothing at all. */
  viewDemoCheckout: {
    base: 'public',
    allow: (actor, payment: Payment) => isOwner(actor, payment) && payment.provider === 'demo',
  },
});
