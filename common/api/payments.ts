import { Type, type Static } from 'typebox';
import { MAX_TOPUP_CENTS } from '../constants';
import { paidAnswer } from './shared';

/** open -> paid | cancelled (demo) | expired (Stripe) | failed (the provider could not be reached). */
export const PaymentStatus = Type.Union([
  Type.Literal('open'),
  Type.Literal('paid'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
  Type.Literal('failed'),
]);
export type PaymentStatus = Static<typeof PaymentStatus>;

export const CheckoutBody = Type.Object({
  /** Cents, at most six digits of dollars; the provider may ask more than 1 (Stripe: 50), which the service checks. */
  amount: Type.Integer({ minimum: 1, maximum: MAX_TOPUP_CENTS, description: 'Cents, a whole number' }),
  /** The page the user started from, kept with the payment. */
  url: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type CheckoutBody = Static<typeof CheckoutBody>;

export const CheckoutAnswer = Type.Object({ url: Type.String() });
export type CheckoutAnswer = Static<typeof CheckoutAnswer>;

export const PaymentParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const PaymentAnswer = Type.Object({ id: Type.String(), amount: Type.Integer(), status: PaymentStatus });
export type PaymentAnswer = Static<typeof PaymentAnswer>;
/** 200 of settling a demo checkout (pay credits the amount): the payment, and the payer's balance after it. */
export const DemoSettlement = paidAnswer(PaymentAnswer);
export type DemoSettlement = Static<typeof DemoSettlement>;

/** 409 on a settled demo payment: what it ended as. */
export const SettledAnswer = Type.Object({ message: Type.String(), status: PaymentStatus });
export type SettledAnswer = Static<typeof SettledAnswer>;

export const WebhookAnswer = Type.Object({ received: Type.Literal(true) });
