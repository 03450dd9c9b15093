import { Type, type Static, type TLiteral, type TUnion } from 'typebox';
import { MAX_BLOCKED_WORD_LENGTH, MAX_BLOCKED_WORDS, MAX_MODERATION_TEXT } from '../moderation';
import { Nullable } from './shared';

/* Moderation's calls (docs/product.md#moderation): decisions on reports, appeals, the public log, blocked words. */

/** One literal per value; typed as their union (a mapped array alone would be typed `never`). */
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

export const ModeratedType = literals(['COMMENT', 'CHAT', 'PICTURE'] as const);
export const ModerationCategory = literals([
  'personal-abuse',
  'advertisement',
  'propaganda',
  'hate-speech',
  'spam',
  'other',
  'illegal-content',
] as const);
export const ModerationAction = literals(['dismiss', 'remove'] as const);
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
  status: literals(['PENDING', 'UPHELD', 'REVERSED'] as const),
  text: Type.String(),
  /** When an admin decided the appeal; null while it is pending. */
  decidedOn: Nullable(Time),
});
export type Appeal = Static<typeof Appeal>;

/** GET /api/user/moderation (signed in): the decisions on the user's own content, newest first. */
export const UserDecision = Type.Object({
  decisionId: Type.Integer(),
  contentType: ModeratedType,
  contentId: Type.Integer(),
  action: ModerationAction,
  category: ModerationCategory,
  reasons: Type.String(),
  /** Whether the decision suspended the author; `suspendedUntil` null with `suspended` true is for good. */
  suspended: Type.Boolean(),
  suspendedUntil: Nullable(Time),
  /** Cents refunded to the author (0: none). */
  refunded: Type.Integer(),
  decidedOn: Time,
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
  outcome: literals(['uphold', 'reverse'] as const),
  reasons: Reasons,
});
export type DecideAppealBody = Static<typeof DecideAppealBody>;

/** GET /api/admin/appeals (admin): the appeals waiting for a decision, oldest first. */
export const AdminAppeal = Type.Object({
  decisionId: Type.Integer(),
  contentType: ModeratedType,
  contentId: Type.Integer(),
  category: ModerationCategory,
  action: ModerationAction,
  /** The decision's statement of reasons. */
  reasons: Type.String(),
  appealText: Type.String(),
  appealedOn: Time,
  /** The admin who made the decision (another admin handles the appeal when there is one). */
  decidedBy: Type.Optional(Type.Object({ id: Type.Integer(), username: Type.String() })),
});
export type AdminAppeal = Static<typeof AdminAppeal>;
export const AdminAppeals = Type.Array(AdminAppeal);
export type AdminAppeals = Static<typeof AdminAppeals>;

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
  appeal: Nullable(literals(['UPHELD', 'REVERSED'] as const)),
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
