import WebSocket from 'ws';

/**
 * A WebSocket client for the realtime tests and the bench (Node 20 has no global
 * WebSocket without a flag): the `ws` package, with what a test waits for.
 */
export interface TestSocket {
  ws: WebSocket;
  /** Every JSON message received so far, in order. */
  received: { type: string; [k: string]: unknown }[];
  /** Resolves with the first received message (past or future) matching `match`; rejects after `ceilingMs`. */
  next(match: (m: { type: string; [k: string]: unknown }) => boolean, ceilingMs?: number): Promise<{ type: string; [k: string]: unknown }>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  /** Resolves with the close reason ('' when none). */
  closeReason: Promise<string>;
  send(message: unknown): void;
  close(): void;
}

export type SocketAnswer = { socket: TestSocket } | { refused: number } | { closedBeforeReady: number; reason: string };

/**
 * Opens a socket to `${base}/api/realtime` (`since`: the last sequence number seen, to resume);
 * answers the socket once the server said ready, the refusal's HTTP status, or the close
 * code when the server closed it before ready.
 */
export function openSocket(
  base: string,
  opts: { cookie?: string; origin?: string | null; since?: number | string } = {},
): Promise<SocketAnswer> {
  const url = base.replace(/^http/, 'ws') + '/api/realtime' + (opts.since === undefined ? '' : `?since=${opts.since}`);
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin !== null) headers.origin = opts.origin ?? base;
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  const received: TestSocket['received'] = [];
  const waiters = new Set<{
    match: (m: TestSocket['received'][number]) => boolean;
    resolve: (m: TestSocket['received'][number]) => void;
  }>();
  const closedWith = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  const closed = closedWith.then((c) => c.code);
  const closeReason = closedWith.then((c) => c.reason);
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as TestSocket['received'][number];
    received.push(message);
    for (const w of waiters) {
      if (w.match(message)) {
        waiters.delete(w);
        w.resolve(message);
      }
    }
  });
  const socket: TestSocket = {
    ws,
    received,
    closed,
    closeReason,
    next(match, ceilingMs = 10_000) {
      const seen = received.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no matching message within ${ceilingMs} ms; got ${JSON.stringify(received)}`));
        }, ceilingMs).unref();
      });
    },
    send: (message) => ws.send(JSON.stringify(message)),
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
    void closedWith.then(({ code, reason }) => resolve({ closedBeforeReady: code, reason }));
    socket
      .next((m) => m.type === 'ready')
      .then(() => resolve({ socket }))
      .catch(reject);
  });
}

/** The socket of an answer that must have opened. */
export function opened(answer: SocketAnswer): TestSocket {
  if (!('socket' in answer)) throw new Error(`the socket was refused: ${JSON.stringify(answer)}`);
  return answer.socket;
}
