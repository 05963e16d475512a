/**
 * Realtime: what the server pushes to a signed-in user's open tabs (issue 10).
 *
 * A domain (or the composition) calls `publish(userId, event)` once the write the event is
 * about has committed. Events carry ids only, plus a `cursor` where the client can use one
 * to fetch what it missed; the client re-reads through the API. Delivery is best effort:
 * on every (re)connect the client refetches, so a lost push costs a moment, never data.
 *
 * This file is the seam every domain codes against. The implementation behind it (the
 * WebSocket route, PostgreSQL LISTEN/NOTIFY fan-out between processes, heartbeats) lives
 * beside it in src/server/realtime/.
 */
export interface RealtimeEvent {
  /** 'message.new', 'message.read', 'typing', 'notification.new', 'unread.changed', ... */
  type: string;
  [field: string]: unknown;
}

/** Handles a message a client sent over its socket ('typing' ...); `userId` is the socket's signed-in user. */
export type ClientMessageHandler = (userId: string, message: Record<string, unknown>) => Promise<void> | void;

export interface Realtime {
  /** Pushes `event` to every open socket of `userId`, on every app process. Never throws. */
  publish(userId: string, event: RealtimeEvent): Promise<void>;
  /** Registers what to do with client messages of `type` (one handler per type). */
  onClientMessage(type: string, handler: ClientMessageHandler): void;
  /**
   * The unread badge (app shell) sums named counters: mailbox registers 'messages',
   * notifications 'notifications'. Publish { type: 'unread.changed' } when one changes.
   */
  registerUnreadCounter(name: string, count: (userId: string) => Promise<number>): void;
  /** Every registered counter for `userId` ({ messages: 2, notifications: 5 }). */
  unreadCounts(userId: string): Promise<Record<string, number>>;
  /** Local listeners (tests, and the socket layer): called for every event published to `userId` on this process. */
  subscribe(userId: string, listener: (event: RealtimeEvent) => void): () => void;
}

/** In-process realtime: one process, no sockets yet. The socket layer replaces it. */
export function createLocalRealtime(): Realtime {
  const listeners = new Map<string, Set<(event: RealtimeEvent) => void>>();
  const handlers = new Map<string, ClientMessageHandler>();
  const counters = new Map<string, (userId: string) => Promise<number>>();
  return {
    registerUnreadCounter(name, count) {
      counters.set(name, count);
    },
    async unreadCounts(userId) {
      const entries = await Promise.all([...counters].map(async ([name, count]) => [name, await count(userId)] as const));
      return Object.fromEntries(entries);
    },
    async publish(userId, event) {
      for (const listener of listeners.get(userId) ?? []) {
        try {
          listener(event);
        } catch {
          // A listener's failure is its own; the publisher carries on.
        }
      }
    },
    onClientMessage(type, handler) {
      handlers.set(type, handler);
    },
    subscribe(userId, listener) {
      let set = listeners.get(userId);
      if (!set) listeners.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size) listeners.delete(userId);
      };
    },
  };
}
