import { Type, type Static } from 'typebox';
import { MAX_REPORT_DESCRIPTION } from '../reports';

/** POST /api/user/report-message (docs/product.md#reports): one report per user and message. */
export const ReportBody = Type.Object({
  messageId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  reason: Type.Union([
    Type.Literal('personal-abuse'),
    Type.Literal('advertisement'),
    Type.Literal('propaganda'),
    Type.Literal('hate-speech'),
    Type.Literal('spam'),
    Type.Literal('other'),
  ]),
  description: Type.String({ minLength: 1, maxLength: MAX_REPORT_DESCRIPTION }),
  type: Type.Union([Type.Literal('COMMENT'), Type.Literal('CHAT'), Type.Literal('PICTURE')]),
});
export type ReportBody = Static<typeof ReportBody>;

export const ReportAnswer = Type.Object({ id: Type.Integer() });
export type ReportAnswer = Static<typeof ReportAnswer>;
