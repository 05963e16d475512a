import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLASSROOM_CHANGED } from '../../../src/shared/classroom-schemas.js';
import { docxBytes, odpBytes, pdfBytes, pngBytes, pptxBytes } from '../../support/classroom.js';
import {
  drop,
  enrol,
  makeEducator,
  makeLearner,
  makePublishedCourse,
  queryRows,
  useCoursesApp,
  type Educator,
} from '../../support/courses.js';
import type { SignedInUser } from '../../support/factories.js';
import { call, get, post, type Response } from '../../support/http.js';
import { fileForm } from '../../support/multipart.js';

/**
 * The classroom of a course session (issue 25, ADR 0072): who may read it (checked on every
 * request), files checked by content, replies, hiding, removing access, reports, the
 * notification and the live push.
 */
const ctx = useCoursesApp();

let educator: Educator;
let courseId: string;
let sessionId: string;
let base: string;
let learner: SignedInUser;
let removable: SignedInUser;
let dropper: SignedInUser;
let waitlisted: SignedInUser;
let otherLearner: SignedInUser;
let otherEducator: Educator;

const as = (who: { cookie: string } | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  call(ctx.app, method, url, body, who ? { cookie: who.cookie } : {});

async function upload(who: { cookie: string }, data: Buffer, filename: string, type = 'application/octet-stream'): Promise<Response> {
  const form = await fileForm({ data, filename, type });
  return call(ctx.app, 'POST', `${base}/files`, form.payload, { cookie: who.cookie, headers: form.headers });
}

beforeAll(async () => {
  educator = ctx.educator;
  ({ courseId, sessionId } = await makePublishedCourse(ctx.app, educator, {
    course: { title: 'Python for Curious Beginners', priceCents: 0 },
    session: { capacity: 3 },
  }));
  base = `/api/courses/${courseId}/sessions/${sessionId}/classroom`;
  learner = await makeLearner(ctx.app, { firstName: 'Ada', lastName: 'Lovelace' });
  removable = await makeLearner(ctx.app, { firstName: 'Rita', lastName: 'Removed' });
  dropper = await makeLearner(ctx.app, { firstName: 'Dora', lastName: 'Dropper' });
  waitlisted = await makeLearner(ctx.app, { firstName: 'Walt', lastName: 'Waiting' });
  otherLearner = await makeLearner(ctx.app);
  otherEducator = await makeEducator(ctx.app, { firstName: 'Other', lastName: 'Educator' });
  for (const l of [learner, removable, dropper])
    expect((await enrol(ctx.app, l, courseId, sessionId)).json().enrolment.status).toBe('active');
  expect((await enrol(ctx.app, waitlisted, courseId, sessionId)).json().enrolment.status).toBe('waitlisted');
  // The other learner is enrolled elsewhere: another course's session gives nothing here.
  const elsewhere = await makePublishedCourse(ctx.app, otherEducator, { course: { priceCents: 0 } });
  expect((await enrol(ctx.app, otherLearner, elsewhere.courseId, elsewhere.sessionId)).statusCode).toBe(200);
});

describe('classroom access', () => {
  it('the educator and active learners read it; anyone else gets a 404 as for what does not exist', async () => {
    const post1 = await as(educator, 'POST', `${base}/posts`, { body: '# Welcome\n\nBring a **laptop**.', pinned: true });
    expect(post1.statusCode, post1.body).toBe(201);

    const mine = await as(educator, 'GET', base);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ role: 'educator', course: { title: 'Python for Curious Beginners' } });
    expect(
      mine
        .json()
        .members.map((m: { name: string }) => m.name)
        .sort(),
    ).toEqual(['Ada Lovelace', 'Dora Dropper', 'Rita Removed']);
    const theirs = await as(learner, 'GET', base);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ role: 'learner', members: [] });
    expect(theirs.json().posts[0]).toMatchObject({ body: '# Welcome\n\nBring a **laptop**.', pinned: true });
    expect(theirs.json().nextClass).not.toBeNull();

    const postId = post1.json().id;
    for (const [who, name] of [
      [otherLearner, 'other learner'],
      [otherEducator, 'other educator'],
      [waitlisted, 'waitlisted learner'],
    ] as const) {
      for (const [method, url, body] of [
        ['GET', base, undefined],
        ['POST', `${base}/posts/${postId}/replies`, { body: 'Let me in' }],
        ['POST', `${base}/posts/${postId}/report`, { reason: 'Let me in' }],
        ['POST', `${base}/posts`, { body: 'Hijack' }],
      ] as const) {
        const res = await as(who, method, url, body);
        expect(res.statusCode, `${name} ${method} ${url}: ${res.body}`).toBe(404);
        expect(res.body).not.toContain('Welcome');
      }
    }
    expect((await as(null, 'GET', base)).statusCode).toBe(401);
    // A session of another course under this course's id: 404 too.
    expect(
      (
        await as(
          educator,
          'GET',
          `/api/courses/${courseId}/sessions/${sessionId.slice(0, -1) + (sessionId.endsWith('0') ? '1' : '0')}/classroom`,
        )
      ).statusCode,
    ).toBe(404);
  });

  it("a dropped learner's next request is refused; the waitlisted learner promoted in their place gets in", async () => {
    expect((await as(dropper, 'GET', base)).statusCode).toBe(200);
    expect((await drop(ctx.app, dropper, courseId, sessionId)).statusCode).toBe(200);
    expect((await as(dropper, 'GET', base)).statusCode).toBe(404);
    const [{ status }] = await queryRows<{ status: string }>(
      ctx.app,
      sql`select status from enrolment where session_id = ${sessionId} and learner_id = ${waitlisted.id}`,
    );
    expect(status).toBe('active');
    expect((await as(waitlisted, 'GET', base)).statusCode).toBe(200);
  });

  it('only the educator posts, pins, hides and manages access (a learner with access gets 403)', async () => {
    expect((await as(learner, 'POST', `${base}/posts`, { body: 'Mine now' })).statusCode).toBe(403);
    const up = await upload(learner, pdfBytes(), 'notes.pdf');
    expect(up.statusCode).toBe(403);
    expect((await as(learner, 'PUT', `${base}/access/${removable.id}`, { access: 'removed' })).statusCode).toBe(403);
  });
});

describe('classroom files', () => {
  it('takes PDF, images and slides checked by content, and serves them to members only', async () => {
    const pdf = await upload(educator, pdfBytes(), 'Week 1 notes.pdf', 'application/pdf');
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect(pdf.json()).toMatchObject({ name: 'Week 1 notes.pdf', contentType: 'application/pdf' });
    const png = await upload(educator, await pngBytes(), 'diagram.png', 'image/png');
    expect(png.statusCode, png.body).toBe(201);
    const pptx = await upload(educator, pptxBytes(), 'slides.pptx');
    expect(pptx.statusCode, pptx.body).toBe(201);
    const odp = await upload(educator, odpBytes(), 'slides.odp');
    expect(odp.statusCode, odp.body).toBe(201);

    const created = await as(educator, 'POST', `${base}/posts`, {
      body: 'Material for week 1',
      links: [{ url: 'https://docs.python.org/3/tutorial/', label: 'The tutorial' }],
      fileIds: [pdf.json().id, png.json().id, pptx.json().id, odp.json().id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const page = (await as(learner, 'GET', base)).json();
    const material = page.posts.find((p: { id: string }) => p.id === created.json().id);
    expect(material.files.map((f: { name: string }) => f.name)).toEqual(['Week 1 notes.pdf', 'diagram.png', 'slides.pptx', 'slides.odp']);
    expect(material.links).toEqual([{ url: 'https://docs.python.org/3/tutorial/', label: 'The tutorial' }]);

    const url = material.files[0].url;
    const got = await get(ctx.app, url, { cookie: learner.cookie });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.rawPayload.equals(pdfBytes())).toBe(true);
    expect(got.headers['cache-control']).toBe('private, no-store');
    const slides = await get(ctx.app, material.files[2].url, { cookie: learner.cookie });
    expect(slides.headers['content-disposition']).toMatch(/^attachment;/);
    for (const who of [otherLearner, otherEducator]) expect((await get(ctx.app, url, { cookie: who.cookie })).statusCode).toBe(404);
    expect((await get(ctx.app, url)).statusCode).toBe(401);
    // The stored file is not served at /uploads/ (the key is private).
    const [{ storage_key }] = await queryRows<{ storage_key: string }>(
      ctx.app,
      sql`select storage_key from classroom_file where id = ${pdf.json().id}`,
    );
    expect((await get(ctx.app, `/uploads/${storage_key}`)).statusCode).toBe(404);
  });

  it('refuses a file whose content is not what its name says, and kinds it does not take', async () => {
    const fake = await upload(educator, await pngBytes(), 'notes.pdf', 'application/pdf');
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error).toMatchObject({ code: 'file_type_mismatch', fields: { file: 'content is a PNG image' } });
    const text = await upload(educator, Buffer.from('just some text, not slides at all'), 'slides.pptx');
    expect(text.statusCode).toBe(400);
    expect(text.json().error.code).toBe('file_type_mismatch');
    const word = await upload(educator, docxBytes(), 'slides.pptx');
    expect(word.statusCode).toBe(400);
    const exe = await upload(educator, Buffer.from('MZ\x90\x00 program'), 'run.exe');
    expect(exe.statusCode).toBe(400);
    expect(exe.json().error.fields).toEqual({ file: 'unsupported type' });
    // A file id of another upload cannot be posted twice, nor one unknown.
    const res = await as(educator, 'POST', `${base}/posts`, { body: 'x', fileIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(res.statusCode).toBe(400);
  });
});

describe('replies, hiding, reports, access', () => {
  it('learners reply; the educator hides a reply from learners; anyone with access reports a post', async () => {
    const p = (await as(educator, 'POST', `${base}/posts`, { body: 'Questions about week 1?' })).json().id;
    const reply = await as(learner, 'POST', `${base}/posts/${p}/replies`, { body: 'What is a list comprehension?' });
    expect(reply.statusCode, reply.body).toBe(201);
    const rude = await as(removable, 'POST', `${base}/posts/${p}/replies`, { body: 'Something rude' });
    expect(rude.statusCode).toBe(201);
    expect((await as(learner, 'POST', `${base}/replies/${rude.json().id}/hide`, { hidden: true })).statusCode).toBe(403);
    expect((await as(educator, 'POST', `${base}/replies/${rude.json().id}/hide`, { hidden: true })).statusCode).toBe(200);

    const postOf = async (who: { cookie: string }) =>
      (await as(who, 'GET', base)).json().posts.find((x: { id: string }) => x.id === p) as {
        replies: { body: string; hidden: boolean }[];
        reports: { reason: string }[];
        reportedByMe: boolean;
      };
    expect((await postOf(learner)).replies.map((r) => r.body)).toEqual(['What is a list comprehension?']);
    expect((await postOf(educator)).replies).toMatchObject([
      { body: 'What is a list comprehension?', hidden: false },
      { body: 'Something rude', hidden: true },
    ]);

    expect((await as(learner, 'POST', `${base}/posts/${p}/report`, { reason: 'Off topic for this class' })).statusCode).toBe(200);
    expect(await postOf(learner)).toMatchObject({ reportedByMe: true, reports: [] });
    expect((await postOf(educator)).reports).toMatchObject([{ reason: 'Off topic for this class' }]);
  });

  it('the educator removes a learner’s access (their next request is refused) and gives it back', async () => {
    expect((await as(removable, 'GET', base)).statusCode).toBe(200);
    const removed = await as(educator, 'PUT', `${base}/access/${removable.id}`, { access: 'removed' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await as(removable, 'GET', base)).statusCode).toBe(404);
    const members = (await as(educator, 'GET', base)).json().members as { id: string; access: string }[];
    expect(members.find((m) => m.id === removable.id)?.access).toBe('removed');
    // Not a learner of this session: 404.
    expect((await as(educator, 'PUT', `${base}/access/${otherLearner.id}`, { access: 'removed' })).statusCode).toBe(404);
    expect((await as(educator, 'PUT', `${base}/access/${removable.id}`, { access: 'restored' })).statusCode).toBe(200);
    expect((await as(removable, 'GET', base)).statusCode).toBe(200);
  });
});

describe('live and notified', () => {
  it('a new post reaches every member’s open tabs and notifies them "New post in <course>"', async () => {
    const heard: Record<string, unknown[]> = { educator: [], learner: [], outsider: [] };
    const stops = [
      ctx.app.realtime.subscribe(educator.id, (e) => heard.educator.push(e)),
      ctx.app.realtime.subscribe(learner.id, (e) => heard.learner.push(e)),
      ctx.app.realtime.subscribe(otherLearner.id, (e) => heard.outsider.push(e)),
    ];
    await Promise.all(stops.map((s) => s.ready));
    const created = await as(educator, 'POST', `${base}/posts`, { body: 'Class moves to room 4 tonight' });
    expect(created.statusCode).toBe(201);
    const postId = created.json().id;
    const until = Date.now() + 5000;
    while (Date.now() < until && (!heard.learner.length || !heard.educator.length)) await new Promise((r) => setTimeout(r, 20));
    for (const s of stops) s();
    const event = { type: CLASSROOM_CHANGED, sessionId, postId, what: 'post' };
    expect(heard.learner).toContainEqual(expect.objectContaining(event));
    expect(heard.educator).toContainEqual(expect.objectContaining(event));
    expect(heard.outsider).toEqual([]);

    // The whole class is told by a background job right after the commit (notifications/fan-out.ts).
    type Note = { type: string; title: string; body: string; link: string };
    let notes: Note[] = [];
    for (let i = 0; i < 100 && !notes.some((n) => n.body.includes('room 4')); i++) {
      notes = (await get(ctx.app, '/api/notifications', { cookie: learner.cookie })).json().notifications as Note[];
      if (!notes.some((n) => n.body.includes('room 4'))) await new Promise((r) => setTimeout(r, 50));
    }
    expect(notes.find((n) => n.type === 'classroom_post' && n.body.includes('room 4'))).toMatchObject({
      title: 'New post in Python for Curious Beginners',
      body: 'Grace Hopper: Class moves to room 4 tonight',
      link: `/course/${courseId}/session/${sessionId}/classroom`,
    });
    // The author is not told of their own post; an outsider never is.
    const educatorNotes = (await get(ctx.app, '/api/notifications', { cookie: educator.cookie })).json().notifications as {
      body: string;
    }[];
    expect(educatorNotes.some((n) => n.body.includes('room 4'))).toBe(false);
    const outsiderNotes = (await get(ctx.app, '/api/notifications', { cookie: otherLearner.cookie })).json().notifications as {
      type: string;
    }[];
    expect(outsiderNotes.some((n) => n.type === 'classroom_post')).toBe(false);

    // A learner's reply tells the educator.
    await as(learner, 'POST', `${base}/posts/${postId}/replies`, { body: 'Thanks, see you there' });
    const after = (await get(ctx.app, '/api/notifications', { cookie: educator.cookie })).json().notifications as {
      type: string;
      title: string;
    }[];
    expect(after.find((n) => n.type === 'classroom_post')).toMatchObject({ title: 'New reply in Python for Curious Beginners' });
  });

  it('the notification type has its own in-app and email settings', async () => {
    const prefs = await get(ctx.app, '/api/notifications/preferences', { cookie: learner.cookie });
    expect(prefs.statusCode).toBe(200);
    expect(prefs.body).toContain('classroom_post');
    const off = await call(
      ctx.app,
      'PUT',
      '/api/notifications/preferences',
      { preferences: { classroom_post: { inApp: false, email: 'off' } } },
      { cookie: learner.cookie },
    );
    expect(off.statusCode, off.body).toBe(200);
    await as(educator, 'POST', `${base}/posts`, { body: 'Quiet post' });
    // Once another learner (default settings) has it, the job has run for the whole class.
    for (let i = 0; i < 100; i++) {
      const other = (await get(ctx.app, '/api/notifications', { cookie: removable.cookie })).json().notifications as { body: string }[];
      if (other.some((n) => n.body.includes('Quiet post'))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const notes = (await get(ctx.app, '/api/notifications', { cookie: learner.cookie })).json().notifications as { body: string }[];
    expect(notes.some((n) => n.body.includes('Quiet post'))).toBe(false);
  });
});

describe('the educator edits and deletes posts', () => {
  it('an edit reaches learners and every open tab (no notification); only the educator may edit', async () => {
    const created = await as(educator, 'POST', `${base}/posts`, { body: 'Homework: chapter 1' });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().id;
    expect((await as(learner, 'GET', base)).json().posts.some((p: { body: string }) => p.body === 'Homework: chapter 1')).toBe(true);

    const heard: unknown[] = [];
    const stop = ctx.app.realtime.subscribe(learner.id, (e) => heard.push(e));
    await stop.ready;
    const edited = await as(educator, 'PATCH', `${base}/posts/${postId}`, { body: 'Homework: chapters 1 and 2' });
    expect(edited.statusCode, edited.body).toBe(200);
    const until = Date.now() + 5000;
    while (Date.now() < until && !heard.length) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(heard).toContainEqual(expect.objectContaining({ type: CLASSROOM_CHANGED, sessionId, postId, what: 'edit' }));

    const page = (await as(learner, 'GET', base)).json();
    const seen = page.posts.find((p: { id: string }) => p.id === postId);
    expect(seen).toMatchObject({ body: 'Homework: chapters 1 and 2', pinned: false });
    // Text and pin together; an empty change or an empty text is refused.
    expect((await as(educator, 'PATCH', `${base}/posts/${postId}`, { body: 'Homework: chapter 2', pinned: true })).statusCode).toBe(200);
    expect((await as(learner, 'GET', base)).json().posts[0]).toMatchObject({ id: postId, body: 'Homework: chapter 2', pinned: true });
    expect((await as(educator, 'PATCH', `${base}/posts/${postId}`, {})).statusCode).toBe(400);
    expect((await as(educator, 'PATCH', `${base}/posts/${postId}`, { body: '   ' })).statusCode).toBe(400);
    await as(educator, 'PATCH', `${base}/posts/${postId}`, { pinned: false });

    expect((await as(learner, 'PATCH', `${base}/posts/${postId}`, { body: 'Mine now' })).statusCode).toBe(403);
    for (const who of [otherEducator, otherLearner])
      expect((await as(who, 'PATCH', `${base}/posts/${postId}`, { body: 'Mine now' })).statusCode).toBe(404);
    // Another educator's post id, through the other educator's own classroom: 404.
    const theirs = await makePublishedCourse(ctx.app, otherEducator, { course: { priceCents: 0 } });
    const theirBase = `/api/courses/${theirs.courseId}/sessions/${theirs.sessionId}/classroom`;
    expect((await as(otherEducator, 'PATCH', `${theirBase}/posts/${postId}`, { body: 'Mine now' })).statusCode).toBe(404);
    expect((await as(otherEducator, 'DELETE', `${theirBase}/posts/${postId}`)).statusCode).toBe(404);
    expect((await as(educator, 'GET', base)).json().posts.find((p: { id: string }) => p.id === postId).body).toBe('Homework: chapter 2');
  });

  it('a delete takes the post with its replies, reports and files; learners no longer see it', async () => {
    const pdf = await upload(educator, pdfBytes(), 'old notes.pdf', 'application/pdf');
    expect(pdf.statusCode, pdf.body).toBe(201);
    const created = await as(educator, 'POST', `${base}/posts`, { body: 'Posted by mistake', fileIds: [pdf.json().id] });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().id;
    expect((await as(learner, 'POST', `${base}/posts/${postId}/replies`, { body: 'What is this?' })).statusCode).toBe(201);
    expect((await as(learner, 'POST', `${base}/posts/${postId}/report`, { reason: 'Wrong class' })).statusCode).toBe(200);
    const before = (await as(learner, 'GET', base)).json();
    const fileUrl = before.posts.find((p: { id: string }) => p.id === postId).files[0].url;
    expect((await get(ctx.app, fileUrl, { cookie: learner.cookie })).statusCode).toBe(200);
    const [{ storage_key }] = await queryRows<{ storage_key: string }>(
      ctx.app,
      sql`select storage_key from classroom_file where id = ${pdf.json().id}`,
    );

    // Learners and outsiders cannot delete it.
    expect((await as(learner, 'DELETE', `${base}/posts/${postId}`)).statusCode).toBe(403);
    for (const who of [otherEducator, otherLearner]) expect((await as(who, 'DELETE', `${base}/posts/${postId}`)).statusCode).toBe(404);
    expect((await as(null, 'DELETE', `${base}/posts/${postId}`)).statusCode).toBe(401);

    const heard: unknown[] = [];
    const stop = ctx.app.realtime.subscribe(learner.id, (e) => heard.push(e));
    await stop.ready;
    const deleted = await as(educator, 'DELETE', `${base}/posts/${postId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const until = Date.now() + 5000;
    while (Date.now() < until && !heard.length) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(heard).toContainEqual(expect.objectContaining({ type: CLASSROOM_CHANGED, sessionId, postId, what: 'delete' }));

    const after = (await as(learner, 'GET', base)).json();
    expect(after.posts.some((p: { id: string }) => p.id === postId)).toBe(false);
    expect(JSON.stringify(after)).not.toContain('What is this?');
    expect((await get(ctx.app, fileUrl, { cookie: learner.cookie })).statusCode).toBe(404);
    expect((await get(ctx.app, fileUrl, { cookie: educator.cookie })).statusCode).toBe(404);
    expect(await ctx.app.files.get(storage_key)).toBeNull();
    const [left] = await queryRows<{ replies: number; reports: number; files: number }>(
      ctx.app,
      sql`select (select count(*)::int from classroom_reply where post_id = ${postId}) as replies,
        (select count(*)::int from classroom_report where post_id = ${postId}) as reports,
        (select count(*)::int from classroom_file where post_id = ${postId} or id = ${pdf.json().id}) as files`,
    );
    expect(left).toEqual({ replies: 0, reports: 0, files: 0 });
    // A second delete: the post does not exist.
    expect((await as(educator, 'DELETE', `${base}/posts/${postId}`)).statusCode).toBe(404);
  });
});

describe('reported classroom posts in the admin console', () => {
  it('an admin sees a reported post with its reporter; others get 403', async () => {
    const created = await as(educator, 'POST', `${base}/posts`, { body: 'A post someone reports' });
    const postId = created.json().id;
    expect((await as(learner, 'POST', `${base}/posts/${postId}/report`, { reason: 'Off topic here' })).statusCode).toBe(200);
    const admin = await makeLearner(ctx.app, { firstName: 'Ada', lastName: 'Admin' });
    await queryRows(ctx.app, sql`update "user" set role = 'admin' where id = ${admin.id}`);

    const list = await get(ctx.app, '/api/admin/classroom-reports', { cookie: admin.cookie });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().reports.find((r: { postId: string }) => r.postId === postId)).toMatchObject({
      body: 'A post someone reports',
      reason: 'Off topic here',
      link: `/course/${courseId}/session/${sessionId}/classroom`,
      author: { id: educator.id },
      reporter: { id: learner.id, name: 'Ada Lovelace' },
    });
    for (const who of [learner, educator])
      expect((await get(ctx.app, '/api/admin/classroom-reports', { cookie: who.cookie })).statusCode).toBe(403);
    expect((await get(ctx.app, '/api/admin/classroom-reports')).statusCode).toBe(401);
  });
});

it('posts page in order: pinned first, then the newest, 20 a page', async () => {
  const e = await makeEducator(ctx.app);
  const c = await makePublishedCourse(ctx.app, e, { course: { priceCents: 0 } });
  const b = `/api/courses/${c.courseId}/sessions/${c.sessionId}/classroom`;
  for (let i = 0; i < 23; i++) await post(ctx.app, `${b}/posts`, { body: `Post ${i}`, pinned: i === 0 }, { cookie: e.cookie });
  const first = (await get(ctx.app, b, { cookie: e.cookie })).json();
  expect(first.posts.map((p: { body: string }) => p.body).slice(0, 3)).toEqual(['Post 0', 'Post 22', 'Post 21']);
  expect(first.posts).toHaveLength(21);
  expect(first.nextCursor).toBeTruthy();
  const second = (await get(ctx.app, `${b}?before=${encodeURIComponent(first.nextCursor)}`, { cookie: e.cookie })).json();
  expect(second.posts.map((p: { body: string }) => p.body)).toEqual(['Post 2', 'Post 1']);
  expect(second.nextCursor).toBeNull();
  // A cursor this page never gave (an impossible date) is refused as input, never reaching the database.
  const bad = await get(ctx.app, `${b}?before=${encodeURIComponent('2026-02-30T10:00:00.000000Z_' + c.sessionId)}`, { cookie: e.cookie });
  expect(bad.statusCode).toBe(400);
});

it('every classroom endpoint is in the OpenAPI document', async () => {
  const doc = (await get(ctx.app, '/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
  const b = '/api/courses/{courseId}/sessions/{sessionId}/classroom';
  const expected: [string, string][] = [
    [b, 'get'],
    [`${b}/files`, 'post'],
    [`${b}/files/{fileId}`, 'get'],
    [`${b}/posts`, 'post'],
    [`${b}/posts/{postId}`, 'patch'],
    [`${b}/posts/{postId}`, 'delete'],
    [`${b}/posts/{postId}/replies`, 'post'],
    [`${b}/posts/{postId}/report`, 'post'],
    [`${b}/replies/{replyId}/hide`, 'post'],
    [`${b}/access/{userId}`, 'put'],
  ];
  for (const [path, method] of expected) expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
});
