import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { hideInput, postInput, postUpdate, replyInput, reportInput } from '../../shared/classroom-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { classroomFile, classroomPost, classroomReply, classroomReport } from '../db/schema/classroom.js';
import type { Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { classroomFor, memberIdsOf, taughtClassroom, type Classroom } from './access.js';
import { publishChanged } from './live.js';
import { bumpVersion } from './version.js';

const nameOf = (viewer: Viewer) => `${viewer.user.firstName} ${viewer.user.lastName}`.trim();
/** A notification's preview of a post or reply: its first 140 characters on one line. */
const preview = (body: string) => {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
};

/**
 * The educator posts (an announcement or material): Markdown, links, files uploaded before,
 * pinned or not. One transaction: the post, its files, and the news for every other member
 * (notifications subscribe to `classroom.posted`); after the commit every member's open tabs hear it.
 */
export async function createPost(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  input: z.output<typeof postInput>,
): Promise<string> {
  const value = await withLivePushFirst(
    app,
    async (tx, announce) => {
      const c = await taughtClassroom(tx, courseId, sessionId, viewer);
      const [post] = await tx
        .insert(classroomPost)
        .values({ courseId, sessionId, authorId: viewer.user.id, body: input.body, links: input.links, pinned: input.pinned })
        .returning({ id: classroomPost.id });
      const fileIds = [...new Set(input.fileIds)];
      if (fileIds.length) {
        const attached = await tx
          .update(classroomFile)
          .set({ postId: post.id })
          .where(
            and(
              inArray(classroomFile.id, fileIds),
              eq(classroomFile.sessionId, sessionId),
              eq(classroomFile.uploaderId, viewer.user.id),
              isNull(classroomFile.postId),
            ),
          )
          .returning({ id: classroomFile.id });
        if (attached.length !== fileIds.length)
          throw AppError.badRequest('A file of this post is unknown or already in another post: upload it again', {
            fileIds: 'unknown file',
          });
      }
      await bumpVersion(tx, sessionId);
      const members = await memberIdsOf(tx, c);
      await announce('classroom.posted', {
        kind: 'post',
        courseId,
        sessionId,
        postId: post.id,
        itemId: post.id,
        courseTitle: c.courseTitle,
        authorName: nameOf(viewer),
        preview: preview(input.body),
        recipientIds: members.filter((id) => id !== viewer.user.id),
      });
      return { id: post.id, members };
    },
    (v) => publishChanged(app, v.members, { sessionId, postId: v.id, what: 'post' }),
  );
  return value.id;
}

type Announce = Parameters<Parameters<AppServices['classroomEvents']['joinTransaction']>[1]>[0];

/**
 * One transaction announcing the classroom's events, whose follow-ups (the notifications'
 * pushes, the fan-out job's start) run after `live`: the classroom's own live push goes out
 * first, right after the commit.
 */
async function withLivePushFirst<T>(
  app: AppServices,
  work: (tx: Tx, announce: Announce) => Promise<T>,
  live: (value: T) => Promise<void>,
): Promise<T> {
  let afterCommit = async () => {};
  const value = await app.database.db.transaction(async (tx) => {
    const joined = await app.classroomEvents.joinTransaction(tx, (announce) => work(tx, announce));
    afterCommit = joined.afterCommit;
    return joined.value;
  });
  await live(value);
  await afterCommit();
  return value;
}

/** The post of this classroom, locked for the change (404 when it is another classroom's). */
async function postOf(tx: Tx, c: Classroom, postId: string) {
  const [p] = await tx
    .select({ id: classroomPost.id, authorId: classroomPost.authorId })
    .from(classroomPost)
    .where(and(eq(classroomPost.id, postId), eq(classroomPost.sessionId, c.sessionId)))
    .limit(1);
  if (!p) throw AppError.notFound('This post does not exist');
  return p;
}

/**
 * The educator changes a post's text, pins or unpins it (pinned posts come first). No
 * notification: members' open tabs hear the change and re-read.
 */
export async function updatePost(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  postId: string,
  input: z.output<typeof postUpdate>,
) {
  const members = await app.database.db.transaction(async (tx) => {
    const c = await taughtClassroom(tx, courseId, sessionId, viewer);
    await postOf(tx, c, postId);
    await tx
      .update(classroomPost)
      .set({ ...(input.body === undefined ? {} : { body: input.body }), ...(input.pinned === undefined ? {} : { pinned: input.pinned }) })
      .where(eq(classroomPost.id, postId));
    await bumpVersion(tx, sessionId);
    return memberIdsOf(tx, c);
  });
  await publishChanged(app, members, { sessionId, postId, what: input.body === undefined ? 'pin' : 'edit' });
}

/**
 * The educator deletes a post: with it go its replies, its reports and its files (the rows in
 * the transaction, by the foreign keys' cascade; the stored bytes after the commit). No
 * notification: members' open tabs hear the change and re-read.
 */
export async function deletePost(app: AppServices, viewer: Viewer, courseId: string, sessionId: string, postId: string) {
  const { members, keys } = await app.database.db.transaction(async (tx) => {
    const c = await taughtClassroom(tx, courseId, sessionId, viewer);
    await postOf(tx, c, postId);
    const files = await tx.select({ key: classroomFile.storageKey }).from(classroomFile).where(eq(classroomFile.postId, postId));
    await tx.delete(classroomPost).where(eq(classroomPost.id, postId));
    await bumpVersion(tx, sessionId);
    return { members: await memberIdsOf(tx, c), keys: files.map((f) => f.key) };
  });
  await publishChanged(app, members, { sessionId, postId, what: 'delete' });
  for (const key of keys) {
    // The rows are gone (nothing serves the bytes any more); a store that fails here leaves an orphan, logged.
    await app.files.delete(key).catch((err: unknown) => app.log.warn({ err, key }, 'classroom file not removed from the store'));
  }
}

/**
 * A member replies under a post. The educator is told of a learner's reply; when the educator
 * replies, the learners who replied under that post are.
 */
export async function addReply(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  postId: string,
  input: z.output<typeof replyInput>,
): Promise<string> {
  const me = viewer.user.id;
  const value = await withLivePushFirst(
    app,
    async (tx, announce) => {
      const c = await classroomFor(tx, courseId, sessionId, viewer);
      await postOf(tx, c, postId);
      const [reply] = await tx
        .insert(classroomReply)
        .values({ postId, authorId: me, body: input.body })
        .returning({ id: classroomReply.id });
      await bumpVersion(tx, sessionId);
      const members = await memberIdsOf(tx, c);
      let recipients: string[];
      if (c.role === 'learner') recipients = [c.educatorId];
      else {
        const repliers = await tx
          .selectDistinct({ id: classroomReply.authorId })
          .from(classroomReply)
          .where(and(eq(classroomReply.postId, postId), ne(classroomReply.authorId, me)));
        const current = new Set(members);
        recipients = repliers.map((r) => r.id).filter((id) => current.has(id));
      }
      await announce('classroom.posted', {
        kind: 'reply',
        courseId,
        sessionId,
        postId,
        itemId: reply.id,
        courseTitle: c.courseTitle,
        authorName: nameOf(viewer),
        preview: preview(input.body),
        recipientIds: recipients.filter((id) => id !== me),
      });
      return { id: reply.id, members };
    },
    (v) => publishChanged(app, v.members, { sessionId, postId, what: 'reply' }),
  );
  return value.id;
}

/** The educator hides a reply from the learners (or shows it again). */
export async function hideReply(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  replyId: string,
  input: z.output<typeof hideInput>,
) {
  const { members, postId } = await app.database.db.transaction(async (tx) => {
    const c = await taughtClassroom(tx, courseId, sessionId, viewer);
    const [r] = await tx
      .select({ postId: classroomReply.postId })
      .from(classroomReply)
      .innerJoin(classroomPost, eq(classroomPost.id, classroomReply.postId))
      .where(and(eq(classroomReply.id, replyId), eq(classroomPost.sessionId, sessionId)))
      .limit(1);
    if (!r) throw AppError.notFound('This reply does not exist');
    await tx
      .update(classroomReply)
      .set({ hiddenAt: input.hidden ? sql`coalesce(${classroomReply.hiddenAt}, now())` : null })
      .where(eq(classroomReply.id, replyId));
    await bumpVersion(tx, sessionId);
    return { members: await memberIdsOf(tx, c), postId: r.postId };
  });
  await publishChanged(app, members, { sessionId, postId, what: 'hide' });
}

/** Anyone with access reports a post (once each; a second report changes the reason). The educator sees the reports. */
export async function reportPost(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  postId: string,
  input: z.output<typeof reportInput>,
) {
  await app.database.db.transaction(async (tx) => {
    const c = await classroomFor(tx, courseId, sessionId, viewer);
    await postOf(tx, c, postId);
    await tx
      .insert(classroomReport)
      .values({ postId, reporterId: viewer.user.id, reason: input.reason })
      .onConflictDoUpdate({
        target: [classroomReport.postId, classroomReport.reporterId],
        set: { reason: input.reason, createdAt: new Date() },
      });
    await bumpVersion(tx, sessionId);
  });
}
