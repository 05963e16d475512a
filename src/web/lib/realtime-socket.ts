import { dispatchRealtimeEvent, dispatchRealtimeReconnect, setRealtimeSender, setRealtimeStatus, type RealtimeEvent } from './realtime';

/**
 * The tab's one WebSocket (issue 10), started by the app shell while someone is signed in.
 *
 * - Connect timeout 10 s and heartbeat 25 s (the spec's constants): the server sends a
 *   `heartbeat` every 25 s; hearing nothing for 25 + 10 s, the tab assumes the connection
 *   is dead (a sleeping laptop, a dropped Wi-Fi) and reconnects.
 * - Reconnects with exponential back-off and full jitter (0.5 s doubling, capped at 30 s),
 *   at once when the browser comes back online (and dropped at once when it goes offline).
 * - Every event carries the user's sequence number (`seq`). The tab keeps the last one and
 *   reconnects with `?since=<it>`: the server first replays what was missed (to any server of
 *   the fleet), then says `ready` with `resumed: true`, and nothing is refetched. When it
 *   cannot (too much missed, too old, the first connect) `ready` says `resumed: false`, or a
 *   live socket is told `resync`: then screens refetch what they show (useRealtimeReconnect),
 *   and the tab goes on from the number given (docs/decisions/0061-no-push-lost.md).
 *   An event at or below the last number is a duplicate and is dropped.
 * - Close code 4429 (this user has too many sockets open): it tries again only after a long wait.
 * - Close code 4401 (the session ended): it stops and calls `onSessionEnded` with why: the
 *   close reason `signed-out` (this browser signed out, in some tab) or else `session-ended`
 *   (expired, or revoked from elsewhere).
 */
export const CONNECT_TIMEOUT_MS = 10_000;
export const HEARTBEAT_MS = 25_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
const SESSION_ENDED = 4401;
const TOO_MANY_SOCKETS = 4429;

/** Stops the tab's socket (if one runs). */
let stopCurrent: (() => void) | null = null;

/**
 * Stops the tab's socket now, before its session ends: signing out calls it first, so no
 * reconnect or refetch runs without a session (each would log a 401).
 */
export function stopRealtimeSocket() {
  stopCurrent?.();
}

/** Why the server ended the socket's session. */
export type SessionEndReason = 'signed-out' | 'session-ended';

export function startRealtimeSocket(opts: { onSessionEnded?: (why: SessionEndReason) => void } = {}): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let everOpened = false;
  let lastHeard = 0;
  /** The last sequence number this tab saw (null until the first ready): sent on reconnect. */
  let lastSeq: number | null = null;
  let connectTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const url = () =>
    `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/realtime${lastSeq === null ? '' : `?since=${lastSeq}`}`;

  const retry = (atLeastMs = 0) => {
    if (stopped || retryTimer) return;
    setRealtimeStatus(everOpened ? 'reconnecting' : 'connecting');
    // Full jitter: a random wait up to the doubled ceiling, so a restarted server is not met by every tab at once.
    const delay = Math.max(atLeastMs, Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt++));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect();
    }, delay);
  };

  const drop = (ws: WebSocket) => {
    if (socket !== ws) return;
    socket = null;
    setRealtimeSender(null);
    clearTimeout(connectTimer);
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch {
      // already closing
    }
  };

  const connect = () => {
    if (stopped) return;
    const ws = new WebSocket(url());
    socket = ws;
    lastHeard = Date.now();
    // Until the server says ready (signed in, subscribed), the attempt may take 10 s at most.
    connectTimer = setTimeout(() => {
      drop(ws);
      retry();
    }, CONNECT_TIMEOUT_MS);
    ws.onmessage = (message) => {
      lastHeard = Date.now();
      let event: RealtimeEvent;
      try {
        event = JSON.parse(String(message.data)) as RealtimeEvent;
      } catch {
        return;
      }
      if (!event || typeof event.type !== 'string') return;
      switch (event.type) {
        case 'ready': {
          clearTimeout(connectTimer);
          attempt = 0;
          setRealtimeSender((m) => {
            if (ws.readyState !== WebSocket.OPEN) return false;
            ws.send(JSON.stringify(m));
            return true;
          });
          setRealtimeStatus('open');
          everOpened = true;
          if (typeof event.seq === 'number') lastSeq = event.seq;
          // Resumed: what was missed was replayed just before. Otherwise (the first connect
          // too: what was sent between a screen's first fetch and the server subscribing
          // this socket reached no socket) screens catch up now.
          if (event.resumed !== true) dispatchRealtimeReconnect();
          return;
        }
        case 'resync':
          if (typeof event.seq === 'number') lastSeq = event.seq;
          return dispatchRealtimeReconnect();
        case 'heartbeat':
        case 'pong':
          return;
        default: {
          const seq = event.seq;
          if (typeof seq === 'number' && lastSeq !== null) {
            if (seq <= lastSeq) return; // heard already (replayed, then live)
            // The server sends every number in order or says resync; a gap would be its bug: refetch.
            const gap = seq > lastSeq + 1;
            lastSeq = seq;
            dispatchRealtimeEvent(event);
            if (gap) dispatchRealtimeReconnect();
            return;
          }
          if (typeof seq === 'number') lastSeq = seq;
          dispatchRealtimeEvent(event);
        }
      }
    };
    ws.onclose = (e) => {
      drop(ws);
      if (e.code === SESSION_ENDED) {
        stopped = true;
        setRealtimeStatus('idle');
        opts.onSessionEnded?.(e.reason === 'signed-out' ? 'signed-out' : 'session-ended');
        return;
      }
      // Too many tabs of this user are connected: wait long (half the back-off cap at least).
      retry(e.code === TOO_MANY_SOCKETS ? BACKOFF_CAP_MS / 2 : 0);
    };
    // An error is followed by close, which decides what next.
    ws.onerror = () => {};
  };

  // The watchdog: nothing heard for a heartbeat and a timeout means the connection is dead.
  const watchdog = setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN && Date.now() - lastHeard > HEARTBEAT_MS + CONNECT_TIMEOUT_MS) {
      drop(socket);
      retry();
    }
  }, 5_000);
  const online = () => {
    if (stopped || socket) return;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    attempt = 0;
    connect();
  };
  // The browser knows the network went away: no need to wait for the watchdog.
  const offline = () => {
    if (!socket) return;
    drop(socket);
    retry();
  };
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);

  setRealtimeStatus('connecting');
  connect();

  const stop = () => {
    if (stopCurrent === stop) stopCurrent = null;
    stopped = true;
    clearInterval(watchdog);
    clearTimeout(retryTimer);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
    if (socket) drop(socket);
    setRealtimeStatus('idle');
  };
  stopCurrent?.();
  stopCurrent = stop;
  return stop;
}
