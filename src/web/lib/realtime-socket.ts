import { dispatchRealtimeEvent, dispatchRealtimeReconnect, setRealtimeSender, setRealtimeStatus, type RealtimeEvent } from './realtime';

/**
 * The tab's one WebSocket (issue 10), started by the app shell while someone is signed in.
 *
 * - Connect timeout 10 s and heartbeat 25 s (the spec's constants): the server sends a
 *   `heartbeat` every 25 s; hearing nothing for 25 + 10 s, the tab assumes the connection
 *   is dead (a sleeping laptop, a dropped Wi-Fi) and reconnects.
 * - Reconnects with exponential back-off and full jitter (0.5 s doubling, capped at 30 s),
 *   at once when the browser comes back online (and dropped at once when it goes offline).
 * - After every connect (the first too) and when the server says `resync` (its fan-out missed some
 *   events), screens are told to refetch what they missed (useRealtimeReconnect).
 * - Close code 4401 (the session ended): it stops and calls `onSessionEnded` with why: the
 *   close reason `signed-out` (this browser signed out, in some tab) or else `session-ended`
 *   (expired, or revoked from elsewhere).
 */
export const CONNECT_TIMEOUT_MS = 10_000;
export const HEARTBEAT_MS = 25_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
const SESSION_ENDED = 4401;

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
  let connectTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const url = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/realtime`;

  const retry = () => {
    if (stopped || retryTimer) return;
    setRealtimeStatus(everOpened ? 'reconnecting' : 'connecting');
    // Full jitter: a random wait up to the doubled ceiling, so a restarted server is not met by every tab at once.
    const delay = Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt++);
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
          // Every ready, the first too: what was sent between a screen's first fetch and the
          // server subscribing this socket reached no socket, so screens catch up now.
          dispatchRealtimeReconnect();
          everOpened = true;
          return;
        }
        case 'resync':
          return dispatchRealtimeReconnect();
        case 'heartbeat':
        case 'pong':
          return;
        default:
          dispatchRealtimeEvent(event);
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
      retry();
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
