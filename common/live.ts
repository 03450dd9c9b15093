/**
 * The live connection's messages, typed once for the hub and the web client (SPEC §7 "Live connection").
 * Every frame is an envelope {ch, t, m}.
 */
export interface ValueMessage {
  value: number;
}

export interface FundMessage {
  pictureId: number;
  authorFund: number;
  fundAmount: number;
  fundOn: string;
}

/** Channel → topic → payload. Later features add their channels here. */
export interface LiveChannels {
  control: { subscribe: { channel: string }; unsubscribe: { channel: string }; ping: Record<string, never> };
  balance: { update: ValueMessage };
  keyCount: { update: ValueMessage };
  lootBoxCount: { update: ValueMessage };
  picture: { fund: FundMessage };
}

export type Channel = keyof LiveChannels;
export type Topic<C extends Channel> = keyof LiveChannels[C] & string;
export type Payload<C extends Channel, T extends Topic<C>> = LiveChannels[C][T];

export interface Envelope<C extends Channel = Channel, T extends Topic<C> = Topic<C>> {
  ch: C;
  t: T;
  m: Payload<C, T>;
}

/** Channels whose messages reach only the user they belong to. */
export const PRIVATE_CHANNELS: ReadonlySet<string> = new Set(['balance', 'keyCount', 'lootBoxCount', 'notification']);

export const LIVE_PATH = '/api/wss/universal';
