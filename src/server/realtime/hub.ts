/**
 * Realtime: what the server pushes to a signed-in user's open tabs (issue 10).
 *
 * A domain (or the composition) calls `publish(userId, event)` once the write the event is
 * about has committed. Events carry ids only, plus a `cursor` where the client can use one
 * to fetch what it missed; the client re-reads through the API. Delivery is best effort:
 * on every (re)connect the client refetches, so a lost push costs a moment, never data.
 *
 * This file is the seam every domain codes against. The implementation behind it lives
 * beside it: fan-out.ts (PostgreSQL LISTEN/NOTIFY between processes, PGlite's own
 * listen/notify in one process) and sockets.ts (the WebSocket route, heartbeats, sessions).
 */
import type { FanOut } from './fan-out.js';
import type { Presence } from './presence.js';

export interface RealtimeEvent {
  /** 'message.new', 'message.read', 'typing', 'notification.new', 'unread.changed', ... */
  type: string;
  [field: string]: unknown;
}

/** Handles a message a client sent over its socket ('typing' ...); `userId` is the socket's signed-in user. */
export type ClientMessageHandler = (userId: string, message: Record<string, unknown>) => Promise<void> | void;

/** What the socket layer hears besides events: a user's sessions to re-check, or "resync everyone". */
export type RealtimeControl = { kind: 'recheck'; userId: string; signedOutSessionId?: string } | { kind: 'resync' };

export interface Realtime {
  /** Pushes `event` to every open socket of `userId`, on every app process. Never throws. */
  publish(userId: string, event: RealtimeEvent): Promise<void>;
  /**
   * Pushes several events (to one user or several) as one notification between processes:
   * one NOTIFY instead of one per event (a send's "new message" to both sides and the
   * recipient's badge). Split in several when they would not fit one payload. Never throws.
   */
  publishMany(events: [userId: string, event: RealtimeEvent][]): Promise<void>;
  /** Registers what to do with client messages of `type` (one handler per type). */
  onClientMessage(type: string, handler: ClientMessageHandler): void;
  /**
   * The unread badge (app shell) sums named counters: mailbox registers 'messages',
   * notifications 'notifications'. Publish { type: 'unread.changed' } when one changes.
   */
  registerUnreadCounter(name: string, count: (userId: string) => Promise<number>): void;
  /** Every registered counter for `userId` ({ messages: 2, notifications: 5 }). */
  unreadCounts(userId: string): Promise<Record<string, number>>;
  /**
   * Local listeners (tests, and the socket layer): called for every event published to
   * `userId` on this process. The user's first listener here makes them present
   * (presence.ts): `ready` resolves once that is committed, after which writes that gate
   * their publish on presence (a sent message) publish to them. Call the result to stop.
   */
  subscribe(userId: string, listener: (event: RealtimeEvent) => void): Subscription;
  /**
   * Runs the handler registered for a client message's `type` (the socket layer calls it);
   * false when no handler is registered. A handler's failure is logged, never thrown.
   */
  dispatchClientMessage(userId: string, message: { type: string } & Record<string, unknown>): Promise<boolean>;
  /**
   * Asks every process to re-check the sessions of `userId`'s open sockets now (after a
   * sign-out, a revoked device, a ban): a socket whose session ended is closed. Never throws.
   * `signedOutSessionId`: the session its own browser just signed out of; that session's
   * sockets are closed as "signed out", every other ended one as "session ended" (ADR 0023).
   */
  recheckSessions(userId: string, signedOutSessionId?: string): Promise<void>;
  /** The socket layer's control channel (recheck, resync after the fan-out reconnected). */
  onControl(listener: (control: RealtimeControl) => void): () => void;
}

/** Stops a local listener; `ready`: the user is present (see Realtime.subscribe). */
export type Subscription = (() => void) & { ready: Promise<void> };

/** PostgreSQL's NOTIFY refuses payloads of 8000 bytes or more; we stay clear of it. */
export const MAX_NOTIFY_BYTES = 7500;

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const silent: Logger = { warn() {}, error() {} };

/**
 * The wire format between processes: ids only ({ u: user, e: event }, { u, c: 'recheck', s?: signed-out session },
 * or several events at once: { m: [{ u, e }, ...] }).
 */
type Single = { u: string; e: RealtimeEvent } | { u: string; c: 'recheck'; s?: string };
type Envelope = Single | { m: { u: string; e: RealtimeEvent }[] };

/**
 * Realtime over a fan-out: `publish` hands `{u, e}` to the fan-out (pg_notify), and every
 * process (this one included) delivers what the fan-out hears to its local listeners.
 * Without a fan-out, delivery is in-process (one process, tests of the seam).
 */
export function createRealtime(
  opts: { fanOut?: FanOut; presence?: Presence; log?: Logger } = {},
): Realtime & { start(): Promise<void>; stop(): Promise<void> } {
  const log = opts.log ?? silent;
  const listeners = new Map<string, Set<(event: RealtimeEvent) => void>>();
  const controls = new Set<(control: RealtimeControl) => void>();
  const handlers = new Map<string, ClientMessageHandler>();
  const counters = new Map<string, (userId: string) => Promise<number>>();

  const control = (c: RealtimeControl) => {
    for (const listener of controls) {
      try {
        listener(c);
      } catch (err) {
        log.error({ err }, 'realtime control listener failed');
      }
    }
  };

  const deliver = (envelope: Envelope): void => {
    if ('m' in envelope) {
      for (const one of envelope.m) deliver(one);
      return;
    }
    if ('c' in envelope) {
      return control({ kind: 'recheck', userId: envelope.u, ...(typeof envelope.s === 'string' && { signedOutSessionId: envelope.s }) });
    }
    for (const listener of listeners.get(envelope.u) ?? []) {
      try {
        listener(envelope.e);
      } catch (err) {
        // A listener's failure is its own; the publisher carries on.
        log.error({ err }, 'realtime listener failed');
      }
    }
  };

  const receive = (payload: string) => {
    let envelope: unknown;
    try {
      envelope = JSON.parse(payload);
    } catch {
      return log.warn({ payload: payload.slice(0, 200) }, 'realtime: unreadable notification ignored');
    }
    if (!isEnvelope(envelope)) return log.warn({ payload: payload.slice(0, 200) }, 'realtime: unexpected notification ignored');
    deliver(envelope);
  };

  const send = async (envelope: Envelope) => {
    const payload = JSON.stringify(envelope);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
      log.error(
        { userId: 'u' in envelope ? envelope.u : undefined, bytes: Buffer.byteLength(payload) },
        'realtime: event too large to publish (send ids only)',
      );
      return;
    }
    if (!opts.fanOut) return deliver(JSON.parse(payload) as Envelope);
    try {
      await opts.fanOut.notify(payload);
    } catch (err) {
      // Best effort: the client refetches on its next reconnect.
      log.warn({ err: (err as Error).message }, 'realtime: publish failed');
    }
  };

  return {
    async start() {
      await opts.fanOut?.start({ onMessage: receive, onResync: () => control({ kind: 'resync' }) });
      opts.presence?.start(() => new Map([...listeners].map(([userId, set]) => [userId, set.size])));
    },
    async stop() {
      await opts.presence?.stop();
      await opts.fanOut?.stop();
    },
    registerUnreadCounter(name, count) {
      counters.set(name, count);
    },
    async unreadCounts(userId) {
      const entries = await Promise.all([...counters].map(async ([name, count]) => [name, await count(userId)] as const));
      return Object.fromEntries(entries);
    },
    publish(userId, event) {
      return send({ u: userId, e: event });
    },
    async publishMany(events) {
      if (events.length === 1) return send({ u: events[0][0], e: events[0][1] });
      // Chunks that fit one NOTIFY (ids only: dozens of events each).
      let chunk: { u: string; e: RealtimeEvent }[] = [];
      let bytes = 8;
      const sends: Promise<void>[] = [];
      for (const [u, e] of events) {
        const one = { u, e };
        const size = Buffer.byteLength(JSON.stringify(one)) + 1;
        if (chunk.length && bytes + size > MAX_NOTIFY_BYTES) {
          sends.push(send({ m: chunk }));
          chunk = [];
          bytes = 8;
        }
        chunk.push(one);
        bytes += size;
      }
      if (chunk.length) sends.push(send({ m: chunk }));
      await Promise.all(sends);
    },
    recheckSessions(userId, signedOutSessionId) {
      return send({ u: userId, c: 'recheck', ...(signedOutSessionId && { s: signedOutSessionId }) });
    },
    onClientMessage(type, handler) {
      handlers.set(type, handler);
    },
    async dispatchClientMessage(userId, message) {
      const handler = handlers.get(message.type);
      if (!handler) return false;
      try {
        await handler(userId, message);
      } catch (err) {
        log.error({ err, type: message.type }, 'realtime: client message handler failed');
      }
      return true;
    },
    subscribe(userId, listener) {
      let set = listeners.get(userId);
      if (!set) listeners.set(userId, (set = new Set()));
      set.add(listener);
      // One row per user and process, counting its listeners (+1 / -1: they commute).
      const joined = opts.presence?.join(userId) ?? Promise.resolve();
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        set.delete(listener);
        if (!set.size && listeners.get(userId) === set) listeners.delete(userId);
        // After the join: a leave committed first would find no row and the join's +1 would stay.
        if (opts.presence) void joined.then(() => opts.presence!.leave(userId));
      };
      return Object.assign(stop, { ready: joined });
    },
    onControl(listener) {
      controls.add(listener);
      return () => {
        controls.delete(listener);
      };
    },
  };
}

/** In-process realtime: one process, no fan-out (kept for tests and tools that need no database). */
export function createLocalRealtime(): Realtime {
  return createRealtime();
}

function isEnvelope(value: unknown): value is Envelope {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.m)) return v.m.every((one) => isEnvelope(one) && !('c' in (one as object)) && !('m' in (one as object)));
  if (typeof v.u !== 'string') return false;
  if (v.c === 'recheck') return true;
  return !!v.e && typeof v.e === 'object' && typeof (v.e as Record<string, unknown>).type === 'string';
}
