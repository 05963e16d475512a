/**
 * Realtime: what the server pushes to a signed-in user's open tabs (issue 10).
 *
 * A domain (or the composition) calls `publish(userId, event)` once the write the event is
 * about has committed. Events carry ids only, plus a `cursor` where the client can use one
 * to fetch what it missed; the client re-reads through the API. Each event a user receives
 * carries that user's next sequence number (event-log.ts): a socket that reconnects, to any
 * process, is replayed what it missed or told to resync (docs/decisions/0061-no-push-lost.md).
 *
 * This file is the seam every domain codes against. The implementation behind it lives
 * beside it: fan-out.ts (PostgreSQL LISTEN/NOTIFY between processes, PGlite's own
 * listen/notify in one process) and sockets.ts (the WebSocket route, heartbeats, sessions).
 */
import type { FanOut } from './fan-out.js';
import type { Outgoing } from './event-log.js';
import type { Presence } from './presence.js';

export interface RealtimeEvent {
  /** 'message.new', 'message.read', 'typing', 'notification.new', 'unread.changed', ... */
  type: string;
  /** Reserved: the socket layer adds the user's sequence number under this name. */
  seq?: never;
  [field: string]: unknown;
}

/**
 * A local listener: the event, its sequence number for its user (undefined only without a
 * fan-out), its JSON as published (without the number), and when it was published (ms since
 * the epoch, the publishing process's clock; undefined when the notification did not say).
 */
export type RealtimeListener = (event: RealtimeEvent, seq: number | undefined, json: string, publishedAt: number | undefined) => void;

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
  subscribe(userId: string, listener: RealtimeListener): Subscription;
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
 * The wire format between processes (one notification: lines, event-log.ts builds them in
 * SQL): first `t <ms>`, when it was published; then `e <user> <seq> <event JSON>` for an
 * event ('-' for no number: no fan-out), and `r <user> [<signed-out session>]` for
 * "re-check this user's sessions".
 */
const lineBytes = (json: string) => Buffer.byteLength(json) + 60;

/**
 * Realtime over a fan-out: `publish` hands the event to the fan-out (numbered, logged and
 * NOTIFYed in one statement), and every process (this one included) delivers what the
 * fan-out hears to its local listeners. Without a fan-out, delivery is in-process and
 * unnumbered (tests of the seam).
 */
export function createRealtime(
  opts: { fanOut?: FanOut; presence?: Presence; log?: Logger } = {},
): Realtime & { start(): Promise<void>; stop(): Promise<void> } {
  const log = opts.log ?? silent;
  const listeners = new Map<string, Set<RealtimeListener>>();
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

  const deliverLine = (line: string, publishedAt?: number): void => {
    if (line.startsWith('r ')) {
      const [, userId, signedOutSessionId] = line.split(' ');
      if (userId) return control({ kind: 'recheck', userId, ...(signedOutSessionId && { signedOutSessionId }) });
    } else if (line.startsWith('e ')) {
      const a = line.indexOf(' ', 2);
      const b = a < 0 ? -1 : line.indexOf(' ', a + 1);
      if (b > 0) {
        // Parsed only where the user has a listener: most events are for users of other processes.
        const set = listeners.get(line.slice(2, a));
        if (!set?.size) return;
        const n = line.slice(a + 1, b);
        const seq = n === '-' ? undefined : Number(n);
        const json = line.slice(b + 1);
        let event: RealtimeEvent;
        try {
          event = JSON.parse(json) as RealtimeEvent;
        } catch {
          return log.warn({ line: line.slice(0, 200) }, 'realtime: unreadable event ignored');
        }
        if (!event || typeof event.type !== 'string' || (seq !== undefined && !Number.isSafeInteger(seq)))
          return log.warn({ line: line.slice(0, 200) }, 'realtime: unexpected event ignored');
        for (const listener of [...set]) {
          try {
            listener(event, seq, json, publishedAt);
          } catch (err) {
            // A listener's failure is its own; the publisher carries on.
            log.error({ err }, 'realtime listener failed');
          }
        }
        return;
      }
    }
    log.warn({ line: line.slice(0, 200) }, 'realtime: unexpected notification line ignored');
  };

  const receive = (payload: string) => {
    const lines = payload.split('\n');
    const publishedAt = lines[0].startsWith('t ') ? Number(lines.shift()!.slice(2)) : undefined;
    for (const line of lines) deliverLine(line, Number.isFinite(publishedAt) ? publishedAt : undefined);
  };

  const send = async (out: Outgoing) => {
    if (!opts.fanOut) {
      if ('control' in out) return deliverLine(out.control);
      const at = Date.now();
      for (const [u, json] of out.events) deliverLine(`e ${u} - ${json}`, at);
      return;
    }
    try {
      await opts.fanOut.publish({ ...out, at: Date.now() });
    } catch (err) {
      // Best effort: the client catches up from the log (or refetches) on its next reconnect.
      log.warn({ err: (err as Error).message }, 'realtime: publish failed');
    }
  };

  /** The event's JSON, or null (logged) when it cannot be published. */
  const encode = (userId: string, event: RealtimeEvent): string | null => {
    if ('seq' in event) {
      log.error({ userId, type: event.type }, 'realtime: an event may not carry a field named seq (the sequence number goes there)');
      return null;
    }
    const json = JSON.stringify(event);
    if (lineBytes(json) > MAX_NOTIFY_BYTES) {
      log.error({ userId, bytes: lineBytes(json) }, 'realtime: event too large to publish (send ids only)');
      return null;
    }
    return json;
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
    async publish(userId, event) {
      const json = encode(userId, event);
      if (json !== null) await send({ events: [[userId, json]] });
    },
    async publishMany(events) {
      // Chunks that fit one NOTIFY (ids only: dozens of events each).
      let chunk: [string, string][] = [];
      let bytes = 0;
      const sends: Promise<void>[] = [];
      for (const [u, e] of events) {
        const json = encode(u, e);
        if (json === null) continue;
        const size = lineBytes(json);
        if (chunk.length && bytes + size > MAX_NOTIFY_BYTES) {
          sends.push(send({ events: chunk }));
          chunk = [];
          bytes = 0;
        }
        chunk.push([u, json]);
        bytes += size;
      }
      if (chunk.length) sends.push(send({ events: chunk }));
      await Promise.all(sends);
    },
    recheckSessions(userId, signedOutSessionId) {
      return send({ control: `r ${userId}${signedOutSessionId ? ` ${signedOutSessionId}` : ''}` });
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
