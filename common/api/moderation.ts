import { Type, type Static } from 'typebox';
import { MAX_BLOCKED_WORD_LENGTH, MAX_BLOCKED_WORDS, MAX_MODERATION_TEXT } from '../moderation';
import { Nullable } from './shared';

/* Moderation's calls (docs/product.md#moderation): decisions on reports, appeals, the public log, blocked words. */

export const ModeratedType = Type.Union([Type.Literal('COMMENT'), Type.Literal('CHAT'), Type.Literal('PICTURE')]);
export const ModerationCategory = Type.Union([
  Type.Literal('personal-abuse'),
  Type.Literal('advertisement'),
  Type.Literal('propaganda'),
  Type.Literal('hate-speech'),
  Type.Literal('spam'),
  Type.Literal('other'),
  Type.Literal('illegal-content'),
]);
export const ModerationAction = Type.Union([Type.Literal('dismiss'), Type.Literal('remove')]);
const Reasons = Type.String({ minLength: 1, maxLength: MAX_MODERATION_TEXT });
const Time = Type.String({ description: 'ISO 8601' });

/** POST /api/admin/reports/decide (admin): decides every open report of the reported content at once. */
export const DecideReportBody = Type.Object({
  reportId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  action: ModerationAction,
  category: ModerationCategory,
  reasons: Reasons,
  suspendDays: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(7), Type.Literal(30), Type.Literal(0)], {
      description: 'Suspend the author for 1, 7 or 30 days, or 0 for good',
    }),
  ),
  refund: Type.Optional(Type.Boolean({ description: 'Refund the spend on the removed content to its author' })),
});
export type DecideReportBody = Static<typeof DecideReportBody>;

export const DecideReportAnswer = Type.Object({
  decisionId: Type.Integer(),
  action: ModerationAction,
  contentType: ModeratedType,
  contentId: Type.Integer(),
  /** Every report of the content, decided by this one decision. */
  reports: Type.Array(Type.Integer()),
});
export type DecideReportAnswer = Static<typeof DecideReportAnswer>;

export const Appeal = Type.Object({
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('UPHELD'), Type.Literal('REVERSED')]),
  text: Type.String(),
  /** When an admin decided the appeal; null while it is pending. */
  decidedOn: Nullable(Time),
});
export type Appeal = Static<typeof Appeal>;

/** What the author's list and the console's appeals both say of a decision. */
const DecisionFields = {
  decisionId: Type.Integer(),
  contentType: ModeratedType,
  contentId: Type.Integer(),
  action: ModerationAction,
  category: ModerationCategory,
  /** The decision's statement of reasons. */
  reasons: Type.String(),
  /** Whether the decision suspended the author; `suspendedUntil` null with `suspended` true is for good. */
  suspended: Type.Boolean(),
  suspendedUntil: Nullable(Time),
  /** Cents refunded to the author (0: none). */
  refunded: Type.Integer(),
  decidedOn: Time,
};

/** GET /api/user/moderation (signed in): the decisions on the user's own content, newest first. */
export const UserDecision = Type.Object({
  ...DecisionFields,
  /** The last moment an appeal may be sent. */
  appealUntil: Time,
  appeal: Nullable(Appeal),
});
export type UserDecision = Static<typeof UserDecision>;
export const UserDecisions = Type.Array(UserDecision);
export type UserDecisions = Static<typeof UserDecisions>;

/** POST /api/user/moderation/appeal (signed in, the author): once, within 14 days. */
export const AppealBody = Type.Object({
  decisionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  text: Reasons,
});
export type AppealBody = Static<typeof AppealBody>;

/** POST /api/admin/appeals/decide (admin). */
export const DecideAppealBody = Type.Object({
  decisionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  outcome: Type.Union([Type.Literal('uphold'), Type.Literal('reverse')]),
  reasons: Reasons,
});
export type DecideAppealBody = Static<typeof DecideAppealBody>;

/** GET /api/moderation-log?cursor= (public), newest first: no user ids, names or text. */
export const ModerationLogQuery = Type.Object({
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The cursor of the previous page' })),
});
export type ModerationLogQuery = Static<typeof ModerationLogQuery>;

export const ModerationLogEntry = Type.Object({
  decidedOn: Time,
  contentType: ModeratedType,
  category: ModerationCategory,
  action: ModerationAction,
  suspended: Type.Boolean(),
  appeal: Nullable(Type.Union([Type.Literal('UPHELD'), Type.Literal('REVERSED')])),
});
export type ModerationLogEntry = Static<typeof ModerationLogEntry>;

export const ModerationLog = Type.Object({
  entries: Type.Array(ModerationLogEntry),
  /** Pass it back for the next (older) page; null at the end. */
  cursor: Nullable(Type.String()),
});
export type ModerationLog = Static<typeof ModerationLog>;

/** GET/PUT /api/admin/blocked-words (admin): matched case-insensitively as whole words. */
export const BlockedWords = Type.Object({
  words: Type.Array(Type.String({ minLength: 1, maxLength: MAX_BLOCKED_WORD_LENGTH }), {
    maxItems: MAX_BLOCKED_WORDS,
  }),
});
export type BlockedWords = Static<typeof BlockedWords>;

/** The 403 a suspended user's paid or writing call answers. */
export const Suspended = Type.Object({
  message: Type.String(),
  /** When the suspension ends; null for good. */
  suspendedUntil: Nullable(Time),
});
export type Suspended = Static<typeof Suspended>;

/** The answer of POST /api/user/moderation/appeal: the appeal as it now stands (PENDING). */
export const AppealAnswer = Appeal;
export type AppealAnswer = Static<typeof AppealAnswer>;

/** The answer of POST /api/admin/appeals/decide. */
export const DecideAppealAnswer = Type.Object({
  decisionId: Type.Integer(),
  status: Type.Union([Type.Literal('UPHELD'), Type.Literal('REVERSED')]),
});
export type DecideAppealAnswer = Static<typeof DecideAppealAnswer>;

/** GET /api/admin/appeals (admin): the appeals waiting for a decision, oldest first, for the console. */
export const AdminAppeal = Type.Object({
  ...DecisionFields,
  /** The admin who decided; another admin handles the appeal when there is one. */
  decidedBy: Type.Object({ id: Type.Integer(), username: Type.String() }),
  author: Type.Object({ id: Type.Integer(), username: Type.String() }),
  /** The removed text (a picture's title); null when there is none. */
  contentText: Nullable(Type.String()),
  appealText: Type.String(),
  appealedOn: Time,
});
export type AdminAppeal = Static<typeof AdminAppeal>;
export const AdminAppeals = Type.Array(AdminAppeal);
export type AdminAppeals = Static<typeof AdminAppeals>;
