import type { ChatMessage } from './api/chat';
import type { Comment } from './api/comments';
import type { NewNotificationMessage, NotificationsReadMessage } from './api/notifications';
import type { MarketItemMessage } from './market';

/**
 * The live connection's messages, typed once for the hub and the web client (docs/product.md#live).
 * Every frame is an envelope {ch, t, m}.
 */
export interface ValueMessage {
  value: number;
}

export interface FundMessage {
  pictureId: number;
  /** True when the author paid into their own picture (that also moves it on their profile). */
  authorFund: boolean;
  fundAmount: number;
  fundOn: string;
}

export interface AuthorMessage {
  authorId: number;
  authorProfileImgId: number;
  authorProfileUrl: string;
}

export interface ControlError {
  message: string;
  /** The channel the refused frame named, when it named one. */
  channel?: string;
}

/** Channel → topic → payload. Later features add their channels here. */
export interface LiveChannels {
  control: {
    subscribe: { channel: string };
    unsubscribe: { channel: string };
    ping: Record<string, never>;
    /** The server's answer to a client `ping`. */
    pong: Record<string, never>;
    /** The server's answer to a frame it could not take; the socket stays open. */
    error: ControlError;
    /**
     * Between instances only, never sent to a client: a session was signed out, so the sockets opened with it must
     * stop hearing their user's private channels. `session` is the SHA-256 of the session token.
     */
    sessionEnded: { session: string };
    /**
     * From the server: events meant for this socket may have been lost (its instance lost Redis for a while, or
     * an event could not be published), so refetch what is shown. The socket and its subscriptions stay as they
     * were. Also carried between instances, when an instance's own publish was lost.
     */
    resync: Record<string, never>;
  };
  balance: { update: ValueMessage };
  keyCount: { update: ValueMessage };
  lootBoxCount: { update: ValueMessage };
  picture: {
    fund: FundMessage;
    /** A user chose another profile picture: the cards of their pictures show the new face. */
    author: AuthorMessage;
  };
  /**
   * Every change of an item's book (docs/product.md#market). Subscribers get the public fields; a user whose
   * position changed gets one message with their `user*` fields instead, on their own sockets only.
   */
  market: { marketItem: MarketItemMessage };
  /** The General chat room (docs/product.md#chat): messages, the unit price on every change, signed-in users with it open. */
  chat: {
    textMessage: ChatMessage;
    newMessagePrice: { newPrice: number };
    /** Signed-in users with a socket on `chat`, on every instance, each counted once. */
    onlineUserCount: { count: number };
  };
  /**
   * A user's own notices: `missedMessage` counts chat messages since they last had the room open;
   * `newNotification` says a notification event was recorded for them (the client refetches its count and lists);
   * `notificationsRead` says they read some or all in one of their tabs, so the others refetch too.
   */
  notification: {
    missedMessage: ValueMessage;
    newNotification: NewNotificationMessage;
    notificationsRead: NotificationsReadMessage;
  };
  /**
   * A picture's comments (docs/product.md#comments), the whole presented comment with its `pictureId`: `commentCreated`
   * for a new top-level comment; `commentUpdated` with the top-level comment after a reply to it, a reaction on it
   * or on one of its replies, or its pin. Clients apply it only when the picture id matches the one shown.
   */
  comment: { commentCreated: Comment; commentUpdated: Comment };
  /**
   * Donation links (charity tenants): a link was sent, or an administrator decided it. Only the link's id travels,
   * nothing of who sent it or what was decided: a screen listing links refetches its list (docs/decisions.md
   * "Screens that change with the live connection").
   */
  donations: { linkSent: DonationLinkEvent; linkDecided: DonationLinkEvent };
  /**
   * Moderation (docs/product.md#moderation), public: content was removed by a decision, or restored by a reversed
   * appeal. Every client drops it from (or refetches it into) whatever it shows.
   */
  moderation: { contentRemoved: ModeratedContent; contentRestored: ModeratedContent };
}

/** A comment or reply, a chat message or a picture, by id. */
export interface ModeratedContent {
  contentType: 'COMMENT' | 'CHAT' | 'PICTURE';
  contentId: number;
}

export interface DonationLinkEvent {
  id: number;
}

export type Channel = keyof LiveChannels;
export type Topic<C extends Channel> = keyof LiveChannels[C] & string;
export type Payload<C extends Channel, T extends Topic<C>> = LiveChannels[C][T];

/** Every topic of any channel in C (distributes over a union, where `Topic<C>` would keep only shared ones). */
export type AnyTopic<C extends Channel> = C extends Channel ? Topic<C> : never;

/**
 * A frame whose payload matches its channel and topic. Left open (`Envelope`, `Envelope<'balance'>`) it is the union
 * of every valid {ch, t, m}, so narrowing on `ch` and `t` narrows `m`.
 */
export type Envelope<C extends Channel = Channel, T extends AnyTopic<C> = AnyTopic<C>> = {
  [K in C]: { [U in Topic<K> & T]: { ch: K; t: U; m: Payload<K, U> } }[Topic<K> & T];
}[C];

/**
 * An event on its way to sockets, as the bus carries it between instances. `userId` set: only that user's sockets
 * receive it; `session` too: only the sockets opened with that session. `except`: a public event that those users'
 * sockets skip (they get a message of their own). None of them is ever sent.
 */
export type LiveEvent = Envelope & { userId?: number; session?: string; except?: number[] };

/**
 * Who hears an event (docs/ARCHITECTURE.md "Live events"): every socket following the channel (`public`), one user's
 * sockets, the sockets of one session, everyone but some users (who get a message of their own), or, wrapped in
 * `thisInstance`, one of those on this instance's sockets only (a notice each instance computes for its own sockets).
 */
export type Audience =
  | { kind: 'public' }
  | { kind: 'user'; userId: number }
  | { kind: 'session'; userId: number; session: string }
  | { kind: 'allExcept'; userIds: number[] }
  | { kind: 'thisInstance'; of: BusAudience };

/** An audience the bus carries to every instance. */
export type BusAudience = Exclude<Audience, { kind: 'thisInstance' }>;

/** The audiences of a private channel: its events name their user. */
export type PrivateAudience =
  | Extract<Audience, { kind: 'user' | 'session' }>
  | { kind: 'thisInstance'; of: Extract<BusAudience, { kind: 'user' | 'session' }> };

/** Builders of each audience: `work.emit('balance', 'update', { value }, audience.user(id))`. */
export const audience = {
  public: () => ({ kind: 'public' }) as const,
  user: (userId: number) => ({ kind: 'user', userId }) as const,
  session: (userId: number, session: string) => ({ kind: 'session', userId, session }) as const,
  allExcept: (userIds: number[]) => ({ kind: 'allExcept', userIds }) as const,
  thisInstance: <A extends BusAudience>(of: A) => ({ kind: 'thisInstance', of }) as const,
};

/** The private channels: each event names its user (`PrivateAudience`); only signed-in sockets follow them. */
const PRIVATE = ['balance', 'keyCount', 'lootBoxCount', 'notification'] as const satisfies readonly Channel[];
export type PrivateChannel = (typeof PRIVATE)[number];

/** Who may hear an event of channel C: a private channel's event names its user, others default to the public. */
export type AudienceOf<C extends Channel> = C extends PrivateChannel ? [to: PrivateAudience] : [to?: Audience];

/**
 * Builds an event from its parts, checked against the channel map. The one place the parts are joined into the
 * union: TypeScript cannot see that a `C` and a `T` that fit each other make one of its members. `thisInstance` is
 * the unit of work's business (it hands such events to this instance's hub, not the bus); here it is its inner one.
 */
export function liveEvent<C extends Channel, T extends Topic<C>>(
  channel: C,
  topic: T,
  payload: Payload<C, T>,
  to: Audience = { kind: 'public' },
): LiveEvent {
  const event = { ch: channel, t: topic, m: payload } as unknown as LiveEvent;
  switch (to.kind) {
    case 'public':
      return event;
    case 'user':
      return { ...event, userId: to.userId };
    case 'session':
      return { ...event, userId: to.userId, session: to.session };
    case 'allExcept':
      return { ...event, except: to.userIds };
    case 'thisInstance':
      return liveEvent(channel, topic, payload, to.of);
  }
}

/** Channels whose messages reach only the user they belong to. */
export const PRIVATE_CHANNELS: ReadonlySet<string> = new Set(PRIVATE);

export const LIVE_PATH = '/api/wss/universal';

/** How many channels one socket may follow at once; a subscribe past it is refused with a control error. */
export const MAX_LIVE_SUBSCRIPTIONS = 64;

/** Channel names a client may subscribe to: a letter, then letters, digits and `_.:-`, 64 characters at most. */
export const CHANNEL_NAME = /^[A-Za-z][\w.:-]{0,63}$/;
