import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { MailboxMessage, ConversationPage } from '@shared/mailbox-schemas';
import { ApiError } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';
import { useRealtimeEvent, useRealtimeReconnect } from '@web/lib/realtime';
import { getConversation, markRead, sendMessage } from './api/mailbox';

export type ConversationMeta = Pick<ConversationPage, 'with' | 'canMessage' | 'blockedByMe' | 'theirReadUpTo'>;

export interface PendingMessage {
  clientId: string;
  body: string;
  status: 'sending' | 'failed';
  error?: string;
}

type Status = { kind: 'loading' } | { kind: 'ready' } | { kind: 'not-found' } | { kind: 'error'; error: unknown };

const byId = (a: MailboxMessage, b: MailboxMessage) => Number(a.id) - Number(b.id);
const maxId = (a: string, b: string) => (Number(a) >= Number(b) ? a : b);

/** A uuid for a send (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The conversation with one person as the screen holds it: messages by id (each exactly once,
 * in order, whatever mix of pages, pushes and retries brought them), the sends still
 * pending, and the other person's read position. Live: a push or a reconnect reads what
 * came after the newest message held (the `after` cursor), never the whole conversation again.
 */
export function useConversation(userId: string) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const [meta, setMeta] = useState<ConversationMeta | null>(null);
  const [messages, setMessages] = useState<MailboxMessage[]>([]);
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [typingUntil, setTypingUntil] = useState(0);
  const messagesRef = useRef<MailboxMessage[]>([]);
  /**
   * Every message up to this id is held (read page by page, without gaps). The viewer's own
   * sends are held too but do not move it: a message of theirs sent meanwhile has a lower id.
   */
  const syncedUpTo = useRef<string | null>(null);
  const catchingUp = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const markedUpTo = useRef('0');

  const refreshLists = useCallback(() => void queryClient.invalidateQueries({ queryKey: queryKeys.mailbox }), [queryClient]);

  const merge = useCallback(
    (incoming: MailboxMessage[]) => {
      if (!incoming.length) return;
      const map = new Map(messagesRef.current.map((m) => [m.id, m]));
      for (const m of incoming) map.set(m.id, m);
      const next = [...map.values()].sort(byId);
      messagesRef.current = next;
      setMessages(next);
      // A new message of theirs ends their "typing".
      if (incoming.some((m) => m.senderId === userId)) setTypingUntil(0);
      const arrived = new Set(incoming.map((m) => m.clientId));
      setPending((p) => (p.some((x) => arrived.has(x.clientId)) ? p.filter((x) => !arrived.has(x.clientId)) : p));
    },
    [userId],
  );

  const takeMeta = useCallback((t: ConversationPage) => {
    setMeta((m) => ({
      with: t.with,
      canMessage: t.canMessage,
      blockedByMe: t.blockedByMe,
      theirReadUpTo: m ? maxId(m.theirReadUpTo, t.theirReadUpTo) : t.theirReadUpTo,
    }));
  }, []);

  /** Marks the conversation read when the newest message is theirs and not yet marked, and the tab is seen. */
  const markSeen = useCallback(() => {
    const last = [...messagesRef.current].reverse().find((m) => m.senderId === userId);
    if (!last || Number(last.id) <= Number(markedUpTo.current) || document.visibilityState !== 'visible') return;
    markedUpTo.current = last.id;
    markRead(userId)
      .then(refreshLists)
      .catch(() => {
        markedUpTo.current = '0';
      });
  }, [userId, refreshLists]);

  /** Reads every message after the newest held (all of them if none is held yet). */
  const catchUp = useCallback(async (): Promise<void> => {
    if (catchingUp.current) {
      again.current = true;
      return catchingUp.current;
    }
    const run = async () => {
      do {
        again.current = false;
        for (;;) {
          const newest = syncedUpTo.current;
          const page = await getConversation(userId, newest ? { after: newest } : {}, 100);
          takeMeta(page);
          merge(page.messages);
          const last = page.messages.at(-1)?.id;
          if (last) syncedUpTo.current = last;
          if (!newest) setHasOlder(page.hasOlder);
          if (!(newest && page.hasNewer)) break;
        }
      } while (again.current);
    };
    catchingUp.current = run().finally(() => {
      catchingUp.current = null;
    });
    return catchingUp.current;
  }, [userId, merge, takeMeta]);

  // The first page.
  useEffect(() => {
    let live = true;
    getConversation(userId)
      .then((page) => {
        if (!live) return;
        takeMeta(page);
        merge(page.messages);
        syncedUpTo.current = page.messages.at(-1)?.id ?? null;
        setHasOlder(page.hasOlder);
        setStatus({ kind: 'ready' });
      })
      .catch((error: unknown) => {
        if (!live) return;
        setStatus(error instanceof ApiError && error.status === 404 ? { kind: 'not-found' } : { kind: 'error', error });
      });
    return () => {
      live = false;
    };
  }, [userId, merge, takeMeta]);

  useEffect(() => {
    if (status.kind === 'ready') markSeen();
  }, [status.kind, messages, markSeen]);
  useEffect(() => {
    const onVisible = () => markSeen();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markSeen]);

  const catchUpQuietly = useCallback(() => {
    catchUp().catch(() => {
      // The next push or reconnect tries again.
    });
  }, [catchUp]);
  useRealtimeEvent('message.new', (e) => {
    if (e.conversationWith === userId) catchUpQuietly();
  });
  useRealtimeEvent('message.read', (e) => {
    if (e.by === userId && typeof e.upTo === 'string') {
      const upTo = e.upTo;
      setMeta((m) => (m ? { ...m, theirReadUpTo: maxId(m.theirReadUpTo, upTo) } : m));
    }
  });
  useRealtimeEvent('typing', (e) => {
    if (e.from === userId) setTypingUntil(Date.now() + 4000);
  });
  useRealtimeEvent('mailbox.blocks', (e) => {
    if (e.with === userId) catchUpQuietly();
  });
  useRealtimeReconnect(catchUpQuietly);

  const [, tick] = useState(0);
  useEffect(() => {
    if (typingUntil <= Date.now()) return;
    const t = setTimeout(() => tick((n) => n + 1), typingUntil - Date.now() + 50);
    return () => clearTimeout(t);
  }, [typingUntil]);

  const loadOlder = useCallback(async () => {
    const first = messagesRef.current[0]?.id;
    if (!first || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await getConversation(userId, { before: first });
      merge(page.messages);
      setHasOlder(page.hasOlder);
    } finally {
      setLoadingOlder(false);
    }
  }, [userId, merge, loadingOlder]);

  const send = useCallback(
    async (body: string, clientId = newClientId()) => {
      setPending((p) => [...p.filter((x) => x.clientId !== clientId), { clientId, body, status: 'sending' }]);
      try {
        const { message } = await sendMessage(userId, body, clientId);
        merge([message]);
        refreshLists();
        // What they sent before it (maybe while this tab's socket was down) is read now.
        catchUpQuietly();
      } catch (err) {
        const error = err instanceof ApiError ? err.message : 'The message could not be sent.';
        setPending((p) => p.map((x) => (x.clientId === clientId ? { ...x, status: 'failed', error } : x)));
        if (err instanceof ApiError && err.status === 403) catchUpQuietly();
      }
    },
    [userId, merge, refreshLists, catchUpQuietly],
  );

  return {
    status,
    meta,
    messages,
    pending,
    hasOlder,
    loadingOlder,
    loadOlder,
    send,
    retry: (p: PendingMessage) => void send(p.body, p.clientId),
    discard: (clientId: string) => setPending((p) => p.filter((x) => x.clientId !== clientId)),
    refresh: catchUpQuietly,
    typing: typingUntil > Date.now(),
  };
}
