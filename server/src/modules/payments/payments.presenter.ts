import type { PaymentAnswer } from '../../../../common/api/payments';
import type { Payment } from './payments.repository';

/** What the owner sees of a payment: never the provider's reference or where it returns to. */
export const presentPayment = (p: Payment): PaymentAnswer => ({ id: p.id, amount: p.amount, status: p.status });
