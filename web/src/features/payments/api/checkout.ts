import type { CheckoutAnswer, CheckoutBody } from '../../../../../common/api/payments';
import { api } from '../../../lib/api';

/** A hosted checkout session for a top-up; the answer is the provider's page to send the payment tab to. */
export const createCheckout = (body: CheckoutBody, actionKey: string): Promise<CheckoutAnswer> =>
  api<CheckoutAnswer>('/api/payment/checkout', { body, idempotencyKey: actionKey });
