import { useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * The web side of realtime (issue 10): one WebSocket per tab, shared by every screen.
 * A screen listens with `useRealtimeEvent(type, handler)`; events carry ids (and a cursor)
 * and the screen re-reads through its queries. `onRealtimeReconnect` runs after every
 * reconnect so a screen fetches what it missed while the socket was down.
 *
 * This is the seam features code against; the socket itself (connect, heartbeat, back-off)
 * is started by the app shell.
 */
export interface RealtimeEvent {
  type: string;
  [field: string]: unknown;
}

type Listener = (event: RealtimeEvent) => void;

const listeners = new Map<string, Set<Listener>>();
const reconnectListeners = new Set<() => void>();
let sender: ((message: Record<string, unknown>) => boolean) | null = null;

/** Called by the socket layer for each event received. */
export function dispatchRealtimeEvent(event: RealtimeEvent) {
  for (const listener of [...(listeners.get(event.type) ?? []), ...(listeners.get('*') ?? [])]) listener(event);
}

/** Called by the socket layer after a reconnect. */
export function dispatchRealtimeReconnect() {
  for (const listener of reconnectListeners) listener();
}

/** The socket layer installs how to send; until a socket is open, sending answers false. */
export function setRealtimeSender(send: ((message: Record<string, unknown>) => boolean) | null) {
  sender = send;
}

/** Sends a client message ('typing' ...); false when no socket is open. */
export function sendRealtime(message: Record<string, unknown>): boolean {
  return sender ? sender(message) : false;
}

/** Listens to realtime events of `type` ('*' for all) while the component is mounted. */
export function useRealtimeEvent(type: string, handler: Listener) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const listener: Listener = (event) => latest.current(event);
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }, [type]);
}

/** Runs `handler` after every reconnect of the tab's socket while mounted. */
export function useRealtimeReconnect(handler: () => void) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const listener = () => latest.current();
    reconnectListeners.add(listener);
    return () => {
      reconnectListeners.delete(listener);
    };
  }, []);
}

/**
 * The tab's socket state, for a small "Reconnecting…" indicator: 'idle' (signed out or
 * stopped), 'connecting' (the first attempt), 'open', 'reconnecting' (lost, trying again).
 */
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

let status: RealtimeStatus = 'idle';
const statusListeners = new Set<() => void>();

/** Called by the socket layer when its state changes. */
export function setRealtimeStatus(next: RealtimeStatus) {
  if (next === status) return;
  status = next;
  for (const listener of statusListeners) listener();
}

export function getRealtimeStatus(): RealtimeStatus {
  return status;
}

/** The socket's state, re-rendering when it changes. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    (onChange) => {
      statusListeners.add(onChange);
      return () => {
        statusListeners.delete(onChange);
      };
    },
    getRealtimeStatus,
    getRealtimeStatus,
  );
}
