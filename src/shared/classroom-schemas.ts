import { z } from 'zod';
import { isCalendarDate, str } from './input-schemas.js';

/** A page's cursor: the last post's instant (to the microsecond, UTC) and id, as the page gave it. */
const CURSOR = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isCursor = (v: string) => {
  const m = CURSOR.exec(v);
  return !!m && isCalendarDate(m[1]);
};

/**
 * The classroom of a course session (/api/courses/:courseId/sessions/:sessionId/classroom):
 * the educator's posts (Markdown, links, files, pinned first), learners' replies, reports,
 * and who has access (docs/decisions/0072-classroom.md).
 */

/** Files a post may carry: what their content must be (checked by the server, never the name alone). */
export const CLASSROOM_FILE_KINDS = {
  pdf: { label: 'PDF', contentType: 'application/pdf', extensions: ['pdf'] },
  png: { label: 'PNG image', contentType: 'image/png', extensions: ['png'] },
  jpeg: { label: 'JPEG image', contentType: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  webp: { label: 'WebP image', contentType: 'image/webp', extensions: ['webp'] },
  gif: { label: 'GIF image', contentType: 'image/gif', extensions: ['gif'] },
  pptx: {
    label: 'PowerPoint slides',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['pptx'],
  },
  odp: { label: 'OpenDocument slides', contentType: 'application/vnd.oasis.opendocument.presentation', extensions: ['odp'] },
  key: { label: 'Keynote slides', contentType: 'application/vnd.apple.keynote', extensions: ['key'] },
} as const;
export type ClassroomFileKind = keyof typeof CLASSROOM_FILE_KINDS;
/** What the file picker offers. */
export const CLASSROOM_FILE_ACCEPT = Object.values(CLASSROOM_FILE_KINDS)
  .flatMap((k) => k.extensions.map((e) => `.${e}`))
  .join(',');
export const CLASSROOM_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const CLASSROOM_POST_MAX = 20_000;
export const CLASSROOM_REPLY_MAX = 4_000;
export const CLASSROOM_LINKS_MAX = 10;
export const CLASSROOM_FILES_MAX = 10;
/** Posts per page (pinned posts come first, on the first page). */
export const CLASSROOM_PAGE_SIZE = 20;

const httpUrl = str()
  .trim()
  .max(500, 'A link is at most 500 characters')
  .refine((v) => /^https?:\/\/\S+$/.test(v), 'Enter a link starting with https://');

export const classroomLink = z.object({
  url: httpUrl,
  label: str().trim().max(120, 'A link text is at most 120 characters').default(''),
});

const postBody = str({ error: 'Write the post' })
  .trim()
  .min(1, 'Write the post')
  .max(CLASSROOM_POST_MAX, `A post is at most ${CLASSROOM_POST_MAX.toLocaleString('en')} characters`);

export const postInput = z.object({
  body: postBody,
  links: z.array(classroomLink).max(CLASSROOM_LINKS_MAX, `At most ${CLASSROOM_LINKS_MAX} links`).default([]),
  /** Files uploaded first (POST .../classroom/files), by their ids. */
  fileIds: z.array(z.uuid('Unknown file')).max(CLASSROOM_FILES_MAX, `At most ${CLASSROOM_FILES_MAX} files`).default([]),
  pinned: z.boolean().default(false),
});
export type PostInput = z.input<typeof postInput>;

/** The educator changes a post: its text, its pinned state, or both (at least one). */
export const postUpdate = z
  .object({ body: postBody.optional(), pinned: z.boolean({ error: 'pinned must be true or false' }).optional() })
  .refine((v) => v.body !== undefined || v.pinned !== undefined, { message: 'Change the text or the pinned state', path: ['body'] });

export const replyInput = z.object({
  body: str({ error: 'Write a reply' })
    .trim()
    .min(1, 'Write a reply')
    .max(CLASSROOM_REPLY_MAX, `A reply is at most ${CLASSROOM_REPLY_MAX.toLocaleString('en')} characters`),
});

export const hideInput = z.object({ hidden: z.boolean({ error: 'hidden must be true or false' }) });

export const reportInput = z.object({
  reason: str({ error: 'Say why you report this post' })
    .trim()
    .min(3, 'Say why you report this post (at least 3 characters)')
    .max(500, 'At most 500 characters'),
});

export const accessInput = z.object({ access: z.enum(['removed', 'restored'], { error: 'access must be "removed" or "restored"' }) });

export const classroomQuery = z.object({
  /** The cursor the previous page gave (older posts than it). */
  before: str().max(100).refine(isCursor, 'before is not a cursor this page gave').optional(),
});

const person = z.object({ id: z.string(), name: z.string() });

export const classroomFile = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  /** Where it is downloaded (members only). */
  url: z.string(),
});
export type ClassroomFile = z.infer<typeof classroomFile>;

export const classroomReply = z.object({
  id: z.string(),
  author: person,
  body: z.string(),
  createdAt: z.string(),
  /** Hidden by the educator (only the educator sees hidden replies). */
  hidden: z.boolean(),
});
export type ClassroomReply = z.infer<typeof classroomReply>;

export const classroomPost = z.object({
  id: z.string(),
  author: person,
  body: z.string(),
  links: z.array(z.object({ url: z.string(), label: z.string() })),
  pinned: z.boolean(),
  createdAt: z.string(),
  files: z.array(classroomFile),
  replies: z.array(classroomReply),
  /** Reports of the post: the educator sees them, others see whether they reported it. */
  reports: z.array(z.object({ reason: z.string(), createdAt: z.string() })),
  reportedByMe: z.boolean(),
});
export type ClassroomPost = z.infer<typeof classroomPost>;

/**
 * A member of the classroom's list: an account with an active seat (access is per account). For
 * seats of its learner profiles (family accounts, ADR 0074), `name` says whom ("Ana Ruiz (for Mia,
 * Leo)") and `learners` has their first names (empty: the holder's own seat only).
 */
export const classroomMember = z.object({
  id: z.string(),
  name: z.string(),
  learners: z.array(z.string()),
  access: z.enum(['active', 'removed']),
});

export const classroomView = z.object({
  course: z.object({ id: z.string(), title: z.string(), educatorName: z.string() }),
  session: z.object({ id: z.string(), startsOn: z.string(), endsOn: z.string(), timeZone: z.string(), status: z.string() }),
  role: z.enum(['educator', 'learner']),
  nextClass: z
    .object({ startsAt: z.string(), endsAt: z.string(), location: z.string().nullable(), meetingUrl: z.string().nullable() })
    .nullable(),
  posts: z.array(classroomPost),
  /** The cursor of the next (older) page, or null at the end. */
  nextCursor: z.string().nullable(),
  /** The session's enrolled learners and their access (the educator only; empty for learners). */
  members: z.array(classroomMember),
});
export type ClassroomView = z.infer<typeof classroomView>;

export const createdAnswer = z.object({ id: z.string() });
export const uploadedFile = z.object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number().int() });
export type UploadedFile = z.infer<typeof uploadedFile>;
export const okAnswer = z.object({ ok: z.literal(true), message: z.string() });

/** The realtime event every member's open tabs hear when the classroom changed. */
export const CLASSROOM_CHANGED = 'classroom.changed';
