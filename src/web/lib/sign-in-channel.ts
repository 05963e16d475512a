/** Tells every open tab of this browser that the user signed out (or in): the sign-in session changed. */
const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel('agora-session') : null;

export type SignInEvent = 'signed-out' | 'signed-in';

export function broadcastSignIn(event: SignInEvent) {
  channel?.postMessage(event);
}

export function onSignInEvent(fn: (event: SignInEvent) => void): () => void {
  if (!channel) return () => {};
  const listener = (e: MessageEvent) => fn(e.data as SignInEvent);
  channel.addEventListener('message', listener);
  return () => channel.removeEventListener('message', listener);
}
