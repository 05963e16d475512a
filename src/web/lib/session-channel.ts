/** Tells every open tab of this browser that the user signed out (or in). */
const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel('agora-session') : null;

export type SessionEvent = 'signed-out' | 'signed-in';

export function broadcastSession(event: SessionEvent) {
  channel?.postMessage(event);
}

export function onSessionEvent(fn: (event: SessionEvent) => void): () => void {
  if (!channel) return () => {};
  const listener = (e: MessageEvent) => fn(e.data as SessionEvent);
  channel.addEventListener('message', listener);
  return () => channel.removeEventListener('message', listener);
}
