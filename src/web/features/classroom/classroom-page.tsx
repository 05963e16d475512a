import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ArrowLeft,
  CalendarClock,
  Eye,
  EyeOff,
  FileText,
  Flag,
  Link2,
  Paperclip,
  Pencil,
  Pin,
  PinOff,
  Trash2,
  Users,
  X,
} from 'lucide-react';
import {
  CLASSROOM_CHANGED,
  CLASSROOM_FILE_ACCEPT,
  CLASSROOM_FILE_MAX_BYTES,
  CLASSROOM_POST_MAX,
  CLASSROOM_REPLY_MAX,
  type ClassroomPost,
  type ClassroomView,
} from '@shared/classroom-schemas';
import { ApiError, isNotFound } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useRealtimeEvent, useRealtimeReconnect } from '@web/lib/realtime';
import { formatDateRange, formatDateTime, formatDay, formatTimeRange, plural, viewerTimeZone } from '@web/lib/format';
import { isUuid } from '@web/lib/ids';
import NotFoundPage from '@web/components/not-found-page';
import { Markdown } from '@web/components/markdown';
import { ClassTimePlace } from '@web/components/class-time-details';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/field';
import { TextArea } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { Panel } from '@web/components/ui/panel';
import { Skeleton } from '@web/components/ui/skeleton';
import { ProgressBar, uploadWithProgress } from '@web/components/ui/upload';
import {
  addReply,
  classroomQuery,
  createPost,
  deletePost,
  editPost,
  hideReply,
  reportPost,
  setAccess,
  setPinned,
  uploadUrl,
  type UploadedFile,
} from './api/classroom';

/** /course/:courseID/session/:sessionID/classroom: a session's posts, files and replies (its educator and enrolled learners). */
export default function ClassroomPage() {
  const { courseID = '', sessionID = '' } = useParams();
  if (!isUuid(courseID) || !isUuid(sessionID)) return <NotFoundPage />;
  return <Classroom courseId={courseID} sessionId={sessionID} />;
}

function Classroom({ courseId, sessionId }: { courseId: string; sessionId: string }) {
  const qc = useQueryClient();
  const query = useInfiniteQuery(classroomQuery(courseId, sessionId));
  const refresh = () => qc.invalidateQueries({ queryKey: queryKeys.classroom(courseId, sessionId) });
  // A new post or reply, a pin, a hidden reply, a change of access: re-read (the API checks access again).
  useRealtimeEvent(CLASSROOM_CHANGED, (e) => {
    if (e.sessionId === sessionId) void refresh();
  });
  useRealtimeReconnect(() => void refresh());

  if (query.error && !query.data) {
    if (isNotFound(query.error)) return <NotFoundPage />;
    return (
      <div className="mx-auto max-w-3xl">
        <LoadError
          title="The classroom could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }
  if (!query.data) return <ClassroomSkeleton />;
  const first = query.data.pages[0];
  const posts = query.data.pages.flatMap((p) => p.posts);
  const educator = first.role === 'educator';
  return (
    <div className="mx-auto max-w-5xl">
      <Link to={paths.course(courseId)} className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> {first.course.title}
      </Link>
      <header className="mb-5">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Classroom</h1>
        <p className="mt-1 text-slate-600">
          {first.course.title} · {formatDateRange(first.session.startsOn, first.session.endsOn)} · with {first.course.educatorName}
        </p>
      </header>
      <NextClass view={first} />
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0 space-y-4">
          {educator && <Composer courseId={courseId} sessionId={sessionId} onPosted={refresh} />}
          {posts.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600">
              {educator
                ? 'Nothing posted yet. Share a welcome note, the slides of the first class or a link to read before it.'
                : 'Nothing posted yet. Your educator’s announcements and materials will appear here as soon as they post them.'}
            </div>
          ) : (
            <ol className="space-y-4" aria-label="Posts">
              {posts.map((p) => (
                <li key={p.id}>
                  <PostCard post={p} view={first} courseId={courseId} sessionId={sessionId} onChanged={refresh} />
                </li>
              ))}
            </ol>
          )}
          {query.hasNextPage && (
            <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
              Show older posts
            </Button>
          )}
        </div>
        {educator && <Members view={first} courseId={courseId} sessionId={sessionId} onChanged={refresh} />}
      </div>
    </div>
  );
}

function ClassroomSkeleton() {
  return (
    <div className="mx-auto max-w-5xl" aria-busy="true" aria-label="Loading the classroom">
      <Skeleton className="mb-3 h-4 w-40" />
      <Skeleton className="mb-2 h-8 w-56" />
      <Skeleton className="mb-6 h-4 w-72" />
      <Skeleton className="mb-6 h-20 w-full" />
      <div className="space-y-4">
        <Skeleton className="h-36 w-full" />
        <Skeleton className="h-36 w-full" />
      </div>
    </div>
  );
}

/** The next class at the top, with its join link (or its place). */
function NextClass({ view }: { view: ClassroomView }) {
  const zone = viewerTimeZone();
  const next = view.nextClass;
  return (
    <section aria-labelledby="next-class" className="rounded-2xl border border-brand-200 bg-brand-50 p-4 sm:p-5">
      <h2 id="next-class" className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-brand-800">
        <CalendarClock className="h-4 w-4" aria-hidden="true" /> Next class
      </h2>
      {next ? (
        <div className="mt-1">
          <p className="text-lg font-semibold text-slate-900">
            {formatDay(next.startsAt)}, {formatTimeRange(next.startsAt, next.endsAt, zone)}
          </p>
          {zone !== view.session.timeZone && (
            <p className="text-xs text-slate-600">
              {formatTimeRange(next.startsAt, next.endsAt, view.session.timeZone)} in {view.session.timeZone.replace(/_/g, ' ')}
            </p>
          )}
          <div className="text-base">
            <ClassTimePlace classTime={next} />
          </div>
        </div>
      ) : (
        <p className="mt-1 text-sm text-slate-700">No class to come in this session.</p>
      )}
    </section>
  );
}

const sizeLabel = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/** The educator's form: Markdown, links, files (uploaded first, checked by the server), pinned. */
function Composer({ courseId, sessionId, onPosted }: { courseId: string; sessionId: string; onPosted: () => void }) {
  const [body, setBody] = useState('');
  const [links, setLinks] = useState<{ url: string; label: string }[]>([]);
  const [linkUrl, setLinkUrl] = useState('');
  const [linkLabel, setLinkLabel] = useState('');
  const [files, setFiles] = useState<UploadedFile[]>([]);
  const [pinned, setPinnedBox] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const post = useMutation({
    mutationFn: () => createPost(courseId, sessionId, { body, links, fileIds: files.map((f) => f.id), pinned }),
    onSuccess: () => {
      setBody('');
      setLinks([]);
      setFiles([]);
      setPinnedBox(false);
      setError(null);
      setFields({});
      onPosted();
    },
    onError: (e) => {
      setError(e instanceof ApiError ? e.message : 'The post could not be sent.');
      setFields(e instanceof ApiError ? e.fields : {});
    },
  });

  async function pick(list: FileList | null) {
    setError(null);
    for (const file of Array.from(list ?? [])) {
      if (file.size > CLASSROOM_FILE_MAX_BYTES) {
        setError(`${file.name} is larger than ${CLASSROOM_FILE_MAX_BYTES / 1024 / 1024} MB`);
        continue;
      }
      try {
        setProgress(0);
        const up = await uploadWithProgress<UploadedFile>(uploadUrl(courseId, sessionId), file, setProgress);
        setFiles((f) => [...f, up]);
      } catch (e) {
        setError(`${file.name}: ${e instanceof ApiError ? e.message : 'the upload failed'}`);
      } finally {
        setProgress(null);
      }
    }
  }

  function addLink() {
    if (!/^https?:\/\/\S+$/.test(linkUrl.trim())) {
      setFields({ link: 'Enter a link starting with https://' });
      return;
    }
    setLinks((l) => [...l, { url: linkUrl.trim(), label: linkLabel.trim() }]);
    setLinkUrl('');
    setLinkLabel('');
    setFields({});
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!body.trim()) {
      setFields({ body: 'Write the post' });
      return;
    }
    post.mutate();
  }

  return (
    <form onSubmit={submit} aria-labelledby="new-post" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id="new-post" className="mb-3 text-lg font-semibold text-slate-900">
        Post to the classroom
      </h2>
      <TextArea
        label="Announcement or material"
        hint="Markdown: **bold**, lists, headings and links."
        rows={5}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        maxLength={CLASSROOM_POST_MAX}
        error={fields.body}
      />
      <div className="mt-3 grid gap-2 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
        <Field
          label="Link"
          type="url"
          placeholder="https://"
          value={linkUrl}
          onChange={(e) => setLinkUrl(e.target.value)}
          error={fields.link}
        />
        <Field label="Link text (optional)" value={linkLabel} onChange={(e) => setLinkLabel(e.target.value)} />
        <Button type="button" variant="secondary" onClick={addLink} disabled={!linkUrl.trim()}>
          <Link2 className="h-4 w-4" aria-hidden="true" /> Add link
        </Button>
      </div>
      {(links.length > 0 || files.length > 0) && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Attached">
          {links.map((l, i) => (
            <li
              key={`l${i}`}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800"
            >
              <Link2 className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
              <span className="truncate">{l.label || l.url}</span>
              <button
                type="button"
                onClick={() => setLinks((x) => x.filter((_, j) => j !== i))}
                className="rounded-full p-0.5 hover:bg-slate-200"
              >
                <X className="h-3.5 w-3.5" aria-hidden="true" />
                <span className="sr-only">Remove the link {l.label || l.url}</span>
              </button>
            </li>
          ))}
          {files.map((f) => (
            <li key={f.id} className="inline-flex max-w-full items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">
              <Paperclip className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
              <span className="truncate">{f.name}</span>
              <button
                type="button"
                onClick={() => setFiles((x) => x.filter((y) => y.id !== f.id))}
                className="rounded-full p-0.5 hover:bg-slate-200"
              >
                <X className="h-3.5 w-3.5" aria-hidden="true" />
                <span className="sr-only">Remove the file {f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {progress !== null && (
        <div className="mt-3">
          <ProgressBar value={progress} label="Uploading the file" />
        </div>
      )}
      {error && (
        <div className="mt-3">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-4">
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-brand-700 hover:underline">
            <Paperclip className="h-4 w-4" aria-hidden="true" /> Attach files
            <input
              type="file"
              multiple
              accept={CLASSROOM_FILE_ACCEPT}
              className="sr-only"
              onChange={(e) => {
                void pick(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
          <label className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={pinned}
              onChange={(e) => setPinnedBox(e.target.checked)}
              className="h-4 w-4 rounded border-slate-300"
            />
            Pin to the top
          </label>
        </div>
        <Button type="submit" loading={post.isPending} disabled={progress !== null}>
          Post
        </Button>
      </div>
      <p className="mt-2 text-xs text-slate-600">
        Files: PDF, images (PNG, JPEG, WebP, GIF) and slides (.pptx, .odp, .key), up to 20 MB each.
      </p>
    </form>
  );
}

function PostCard({
  post,
  view,
  courseId,
  sessionId,
  onChanged,
}: {
  post: ClassroomPost;
  view: ClassroomView;
  courseId: string;
  sessionId: string;
  onChanged: () => void;
}) {
  const educator = view.role === 'educator';
  const [reply, setReply] = useState('');
  const [replyError, setReplyError] = useState<string | null>(null);
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const sendReply = useMutation({
    mutationFn: () => addReply(courseId, sessionId, post.id, reply),
    onSuccess: () => {
      setReply('');
      setReplyError(null);
      onChanged();
    },
    onError: (e) => setReplyError(e instanceof ApiError ? e.message : 'The reply could not be sent.'),
  });
  const pin = useMutation({ mutationFn: () => setPinned(courseId, sessionId, post.id, !post.pinned), onSuccess: onChanged });
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(post.body);
  const [editError, setEditError] = useState<string | null>(null);
  const edit = useMutation({
    mutationFn: () => editPost(courseId, sessionId, post.id, draft),
    onSuccess: () => {
      setEditing(false);
      setEditError(null);
      onChanged();
    },
    onError: (e) => setEditError(e instanceof ApiError ? e.message : 'The post could not be saved.'),
  });
  const editBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (editing) editBox.current?.focus();
  }, [editing]);
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => deletePost(courseId, sessionId, post.id),
    onSuccess: () => {
      setDeleting(false);
      onChanged();
    },
  });
  function saveEdit(e: FormEvent) {
    e.preventDefault();
    if (!draft.trim()) {
      setEditError('Write the post');
      return;
    }
    edit.mutate();
  }
  const hide = useMutation({
    mutationFn: (r: { id: string; hidden: boolean }) => hideReply(courseId, sessionId, r.id, r.hidden),
    onSuccess: onChanged,
  });
  const report = useMutation({
    mutationFn: () => reportPost(courseId, sessionId, post.id, reason),
    onSuccess: (r) => {
      setReporting(false);
      setReason('');
      setNote(r.message);
      onChanged();
    },
    onError: (e) => setNote(e instanceof ApiError ? e.message : 'The report could not be sent.'),
  });
  const titleId = `post-${post.id}`;
  return (
    <article
      aria-labelledby={titleId}
      className={`rounded-2xl border bg-white p-4 shadow-sm sm:p-5 ${post.pinned ? 'border-brand-300' : 'border-slate-200'}`}
    >
      <header className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="text-sm text-slate-700">
          <span className="font-semibold text-slate-900">{post.author.name}</span> ·{' '}
          <time dateTime={post.createdAt}>{formatDateTime(post.createdAt)}</time>
        </h3>
        <div className="flex flex-wrap items-center gap-2">
          {post.pinned && (
            <Badge tone="brand">
              <Pin className="mr-1 inline h-3 w-3" aria-hidden="true" />
              Pinned
            </Badge>
          )}
          {educator && post.reports.length > 0 && <Badge tone="red">Reported {plural(post.reports.length, 'time')}</Badge>}
          {educator && (
            <Button variant="ghost" className="px-2 py-1" onClick={() => pin.mutate()} loading={pin.isPending}>
              {post.pinned ? <PinOff className="h-4 w-4" aria-hidden="true" /> : <Pin className="h-4 w-4" aria-hidden="true" />}
              {post.pinned ? 'Unpin' : 'Pin'}
            </Button>
          )}
          {educator && !editing && (
            <Button
              variant="ghost"
              className="px-2 py-1"
              onClick={() => {
                setDraft(post.body);
                setEditError(null);
                setEditing(true);
              }}
            >
              <Pencil className="h-4 w-4" aria-hidden="true" /> Edit
            </Button>
          )}
          {educator && (
            <Button variant="ghost" className="px-2 py-1" onClick={() => setDeleting(true)}>
              <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
            </Button>
          )}
        </div>
      </header>
      {editing ? (
        <form onSubmit={saveEdit} aria-label="Edit the post">
          <TextArea
            label="Post text"
            hint="Markdown: **bold**, lists, headings and links."
            rows={5}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            maxLength={CLASSROOM_POST_MAX}
            error={editError ?? undefined}
            ref={editBox}
          />
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setEditing(false)} disabled={edit.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={edit.isPending}>
              Save changes
            </Button>
          </div>
        </form>
      ) : (
        <Markdown source={post.body} baseLevel={4} />
      )}
      {post.links.length > 0 && (
        <ul className="mt-3 space-y-1" aria-label="Links">
          {post.links.map((l, i) => (
            <li key={i}>
              <a
                href={l.url}
                target="_blank"
                rel="noopener noreferrer nofollow ugc"
                className="inline-flex max-w-full items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
              >
                <Link2 className="h-4 w-4 shrink-0" aria-hidden="true" /> <span className="truncate">{l.label || l.url}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {post.files.length > 0 && (
        <ul className="mt-3 grid gap-2 sm:grid-cols-2" aria-label="Files">
          {post.files.map((f) => (
            <li key={f.id}>
              <a
                href={f.url}
                target="_blank"
                rel="noopener"
                className="flex items-center gap-2 rounded-xl border border-slate-200 p-2.5 text-sm hover:border-brand-300 hover:bg-brand-50"
              >
                <FileText className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{f.name}</span>
                <span className="shrink-0 text-xs text-slate-600">{sizeLabel(f.size)}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {educator && post.reports.length > 0 && (
        <div className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">Why it was reported</p>
          <ul className="mt-1 list-disc pl-5">
            {post.reports.map((r, i) => (
              <li key={i}>{r.reason}</li>
            ))}
          </ul>
        </div>
      )}
      <section aria-label={`Replies to ${post.author.name}'s post`} className="mt-4 border-t border-slate-100 pt-3">
        {post.replies.length > 0 && (
          <ul className="mb-3 space-y-2">
            {post.replies.map((r) => (
              <li
                key={r.id}
                className={`rounded-xl p-3 text-sm ${r.hidden ? 'border border-dashed border-slate-300 bg-white' : 'bg-slate-50'}`}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="text-slate-700">
                    <span className="font-semibold text-slate-900">{r.author.name}</span> ·{' '}
                    <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                    {r.hidden && <span className="ml-2 text-xs font-semibold text-slate-600">Hidden from learners</span>}
                  </p>
                  {educator && (
                    <Button
                      variant="ghost"
                      className="px-2 py-1 text-xs"
                      onClick={() => hide.mutate({ id: r.id, hidden: !r.hidden })}
                      loading={hide.isPending && hide.variables?.id === r.id}
                    >
                      {r.hidden ? (
                        <Eye className="h-3.5 w-3.5" aria-hidden="true" />
                      ) : (
                        <EyeOff className="h-3.5 w-3.5" aria-hidden="true" />
                      )}
                      {r.hidden ? 'Show' : 'Hide'}
                      <span className="sr-only"> the reply of {r.author.name}</span>
                    </Button>
                  )}
                </div>
                <p className="mt-1 whitespace-pre-wrap break-words text-slate-800">{r.body}</p>
              </li>
            ))}
          </ul>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (reply.trim()) sendReply.mutate();
          }}
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
        >
          <TextArea
            label="Reply"
            rows={1}
            className="min-w-0 flex-1"
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            maxLength={CLASSROOM_REPLY_MAX}
            error={replyError ?? undefined}
          />
          <Button type="submit" variant="secondary" loading={sendReply.isPending} disabled={!reply.trim()} className="sm:mb-[1px]">
            Send reply
          </Button>
        </form>
      </section>
      {!educator && (
        <div className="mt-3 text-right">
          {post.reportedByMe ? (
            <p className="text-xs text-slate-600">You reported this post.</p>
          ) : reporting ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                report.mutate();
              }}
              className="space-y-2 text-left"
            >
              <Field label="Why do you report this post?" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
              <div className="flex justify-end gap-2">
                <Button type="button" variant="ghost" onClick={() => setReporting(false)}>
                  Cancel
                </Button>
                <Button type="submit" variant="danger" loading={report.isPending} disabled={reason.trim().length < 3}>
                  Report
                </Button>
              </div>
            </form>
          ) : (
            <button
              type="button"
              onClick={() => setReporting(true)}
              className="inline-flex items-center gap-1 text-xs font-medium text-slate-600 hover:text-red-700 hover:underline"
            >
              <Flag className="h-3.5 w-3.5" aria-hidden="true" /> Report this post
            </button>
          )}
          {note && (
            <p role="status" className="mt-1 text-xs text-slate-700">
              {note}
            </p>
          )}
        </div>
      )}
      {educator && (
        <ConfirmDialog
          open={deleting}
          title="Delete this post?"
          confirmLabel="Delete post"
          busy={remove.isPending}
          error={
            remove.error instanceof ApiError
              ? remove.error.message
              : remove.error
                ? 'The post could not be deleted. Please try again.'
                : null
          }
          onConfirm={() => remove.mutate()}
          onClose={() => {
            setDeleting(false);
            remove.reset();
          }}
        >
          The post goes for everyone, with its {plural(post.replies.length, 'reply', 'replies')}
          {post.files.length > 0 ? ` and ${plural(post.files.length, 'file')}` : ''}. This cannot be undone.
        </ConfirmDialog>
      )}
    </article>
  );
}

/** The educator's list of the session's learners, with their access to the classroom. */
function Members({
  view,
  courseId,
  sessionId,
  onChanged,
}: {
  view: ClassroomView;
  courseId: string;
  sessionId: string;
  onChanged: () => void;
}) {
  const change = useMutation({
    mutationFn: (m: { id: string; access: 'removed' | 'restored' }) => setAccess(courseId, sessionId, m.id, m.access),
    onSuccess: onChanged,
  });
  return (
    <Panel
      id="classroom-members"
      title="Learners"
      className="self-start"
      action={<Users className="h-5 w-5 text-slate-500" aria-hidden="true" />}
    >
      {view.members.length === 0 ? (
        <p className="text-sm text-slate-600">No one is enrolled in this session yet.</p>
      ) : (
        <ul className="space-y-2">
          {view.members.map((m) => (
            <li key={m.id} className="flex items-center justify-between gap-2 text-sm">
              <span className={`min-w-0 break-words ${m.access === 'removed' ? 'text-slate-500 line-through' : 'text-slate-900'}`}>
                {m.name}
              </span>
              <Button
                variant="ghost"
                className="shrink-0 px-2 py-1 text-xs"
                onClick={() => change.mutate({ id: m.id, access: m.access === 'removed' ? 'restored' : 'removed' })}
                loading={change.isPending && change.variables?.id === m.id}
              >
                {m.access === 'removed' ? 'Give access back' : 'Remove access'}
                <span className="sr-only"> for {m.name}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-3 text-xs text-slate-600">Removing access keeps the learner enrolled; they no longer see the classroom.</p>
    </Panel>
  );
}
