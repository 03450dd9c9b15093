import { Type } from 'typebox';
import { Message, FieldErrors } from '../../http/schemas';

export { Message, FieldErrors };

export const PaymentStatusSchema = Type.Union([
  Type.Literal('open'),
  Type.Literal('paid'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
  Type.Literal('failed'),
]);

export const CheckoutBody = Type.Object({
  /** Cents; checked by parseAmount so that strings and fractions are refused rather than coerced. */
  amount: Type.Unknown(),
  /** The page the user started from, kept with the payment. */
  url: Type.Optional(Type.String({ maxLength: 2048 })),
});

export const CheckoutAnswer = Type.Object({ url: Type.String() });

export const PaymentParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const PaymentAnswer = Type.Object({ id: Type.String(), amount: Type.Integer(), status: PaymentStatusSchema });

/** 409 on a settled demo payment: what it ended as. */
export const SettledAnswer = Type.Object({ message: Type.String(), status: PaymentStatusSchema });

export const WebhookAnswer = Type.Object({ received: Type.Literal(true) });
