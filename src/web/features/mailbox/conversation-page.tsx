import { Fragment, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, ArrowLeft, Ban, Check, CheckCheck, Flag, RotateCcw, Send } from 'lucide-react';
import { ERASED_MESSAGE, MESSAGE_MAX_CHARS, type MailboxMessage } from '@shared/mailbox-schemas';
import NotFoundPage from '@web/components/not-found-page';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { TextArea } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Toast, type Flash } from '@web/components/ui/toast';
import { ApiError } from '@web/lib/api';
import { isUuid } from '@web/lib/ids';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { sendRealtime } from '@web/lib/realtime';
import { blockPerson, reportMessage, unblockPerson } from './api/mailbox';
import { dayKey, dayLabel, fullTime, messageTime } from './format';
import { MessageText } from './message-text';
import { useConversation, type PendingMessage, type ConversationMeta } from './use-conversation';

/** The counter shows from here on. */
const COUNTER_FROM = MESSAGE_MAX_CHARS - 500;
const TYPING_EVERY_MS = 2000;

/** /mailbox/:senderID — the conversation with one person. */
export default function ConversationRoute() {
  const { senderID } = useParams();
  if (!isUuid(senderID)) return <NotFoundPage />;
  return <ConversationScreen key={senderID} userId={senderID} />;
}

function ConversationScreen({ userId }: { userId: string }) {
  const t = useConversation(userId);
  const [flash, setFlash] = useState<Flash | null>(null);
  if (t.status.kind === 'not-found') return <NotFoundPage />;
  if (t.status.kind === 'error')
    return (
      <LoadError
        title="This conversation could not be loaded"
        error={t.status.error}
        onRetry={() => window.location.reload()}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  if (t.status.kind === 'loading' || !t.meta) return <ConversationSkeleton />;
  return (
    <div className="mx-auto flex h-[calc(100dvh-9rem)] min-h-[26rem] max-w-3xl flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <ConversationHeader meta={t.meta} onChanged={t.refresh} onFlash={setFlash} />
      <MessageList conversation={t} meta={t.meta} userId={userId} onFlash={setFlash} />
      {t.meta.canMessage ? (
        <Composer userId={userId} onSend={(body) => void t.send(body)} />
      ) : (
        <CantMessage meta={t.meta} onChanged={t.refresh} />
      )}
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}

function ConversationHeader({ meta, onChanged, onFlash }: { meta: ConversationMeta; onChanged: () => void; onFlash: (f: Flash) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const block = async () => {
    setBusy(true);
    setError(null);
    try {
      await blockPerson(meta.with.id);
      setConfirming(false);
      onFlash({ text: `You blocked ${meta.with.name}.` });
      void queryClient.invalidateQueries({ queryKey: queryKeys.mailbox });
      onChanged();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not block. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 px-3 py-3 sm:px-5">
      <Link
        to={paths.mailbox}
        className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
        aria-label="Back to the mailbox"
      >
        <ArrowLeft className="h-5 w-5" aria-hidden="true" />
      </Link>
      <img
        src={meta.with.profileImage}
        alt=""
        className="h-10 w-10 shrink-0 rounded-full border border-slate-200 object-cover"
        width={40}
        height={40}
      />
      <h1 className="min-w-0 flex-1 truncate text-lg font-semibold text-slate-900">{meta.with.name}</h1>
      {!meta.blockedByMe && (
        <Button variant="ghost" className="shrink-0 px-3" onClick={() => setConfirming(true)}>
          <Ban className="h-4 w-4" aria-hidden="true" />
          <span>Block</span>
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Block ${meta.with.name}?`}
        confirmLabel="Block"
        cancelLabel="Cancel"
        busy={busy}
        error={error}
        onConfirm={() => void block()}
        onClose={() => setConfirming(false)}
      >
        Neither of you will be able to message the other. They are not told. You can unblock them here or in your settings.
      </ConfirmDialog>
    </header>
  );
}

type ConversationState = ReturnType<typeof useConversation>;

function MessageList({
  conversation: t,
  meta,
  userId,
  onFlash,
}: {
  conversation: ConversationState;
  meta: ConversationMeta;
  userId: string;
  onFlash: (f: Flash) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const [reporting, setReporting] = useState<MailboxMessage | null>(null);

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !t.hasOlder || t.loadingOlder) return;
    restore.current = { height: el.scrollHeight, top: el.scrollTop };
    void t.loadOlder().catch(() => {
      restore.current = null;
    });
  };

  // Keep the view: after older messages are put on top, the same message stays in view;
  // a new message at the bottom scrolls into view when the reader was at the bottom.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (restore.current) {
      el.scrollTop = el.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
    } else if (nearBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [t.messages, t.pending, t.typing]);

  const myLast = t.messages.findLast((m) => m.senderId !== userId);
  const items: { key: string; day: string; node: React.ReactNode }[] = [];
  for (const m of t.messages) {
    const mine = m.senderId !== userId;
    items.push({
      key: m.id,
      day: dayKey(m.createdAt),
      node: (
        <Bubble
          mine={mine}
          body={m.body}
          time={m.createdAt}
          status={mine && m.id === myLast?.id && !t.pending.length ? (Number(m.id) <= Number(meta.theirReadUpTo) ? 'read' : 'sent') : null}
          onReport={mine || m.body === '' ? undefined : () => setReporting(m)}
        />
      ),
    });
  }
  const today = dayKey(new Date().toISOString());
  for (const p of t.pending)
    items.push({
      key: p.clientId,
      day: today,
      node: <PendingBubble pending={p} onRetry={() => t.retry(p)} onDiscard={() => t.discard(p.clientId)} />,
    });

  return (
    <>
      <div
        ref={scroller}
        className="flex-1 overflow-y-auto px-3 py-4 sm:px-5"
        onScroll={(e) => {
          const el = e.currentTarget;
          nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
          if (el.scrollTop < 120) loadOlder();
        }}
        role="log"
        aria-label={`Messages with ${meta.with.name}`}
        aria-live="polite"
        // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
      >
        {t.hasOlder && (
          <div className="mb-3 flex justify-center">
            <Button variant="ghost" className="text-xs" loading={t.loadingOlder} onClick={loadOlder}>
              Load older messages
            </Button>
          </div>
        )}
        {items.length === 0 && (
          <p className="mx-auto mt-10 max-w-sm text-center text-slate-600">
            {meta.canMessage ? `This is the start of your conversation with ${meta.with.name}. Say hello!` : 'No messages.'}
          </p>
        )}
        <ol className="space-y-1.5">
          {items.map((item, i) => (
            <Fragment key={item.key}>
              {(i === 0 || items[i - 1].day !== item.day) && (
                <li className="flex items-center gap-3 py-2 text-xs font-medium text-slate-600">
                  <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
                  <span>{dayLabel(item.day)}</span>
                  <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
                </li>
              )}
              <li>{item.node}</li>
            </Fragment>
          ))}
        </ol>
      </div>
      <p className="h-5 px-5 text-xs italic text-slate-600" aria-live="polite">
        {t.typing ? `${meta.with.name} is typing…` : ''}
      </p>
      <ReportDialog
        message={reporting}
        onClose={() => setReporting(null)}
        onDone={() => onFlash({ text: 'Thank you. Our team will look at this message.' })}
      />
    </>
  );
}

function Bubble({
  mine,
  body,
  time,
  status,
  onReport,
}: {
  mine: boolean;
  body: string;
  time: string;
  status: 'sent' | 'read' | null;
  onReport?: () => void;
}) {
  return (
    <div className={`group flex items-end gap-1 ${mine ? 'justify-end' : 'justify-start'}`}>
      <div className={`max-w-[85%] sm:max-w-[75%] ${mine ? 'items-end' : 'items-start'} flex flex-col`}>
        <div
          className={`whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-[0.95rem] leading-relaxed ${
            mine ? 'rounded-br-md bg-brand-700 text-white' : 'rounded-bl-md bg-slate-100 text-slate-900'
          }`}
        >
          {body === '' ? <em className="text-slate-600">{ERASED_MESSAGE}</em> : <MessageText text={body} />}
        </div>
        <div className="mt-0.5 flex items-center gap-1.5 px-1 text-[0.7rem] text-slate-600">
          <time dateTime={time} title={fullTime(time)}>
            {messageTime(time)}
          </time>
          {status === 'read' && (
            <span className="inline-flex items-center gap-0.5 text-brand-700">
              <CheckCheck className="h-3.5 w-3.5" aria-hidden="true" /> Read
            </span>
          )}
          {status === 'sent' && (
            <span className="inline-flex items-center gap-0.5">
              <Check className="h-3.5 w-3.5" aria-hidden="true" /> Sent
            </span>
          )}
        </div>
      </div>
      {onReport && (
        <button
          type="button"
          onClick={onReport}
          className="mb-5 rounded p-1 text-slate-500 opacity-60 hover:bg-slate-100 hover:text-red-700 hover:opacity-100 focus:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          aria-label="Report this message"
          title="Report this message"
        >
          <Flag className="h-3.5 w-3.5" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

function PendingBubble({ pending: p, onRetry, onDiscard }: { pending: PendingMessage; onRetry: () => void; onDiscard: () => void }) {
  const failed = p.status === 'failed';
  return (
    <div className="flex justify-end">
      <div className="flex max-w-[85%] flex-col items-end sm:max-w-[75%]">
        <div
          className={`whitespace-pre-wrap break-words rounded-2xl rounded-br-md px-3.5 py-2 text-[0.95rem] leading-relaxed ${
            failed ? 'border border-red-300 bg-red-50 text-slate-900' : 'bg-brand-700/80 text-white'
          }`}
        >
          <MessageText text={p.body} />
        </div>
        {failed ? (
          <div className="mt-1 flex flex-wrap items-center justify-end gap-2 px-1 text-xs" role="alert">
            <span className="inline-flex items-center gap-1 font-medium text-red-700">
              <AlertCircle className="h-3.5 w-3.5" aria-hidden="true" /> Not sent{p.error ? `: ${p.error}` : ''}
            </span>
            <button type="button" onClick={onRetry} className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
              <RotateCcw className="h-3.5 w-3.5" aria-hidden="true" /> Retry
            </button>
            <button type="button" onClick={onDiscard} className="font-semibold text-slate-700 hover:underline">
              Discard
            </button>
          </div>
        ) : (
          <span className="mt-0.5 px-1 text-[0.7rem] text-slate-600">Sending…</span>
        )}
      </div>
    </div>
  );
}

function Composer({ userId, onSend }: { userId: string; onSend: (body: string) => void }) {
  const [text, setText] = useState('');
  const lastTyping = useRef(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const length = text.trim().length;
  const over = length > MESSAGE_MAX_CHARS;
  const submit = () => {
    const body = text.trim();
    if (!body || over) return;
    onSend(body);
    setText('');
    lastTyping.current = 0;
    box.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  // Grows with its text, up to a few lines.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);
  return (
    <form
      className="border-t border-slate-200 px-3 py-3 sm:px-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-end gap-2">
        <label htmlFor="message-box" className="sr-only">
          Message
        </label>
        <textarea
          id="message-box"
          ref={box}
          rows={1}
          value={text}
          placeholder="Write a message"
          aria-describedby="message-help"
          aria-invalid={over || undefined}
          onChange={(e) => {
            setText(e.target.value);
            const now = Date.now();
            if (e.target.value.trim() && now - lastTyping.current > TYPING_EVERY_MS) {
              lastTyping.current = now;
              sendRealtime({ type: 'typing', to: userId });
            }
          }}
          onKeyDown={onKeyDown}
          className={`block max-h-40 min-h-11 w-full flex-1 resize-none rounded-xl border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500 ${
            over ? 'border-red-500' : 'border-slate-300'
          }`}
        />
        <Button type="submit" className="h-11 shrink-0 px-4" disabled={!length || over} aria-label="Send">
          <Send className="h-4 w-4" aria-hidden="true" />
          <span className="hidden sm:inline">Send</span>
        </Button>
      </div>
      <div className="mt-1 flex justify-between gap-3 text-xs text-slate-600">
        <span id="message-help" className="hidden sm:inline">
          Enter sends, Shift+Enter starts a new line
        </span>
        {length >= COUNTER_FROM && (
          <span className={over ? 'font-semibold text-red-700' : ''} aria-live="polite">
            {length.toLocaleString('en')} / {MESSAGE_MAX_CHARS.toLocaleString('en')}
            {over ? ' (too long)' : ''}
          </span>
        )}
      </div>
    </form>
  );
}

function CantMessage({ meta, onChanged }: { meta: ConversationMeta; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const unblock = async () => {
    setBusy(true);
    setError(null);
    try {
      await unblockPerson(meta.with.id);
      void queryClient.invalidateQueries({ queryKey: queryKeys.mailbox });
      onChanged();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not unblock. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="border-t border-slate-200 bg-slate-50 px-5 py-4 text-center text-sm text-slate-700" role="status">
      {meta.blockedByMe ? (
        <>
          <p>You blocked {meta.with.name}. Neither of you can message the other.</p>
          <Button variant="secondary" className="mt-2" loading={busy} onClick={() => void unblock()}>
            Unblock
          </Button>
          {error && <p className="mt-2 font-medium text-red-700">{error}</p>}
        </>
      ) : (
        <p>You can&apos;t message this person.</p>
      )}
    </div>
  );
}

function ReportDialog({ message, onClose, onDone }: { message: MailboxMessage | null; onClose: () => void; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!message) return;
    if (reason.trim().length < 3) {
      setError('Say why you report this message (at least 3 characters).');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await reportMessage(message.id, reason.trim());
      close();
      onDone();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not send the report. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open={!!message}
      title="Report this message"
      confirmLabel="Report"
      cancelLabel="Cancel"
      busy={busy}
      error={error}
      onConfirm={() => void submit()}
      onClose={close}
    >
      <p className="mb-3 line-clamp-3 rounded-lg bg-slate-100 px-3 py-2 text-slate-800">{message?.body}</p>
      <TextArea label="What is wrong with it?" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={1000} />
      <p className="mt-2 text-xs text-slate-600">Our team reviews reports. The sender is not told who reported them.</p>
    </ConfirmDialog>
  );
}

function ConversationSkeleton() {
  return (
    <div className="mx-auto max-w-3xl rounded-2xl border border-slate-200 bg-white p-5" role="status" aria-label="Loading the conversation">
      <div className="flex items-center gap-3">
        <Skeleton className="h-10 w-10 rounded-full" />
        <Skeleton className="h-5 w-40" />
      </div>
      <div className="mt-6 space-y-3">
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="ml-auto h-10 w-1/2" />
        <Skeleton className="h-10 w-1/3" />
      </div>
    </div>
  );
}
