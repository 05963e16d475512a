import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../http/errors.js';
import { REPLAY_MAX_EVENTS, onTheWire, replayable, type LogRead } from './event-log.js';
import type { Realtime } from './hub.js';

/**
 * The WebSocket endpoint, GET /api/realtime (issue 10): one socket per tab, signed in by
 * the HttpOnly session cookie on the upgrade request, Origin checked like every write.
 *
 * - Heartbeat every 25 s (the spec's constant): a WebSocket ping, and a `{type:'heartbeat'}`
 *   text the browser can see (its watchdog reconnects when they stop). A socket that did
 *   not answer the previous ping is cut.
 * - The session is re-checked at every heartbeat, and at once when the composition says a
 *   user's sessions changed (sign-out, a revoked device): ended -> close code 4401, with
 *   the reason `signed-out` when its own browser signed out of that session, else
 *   `session-ended` (revoked from elsewhere, expired, banned), so the tab tells the truth.
 * - Client messages are JSON `{type, ...}` up to 4 KiB, at most ~10 a second per socket
 *   (bursts of 20), handed to the handler registered for their type; unknown types are ignored.
 * - Every event carries its user's sequence number (`{"seq": n, "type": ...}`), consecutive on
 *   each socket. `?since=n` on the upgrade (the last number the tab saw) resumes: the socket is
 *   first sent what it missed from the log, then `{"type":"ready","seq":m,"resumed":true}`; or,
 *   when it cannot be (too many, too old, a hole, no since), `ready` with `resumed: false` and
 *   the tab refetches. A gap on a live socket (a lost NOTIFY) is filled from the log the same
 *   way, or answered `{"type":"resync","seq":m}` (docs/decisions/0061-no-push-lost.md).
 * - At most `maxSocketsPerUser` sockets per user across processes (presence rows): one more
 *   is closed with 4429 `too-many-sockets` once it is counted.
 *
 * It knows no domain: the composition (app.ts) says who a cookie belongs to and which
 * origins are ours.
 */
export const HEARTBEAT_MS = 25_000;
/** Close code for "your session ended": the client stops and does not reconnect. */
export const SESSION_ENDED = 4401;
/** The close reasons that go with SESSION_ENDED (the web client maps them to /login's reason). */
export const CLOSE_SIGNED_OUT = 'signed-out';
export const CLOSE_SESSION_ENDED = 'session-ended';
/** Close code for "this user has too many sockets open": the client waits long before trying again. */
export const TOO_MANY_SOCKETS = 4429;
export const CLOSE_TOO_MANY_SOCKETS = 'too-many-sockets';
/** Close code when the log could not be read at the start (the database is away): try again. */
const TRY_AGAIN = 1013;
const SINCE = /^\d{1,15}$/;
const MAX_MESSAGE_BYTES = 4096;
const BURST = 20;
const PER_SECOND = 10;
/** Messages dropped in a row by the rate limit before the socket is closed (policy violation). */
const DROPS_BEFORE_CLOSE = 100;
const TYPE = /^[a-z][a-z0-9._-]{0,63}$/i;

export interface RealtimeSocketOptions {
  realtime: Realtime;
  /** Who the Cookie header signs in (one query), or null. */
  authenticate(cookieHeader: string | undefined): Promise<{ userId: string; sessionId: string } | null>;
  /**
   * Of these sign-in sessions, the ones that still sign their user in (one query for many):
   * the heartbeat's re-check of every socket. Without it, each socket's cookie is
   * re-authenticated on its own.
   */
  signedInSessions?(sessions: { userId: string; sessionId: string }[]): Promise<Set<string>>;
  /** The same origin rule as every state-changing request (app.ts). */
  sameOrigin(request: FastifyRequest): boolean;
  heartbeatMs?: number;
  /**
   * After `ready`, ask the client to catch up again at these delays (ms): a write whose
   * statement began before the socket's user became present does not publish to them and
   * may commit after the client's first catch-up (presence.ts). The composition passes a
   * moment and the statement timeout (the longest such a statement can still commit).
   */
  catchUpAgainMs?: number[];
  /** The user's sequence, sockets across processes, and logged events after `after` (event-log.ts). */
  readLog(userId: string, after: number, max: number): Promise<LogRead>;
  /** Sockets one user may hold across processes (REALTIME_MAX_SOCKETS_PER_USER). */
  maxSocketsPerUser: number;
  /** Seconds from an event's publish (on any process) to its write on this socket (the metrics' histogram). */
  deliveryLag?(seconds: number): void;
}

interface Connection {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  cookie: string | undefined;
  alive: boolean;
  tokens: number;
  refilledAt: number;
  dropped: number;
  /** The last sequence number this socket was sent (or told to resync at). */
  last: number;
  /** Events held while the socket starts or catches up from the log (null: live). */
  held: { seq: number; json: string }[] | null;
}

export interface RealtimeSockets {
  /** Open sockets on this process (all, or one user's). */
  count(userId?: string): number;
  /** One heartbeat now (tests): pings, cuts the silent, re-checks every session. */
  heartbeat(): Promise<void>;
}

export async function installRealtimeSockets(app: FastifyInstance, opts: RealtimeSocketOptions): Promise<RealtimeSockets> {
  const { realtime } = opts;
  const byUser = new Map<string, Set<Connection>>();
  const all = () => [...byUser.values()].flatMap((set) => [...set]);

  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false } });

  const send = (conn: Connection, data: string) => {
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(data);
  };

  const end = (conn: Connection, signedOutSessionId?: string) => {
    const signedOut = !!signedOutSessionId && conn.sessionId === signedOutSessionId;
    conn.socket.close(SESSION_ENDED, signedOut ? CLOSE_SIGNED_OUT : CLOSE_SESSION_ENDED);
  };

  /**
   * Closes the sockets (of one user, or all) whose session no longer signs them in: 500
   * sessions a query when the composition can check many at once (the heartbeat's re-check
   * of 1,000 sockets was 1,000 queries, 20 at a time, in the way of requests every 25 s).
   */
  const recheck = async (conns: Connection[], signedOutSessionId?: string) => {
    if (opts.signedInSessions) {
      for (let i = 0; i < conns.length; i += 500) {
        const open = conns.slice(i, i + 500).filter((c) => c.socket.readyState === c.socket.OPEN);
        if (!open.length) continue;
        let alive: Set<string>;
        try {
          alive = await opts.signedInSessions(open.map((c) => ({ userId: c.userId, sessionId: c.sessionId })));
        } catch {
          return; // the database is unreachable: keep the sockets, check again next beat
        }
        for (const conn of open) if (!alive.has(conn.sessionId)) end(conn, signedOutSessionId);
      }
      return;
    }
    for (let i = 0; i < conns.length; i += 20) {
      await Promise.all(
        conns.slice(i, i + 20).map(async (conn) => {
          if (conn.socket.readyState !== conn.socket.OPEN) return;
          let who: { userId: string; sessionId: string } | null;
          try {
            who = await opts.authenticate(conn.cookie);
          } catch {
            return; // the database is unreachable: keep the socket, check again next beat
          }
          if (who?.userId === conn.userId) return;
          end(conn, signedOutSessionId);
        }),
      );
    }
  };

  const heartbeat = async () => {
    const conns = all();
    for (const conn of conns) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
      send(conn, '{"type":"heartbeat"}');
    }
    await recheck(conns);
  };
  const timer = setInterval(() => {
    heartbeat().catch((err) => app.log.warn({ err }, 'realtime heartbeat failed'));
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  timer.unref();

  const resync = (conn: Connection, seq: number) => {
    conn.last = seq;
    send(conn, `{"type":"resync","seq":${seq}}`);
  };

  /** Sends the held events that follow `last` in order; a gap starts a catch-up from the log. */
  const release = (conn: Connection) => {
    const held = conn.held ?? [];
    conn.held = null;
    held.sort((a, b) => a.seq - b.seq);
    for (const h of held) offer(conn, h.seq, h.json);
  };

  /** A numbered event for this socket: in order, once each; a gap is filled from the log. */
  const offer = (conn: Connection, seq: number, json: string) => {
    if (conn.held) return void conn.held.push({ seq, json });
    if (seq <= conn.last) return; // already sent (replayed, then heard live)
    if (seq === conn.last + 1) {
      conn.last = seq;
      return send(conn, onTheWire(seq, json));
    }
    conn.held = [{ seq, json }];
    void catchUp(conn);
  };

  /**
   * Reads what followed `last` from the log and sends it, or tells the socket to resync at the
   * user's current number (too much, swept, a hole, a counter behind the socket's), then
   * releases what was heard meanwhile. `conn.held` is set by the caller.
   */
  const catchUp = async (conn: Connection) => {
    try {
      const read = await opts.readLog(conn.userId, conn.last, REPLAY_MAX_EVENTS);
      if (read.current !== conn.last) {
        if (replayable(read, conn.last)) {
          for (const e of read.events) send(conn, onTheWire(e.seq, e.event!));
          conn.last = read.current;
        } else resync(conn, read.current);
      }
    } catch (err) {
      // The database is away: what was heard is in order from its first; the tab refetches the rest.
      app.log.warn({ err: (err as Error).message }, 'realtime: catch-up read failed');
      const first = Math.min(...(conn.held ?? []).map((h) => h.seq));
      if (Number.isFinite(first) && first > conn.last + 1) resync(conn, first - 1);
    }
    release(conn);
  };

  const offControl = realtime.onControl((control) => {
    if (control.kind === 'resync') {
      // The fan-out's listener was lost and is back: each live socket reads what it missed (20 at a time).
      const live = all().filter((c) => c.held === null && c.socket.readyState === c.socket.OPEN);
      void (async () => {
        for (let i = 0; i < live.length; i += 20)
          await Promise.all(
            live.slice(i, i + 20).map((conn) => {
              if (conn.held !== null) return;
              conn.held = [];
              return catchUp(conn);
            }),
          );
      })();
    } else {
      void recheck([...(byUser.get(control.userId) ?? [])], control.signedOutSessionId);
    }
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    offControl();
  });

  const onMessage = async (conn: Connection, data: Buffer, isBinary: boolean) => {
    const now = Date.now();
    conn.tokens = Math.min(BURST, conn.tokens + ((now - conn.refilledAt) / 1000) * PER_SECOND);
    conn.refilledAt = now;
    if (conn.tokens < 1) {
      if (++conn.dropped >= DROPS_BEFORE_CLOSE) conn.socket.close(1008, 'Too many messages');
      return;
    }
    conn.tokens -= 1;
    conn.dropped = 0;
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return send(conn, JSON.stringify({ type: 'error', code: 'invalid_message', message: 'Messages are JSON objects with a type' }));
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) return;
    const type = (message as Record<string, unknown>).type;
    if (typeof type !== 'string' || !TYPE.test(type)) return;
    if (type === 'ping') return send(conn, '{"type":"pong"}');
    await realtime.dispatchClientMessage(conn.userId, message as { type: string } & Record<string, unknown>);
  };

  app.route({
    method: 'GET',
    url: '/api/realtime',
    schema: { hide: true },
    preValidation: async (request) => {
      if (!opts.sameOrigin(request)) throw new AppError(403, 'bad_origin', 'This request came from another site and was refused');
      const since = (request.query as { since?: unknown }).since;
      if (since !== undefined && (typeof since !== 'string' || !SINCE.test(since)))
        throw new AppError(400, 'invalid_since', 'since must be the last sequence number received (a whole number)', {
          fields: { since: 'a whole number' },
        });
      const who = await opts.authenticate(request.headers.cookie);
      if (!who) throw AppError.unauthorized();
      (request as FastifyRequest & { realtimeWho?: typeof who }).realtimeWho = who;
    },
    handler: async () => {
      throw new AppError(426, 'upgrade_required', 'This address is a WebSocket: connect with a WebSocket client');
    },
    wsHandler: (socket, request) => {
      const { userId, sessionId } = (request as FastifyRequest & { realtimeWho?: { userId: string; sessionId: string } }).realtimeWho!;
      const sinceText = (request.query as { since?: string }).since;
      const since = sinceText === undefined ? null : Number(sinceText);
      const conn: Connection = {
        socket,
        userId,
        sessionId,
        cookie: request.headers.cookie,
        alive: true,
        tokens: BURST,
        refilledAt: Date.now(),
        dropped: 0,
        last: 0,
        // Everything heard before `ready` waits: the replay goes first.
        held: [],
      };
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(conn);
      const unsubscribe = realtime.subscribe(userId, (_event, seq, json, publishedAt) => {
        if (seq === undefined) send(conn, json);
        else offer(conn, seq, json);
        if (publishedAt !== undefined) opts.deliveryLag?.(Math.max(0, Date.now() - publishedAt) / 1000);
      });
      const catchUps: NodeJS.Timeout[] = [];
      socket.on('pong', () => {
        conn.alive = true;
      });
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        onMessage(conn, data, isBinary).catch((err) => request.log.warn({ err }, 'realtime message failed'));
      });
      socket.on('close', () => {
        for (const t of catchUps) clearTimeout(t);
        unsubscribe();
        set.delete(conn);
        if (!set.size && byUser.get(userId) === set) byUser.delete(userId);
      });
      // Subscribed and present: from here on nothing published to this user is missed by this socket.
      const start = async () => {
        await unsubscribe.ready;
        if (socket.readyState !== socket.OPEN) return;
        let read: LogRead;
        try {
          read = await opts.readLog(userId, since ?? 0, since === null ? 0 : REPLAY_MAX_EVENTS);
        } catch (err) {
          request.log.warn({ err: (err as Error).message }, 'realtime: could not read the log for a new socket');
          return socket.close(TRY_AGAIN, 'try-again');
        }
        if (socket.readyState !== socket.OPEN) return;
        // This socket is counted (its presence committed before the read), on every process.
        if (Math.max(read.sockets, set.size) > opts.maxSocketsPerUser) return socket.close(TOO_MANY_SOCKETS, CLOSE_TOO_MANY_SOCKETS);
        const resumed = since !== null && replayable(read, since);
        if (resumed) for (const e of read.events) send(conn, onTheWire(e.seq, e.event!));
        conn.last = read.current;
        send(conn, `{"type":"ready","seq":${read.current},"resumed":${resumed}}`);
        release(conn);
        // Resumed: presence never lapsed, so nothing was skipped. Otherwise the tab refetches
        // now, and again once a write that began before this presence must have committed.
        if (resumed) return;
        for (const ms of opts.catchUpAgainMs ?? []) {
          const t = setTimeout(() => send(conn, '{"type":"resync"}'), ms);
          t.unref();
          catchUps.push(t);
        }
      };
      start().catch((err) => request.log.warn({ err }, 'realtime socket start failed'));
    },
  });

  return {
    count: (userId) => (userId ? (byUser.get(userId)?.size ?? 0) : all().length),
    heartbeat,
  };
}
