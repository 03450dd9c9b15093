import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';

/**
 * What every actor of the chaos run shares: the instances to call, a client that behaves like the web client
 * (session cookie, same-site Origin, one Idempotency-Key per user action, retrying a call whose outcome it could not
 * learn with the same key), the record of every answer per kind, and the acknowledgements to check at the end.
 */

/** One answer; status 0 when none came (refused, reset, timed out). */
export interface Answer {
  status: number;
  body: unknown;
}

/** An answer of 200 to a call with an Idempotency-Key: the database must hold it, and the same answer for a replay. */
export interface Ack {
  kind: string;
  username: string;
  key: string;
  body: unknown;
}

/** Where calls go: an instance (the local run), or HAProxy in front of them (`--cluster`). */
export interface Target {
  name: string;
  /** `http://host:port`. */
  base: string;
  /** /api/health's status, 0 when none came. */
  health(): Promise<number>;
  /** Waits until /api/health answers 200; answers how long that took. */
  waitHealthy(ms?: number): Promise<number>;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** One kind of money traffic. Each file in actors/ exports a factory of one; run.ts finds them all. */
export interface Actor {
  name: string;
  run(t: Traffic): Promise<void>;
  /** Checks that what this actor saw acknowledged is in the database, and nothing more. */
  verify(db: pg.Client, t: Traffic): Promise<Check[]>;
}

interface KindStats {
  sent: number;
  ok: number;
  unavailable: number;
  noAnswer: number;
  other: Map<number, number>;
  /** The first answer of each other status, to say what it was. */
  samples: Map<number, string>;
}

/** How long after the traffic window a call whose outcome is unknown keeps being retried before it counts as unsettled. */
const SETTLE_GRACE_MS = 30_000;
const PASSWORD = 'chaos-password-1';

export class Traffic {
  readonly stats = new Map<string, KindStats>();
  readonly acks: Ack[] = [];
  /** Calls given up on without a definitive answer: they may or may not have happened. */
  readonly unsettled: { kind: string; username: string; key?: string }[] = [];
  readonly replayMismatches: string[] = [];
  /** Usernames whose registration was answered 200. */
  readonly registered: string[] = [];
  private readonly runId = randomBytes(3).toString('hex');
  private userSeq = 0;

  constructor(
    /** Where calls go, one picked at random per call. */
    readonly targets: Target[],
    private readonly endsAt: number,
    /** The run's database, for what an operator does there (the admin command: forwarding goodwill, granting rights). */
    readonly databaseUrl: string,
  ) {}

  /** When the last disruption was over (undefined until then). */
  private disruptedUntil: number | undefined;

  /** The disruptions are over: traffic ends at `endsAt`, or now if that has passed. */
  disruptionsOver(): void {
    this.disruptedUntil = Date.now();
  }

  /** Traffic lasts its window, and goes on until the last disruption is over: each meets traffic. */
  private get endedAt(): number {
    return Math.max(this.endsAt, this.disruptedUntil ?? Number.POSITIVE_INFINITY);
  }

  /** True while traffic should go on. */
  get running(): boolean {
    return Date.now() < this.endedAt;
  }

  get settling(): boolean {
    return Date.now() < this.endedAt + SETTLE_GRACE_MS;
  }

  pick(): Target {
    return this.targets[Math.floor(Math.random() * this.targets.length)]!;
  }

  nextUsername(): string {
    return `c${this.runId}_${++this.userSeq}`;
  }

  record(kind: string, answer: Answer): void {
    let s = this.stats.get(kind);
    if (!s)
      this.stats.set(kind, (s = { sent: 0, ok: 0, unavailable: 0, noAnswer: 0, other: new Map(), samples: new Map() }));
    s.sent++;
    if (answer.status === 200) s.ok++;
    else if (answer.status === 503) s.unavailable++;
    else if (answer.status === 0) s.noAnswer++;
    else {
      s.other.set(answer.status, (s.other.get(answer.status) ?? 0) + 1);
      if (!s.samples.has(answer.status)) s.samples.set(answer.status, JSON.stringify(answer.body).slice(0, 160));
    }
  }

  /** Acknowledged 200s per kind, for the report. */
  acknowledged(kind: string): number {
    return this.stats.get(kind)?.ok ?? 0;
  }

  async signUp(): Promise<Session> {
    for (;;) {
      const session = new Session(this, this.nextUsername());
      const res = await session.settle('register', 'POST', '/api/auth/register', {
        json: { username: session.username, password: PASSWORD, email: `${session.username}@chaos.test` },
      });
      if (res.status === 200) {
        this.registered.push(session.username);
        return session;
      }
      // A registration whose answer was lost may have gone through; signing in tells, and gives a session.
      const login = await session.settle('login', 'POST', '/api/auth/login/basic', {
        json: { username: session.username, password: PASSWORD },
      });
      if (login.status === 200) return session;
      if (!this.settling) throw new Error('traffic ended before a user could sign up');
    }
  }
}

export interface CallOptions {
  json?: unknown;
  /** Multipart: built anew for each try, from the same bytes. */
  form?: () => FormData;
  key?: string;
  /**
   * The host the call names (Host and Origin), sent to the instance's address all the same: a tenant other than the
   * instance's own (a charity host, docs/product.md#tenants). fetch() keeps the URL's host, so such calls go out
   * through node:http, which sends the Host it is given.
   */
  host?: string;
}

/** One signed-in user, like one browser: its cookie works on every instance (sessions live in the database). */
export class Session {
  private cookie = '';

  constructor(
    private readonly t: Traffic,
    readonly username: string,
  ) {}

  async call(kind: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    const instance = this.t.pick();
    const headers: Record<string, string> = { origin: instance.base };
    if (this.cookie) headers.cookie = this.cookie;
    if (opts.key) headers['idempotency-key'] = opts.key;
    let body: string | FormData | undefined;
    if (opts.form) body = opts.form();
    else if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    let answer: Answer;
    try {
      if (opts.host) {
        if (opts.form) throw new Error('a multipart call names its instance');
        headers.origin = `http://${opts.host}`;
        const res = await hostedRequest(`${instance.base}${path}`, opts.host, method, headers, body as string);
        const sid = res.setCookie.find((c) => c.startsWith('sid='));
        if (sid) this.cookie = sid.split(';')[0]!;
        answer = { status: res.status, body: parse(res.text) };
      } else {
        const res = await fetch(`${instance.base}${path}`, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(20_000),
        });
        const sid = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
        if (sid) this.cookie = sid.split(';')[0]!;
        const text = await res.text();
        answer = { status: res.status, body: parse(text) };
      }
    } catch {
      answer = { status: 0, body: undefined };
    }
    this.t.record(kind, answer);
    return answer;
  }

  /**
   * Calls until the answer is definitive, as a client should when it cannot know whether a call went through: again
   * with the same Idempotency-Key after a 503 or no answer, so it happens once at most. Answers the last answer.
   */
  async settle(kind: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
      const answer = await this.call(kind, method, path, opts);
      if (answer.status !== 0 && answer.status !== 503) return answer;
      if (!this.t.settling) {
        this.t.unsettled.push({ kind, username: this.username, key: opts.key });
        return answer;
      }
      await sleep(pause);
    }
  }

  /** A money call under a fresh key; a 200 is recorded as acknowledged and then replayed, which must change nothing. */
  async pay(kind: string, method: string, path: string, opts: Omit<CallOptions, 'key'> = {}): Promise<Answer> {
    const key = `${kind}-${randomBytes(8).toString('hex')}`;
    const answer = await this.settle(kind, method, path, { ...opts, key });
    if (answer.status !== 200) return answer;
    this.t.acks.push({ kind, username: this.username, key, body: answer.body });
    if (Math.random() < 0.3) {
      const replay = await this.settle(`${kind} replay`, method, path, { ...opts, key });
      // A user suspended since is refused at the door before the key is read (a 403 stores and replays nothing:
      // docs/decisions.md, "A suspension waits for the calls in flight"); that changed nothing either.
      const suspendedSince =
        replay.status === 403 &&
        (replay.body as { suspendedUntil?: unknown } | undefined)?.suspendedUntil !== undefined;
      if (!suspendedSince && (replay.status !== 200 || !sameJson(replay.body, answer.body))) {
        this.t.replayMismatches.push(`${kind} ${key}: first ${JSON.stringify(answer.body)}, replay ${replay.status}`);
      }
    }
    return answer;
  }
}

/** Equal as JSON values, whatever the order of keys (PostgreSQL's jsonb keeps its own order). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** One call with the Host header `host`, to the address of `url`; 20 s at most, like the fetch() calls. */
function hostedRequest(
  url: string,
  host: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; text: string; setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, host }, timeout: 20_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          setCookie: res.headers['set-cookie'] ?? [],
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
