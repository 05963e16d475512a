import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, signInSession, twoFactor, user as userTable } from '../../../src/server/db/schema/accounts.js';
import { adminAudit } from '../../../src/server/db/schema/admin.js';
import { job } from '../../../src/server/db/schema/jobs.js';
import { purchase } from '../../../src/server/db/schema/payments.js';
import { course as courseTable } from '../../../src/server/db/schema/courses.js';
import { educator as educatorTable } from '../../../src/server/db/schema/educators.js';
import { makeEducator, makePublishedCourse } from '../../support/courses.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, followLink, latestLink, type SignedInUser } from '../../support/factories.js';
import { call, get, post, uniqueEmail } from '../../support/http.js';
import { totp } from '../../support/totp.js';

const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
let app: TestApp;
let admin: SignedInUser;
let learner: SignedInUser;

beforeAll(async () => {
  app = await buildTestApp({ ADMIN_EMAILS: `someone-else@example.com, ${adminEmail.toUpperCase()}` });
  admin = await createSignedInUser(app, { email: adminEmail });
  learner = await createSignedInUser(app);
});
afterAll(async () => {
  await app.close();
});

const roleOf = async (id: string) =>
  (await app.database.db.select({ role: userTable.role }).from(userTable).where(eq(userTable.id, id)))[0].role;
const auditOf = (targetId: string) => app.database.db.select().from(adminAudit).where(eq(adminAudit.targetId, targetId));

describe('admin role', () => {
  it('comes from ADMIN_EMAILS at sign-up; others are plain users', async () => {
    expect(await roleOf(admin.id)).toBe('admin');
    expect(await roleOf(learner.id)).toBe('user');
    expect((await get(app, '/api/admin/me', { cookie: admin.cookie })).json()).toEqual({ admin: true });
    expect((await get(app, '/api/admin/me', { cookie: learner.cookie })).json()).toEqual({ admin: false });
  });

  it('is given at start to an existing account listed in ADMIN_EMAILS', async () => {
    const later = await createSignedInUser(app);
    const second = await buildTestApp({ ADMIN_EMAILS: later.email });
    try {
      expect(await roleOf(later.id)).toBe('admin');
    } finally {
      await second.close();
    }
  });

  it('refuses every admin route to a non-admin with 403 (401 signed out)', async () => {
    const id = learner.id;
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${id}`],
      ['POST', '/api/admin/users', { email: uniqueEmail(), firstName: 'Eve' }],
      ['POST', `/api/admin/users/${id}/ban`, { reason: 'x' }],
      ['POST', `/api/admin/users/${id}/unban`, {}],
      ['POST', `/api/admin/users/${id}/reset-two-factor`, {}],
      ['PUT', `/api/admin/users/${id}/role`, { role: 'admin' }],
      ['POST', `/api/admin/users/${id}/delete`, { confirmEmail: learner.email }],
      ['GET', '/api/admin/jobs'],
      ['POST', `/api/admin/jobs/${randomUUID()}/retry`],
      ['GET', '/api/admin/refunds-due'],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(app, method as 'GET', url, body, { cookie: learner.cookie });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain(learner.email);
      const anon = await call(app, method as 'GET', url, body);
      expect(anon.statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect(await roleOf(learner.id)).toBe('user');
  });

  it('can be granted and revoked by an admin (audited), not revoked from oneself', async () => {
    const other = await createSignedInUser(app);
    expect((await call(app, 'PUT', `/api/admin/users/${other.id}/role`, { role: 'admin' }, { cookie: admin.cookie })).statusCode).toBe(200);
    expect(await roleOf(other.id)).toBe('admin');
    expect((await get(app, '/api/admin/users', { cookie: other.cookie })).statusCode).toBe(200);
    expect((await call(app, 'PUT', `/api/admin/users/${other.id}/role`, { role: 'user' }, { cookie: admin.cookie })).statusCode).toBe(200);
    expect((await get(app, '/api/admin/users', { cookie: other.cookie })).statusCode).toBe(403);
    expect((await auditOf(other.id)).map((a) => a.action)).toEqual(expect.arrayContaining(['grant_admin', 'revoke_admin']));
    const self = await call(app, 'PUT', `/api/admin/users/${admin.id}/role`, { role: 'user' }, { cookie: admin.cookie });
    expect(self.statusCode).toBe(409);
  });
});

describe('users', () => {
  it('searches by email or name, filters, paginates (at most 100)', async () => {
    const found = await get(app, `/api/admin/users?q=${encodeURIComponent(learner.email)}`, { cookie: admin.cookie });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().users.map((u: { id: string }) => u.id)).toEqual([learner.id]);
    const admins = (await get(app, '/api/admin/users?role=admin&pageSize=100', { cookie: admin.cookie })).json();
    expect(admins.users.every((u: { role: string }) => u.role === 'admin')).toBe(true);
    expect(admins.users.map((u: { id: string }) => u.id)).toContain(admin.id);
    const page = (await get(app, '/api/admin/users?pageSize=1&page=2', { cookie: admin.cookie })).json();
    expect(page.users).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect((await get(app, '/api/admin/users?pageSize=101', { cookie: admin.cookie })).statusCode).toBe(400);
    // A % is searched literally (other test files may create such names on a shared database).
    const percent = (await get(app, '/api/admin/users?q=%25&pageSize=100', { cookie: admin.cookie })).json().users;
    for (const u of percent as { email: string; firstName: string; lastName: string }[])
      expect(`${u.email} ${u.firstName} ${u.lastName}`).toContain('%');
  });

  it('shows one user with their sign-in sessions; 404 for an unknown id', async () => {
    const res = await get(app, `/api/admin/users/${learner.id}`, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe(learner.email);
    expect(res.json().signInSessions.length).toBeGreaterThanOrEqual(1);
    expect((await get(app, `/api/admin/users/${randomUUID()}`, { cookie: admin.cookie })).statusCode).toBe(404);
  });
});

describe('invite', () => {
  it('creates an unverified account and emails a set-password link; setting it lets them in', async () => {
    const email = uniqueEmail();
    const res = await post(app, '/api/admin/users', { email, firstName: 'Ivy', lastName: 'Invited' }, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await app.database.db.select().from(userTable).where(eq(userTable.id, res.json().id));
    expect([row.email, row.emailVerified]).toEqual([email, false]);
    expect((await post(app, '/api/admin/users', { email, firstName: 'Ivy' }, { cookie: admin.cookie })).statusCode).toBe(409);

    const followed = await followLink(app, await latestLink(app, email, /reset/i));
    const token = new URL(followed.headers.location!, 'http://x').searchParams.get('token');
    expect(token).toBeTruthy();
    expect((await post(app, '/api/accounts/reset-password', { token, password: 'Invited-and-set-2026' })).statusCode).toBe(200);
    expect((await post(app, '/api/accounts/sign-in', { email, password: 'Invited-and-set-2026' })).statusCode).toBe(200);
    expect((await auditOf(row.id)).map((a) => a.action)).toEqual(['invite_user']);
  });
});

describe('ban', () => {
  it('ends every sign-in session at once, shows the reason at log-in, and unban lets them in', async () => {
    const u = await createSignedInUser(app);
    const banned = await post(app, `/api/admin/users/${u.id}/ban`, { reason: 'Spam in reviews' }, { cookie: admin.cookie });
    expect(banned.statusCode, banned.body).toBe(200);
    expect(await app.database.db.select().from(signInSession).where(eq(signInSession.userId, u.id))).toEqual([]);
    expect((await get(app, '/api/me', { cookie: u.cookie })).statusCode).toBe(401);
    const login = await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toMatchObject({ code: 'account_banned', message: expect.stringContaining('Spam in reviews') });
    // A wrong password learns nothing about the ban.
    const wrong = await post(app, '/api/accounts/sign-in', { email: u.email, password: 'Wrong-password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('Spam');

    expect((await post(app, `/api/admin/users/${u.id}/unban`, {}, { cookie: admin.cookie })).statusCode).toBe(200);
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(200);
    const audits = await auditOf(u.id);
    expect(audits.map((a) => [a.action, a.reason, a.adminId])).toEqual(
      expect.arrayContaining([
        ['ban', 'Spam in reviews', admin.id],
        ['unban', null, admin.id],
      ]),
    );
  });

  it('needs a reason and cannot target oneself', async () => {
    expect((await post(app, `/api/admin/users/${learner.id}/ban`, { reason: '  ' }, { cookie: admin.cookie })).statusCode).toBe(400);
    expect((await post(app, `/api/admin/users/${admin.id}/ban`, { reason: 'x' }, { cookie: admin.cookie })).statusCode).toBe(409);
  });
});

describe('reset two-factor', () => {
  it('deletes the factor and turns it off, so the password alone signs in', async () => {
    const u = await createSignedInUser(app);
    const setup = await post(app, '/api/accounts/two-factor/setup', { password: u.password }, { cookie: u.cookie });
    expect(setup.statusCode, setup.body).toBe(200);
    const confirm = await post(app, '/api/accounts/two-factor/confirm', { code: totp(setup.json().key) }, { cookie: u.cookie });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(202);

    expect(
      (await post(app, `/api/admin/users/${u.id}/reset-two-factor`, { reason: 'Lost phone' }, { cookie: admin.cookie })).statusCode,
    ).toBe(200);
    expect(await app.database.db.select().from(twoFactor).where(eq(twoFactor.userId, u.id))).toEqual([]);
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(200);
    expect((await auditOf(u.id)).map((a) => a.action)).toContain('reset_two_factor');
  });
});

describe('delete', () => {
  it('erases personal data, keeps payment rows (pseudonymised) and refuses a wrong confirmation', async () => {
    const u = await createSignedInUser(app, { firstName: 'Erin', lastName: 'Erasable' });
    const [bought] = await app.database.db
      .insert(purchase)
      .values({ userId: u.id, kind: 'plan', planId: 'test', amountCents: 1900, currency: 'usd', feePercent: 10, status: 'fulfilled' })
      .returning({ id: purchase.id });

    const wrong = await post(app, `/api/admin/users/${u.id}/delete`, { confirmEmail: 'not-it@example.com' }, { cookie: admin.cookie });
    expect(wrong.statusCode).toBe(400);
    const res = await post(
      app,
      `/api/admin/users/${u.id}/delete`,
      { confirmEmail: u.email, reason: 'Asked by email' },
      { cookie: admin.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);

    const [row] = await app.database.db.select().from(userTable).where(eq(userTable.id, u.id));
    expect(row.email).toBe(`deleted-${u.id}@invalid`);
    expect([row.firstName, row.lastName, row.city, row.image, row.birthdate]).toEqual(['Deleted', 'user', null, null, null]);
    expect(JSON.stringify(row)).not.toContain('Erasable');
    expect(await app.database.db.select().from(account).where(eq(account.userId, u.id))).toEqual([]);
    expect(await app.database.db.select().from(signInSession).where(eq(signInSession.userId, u.id))).toEqual([]);
    const kept = await app.database.db.select().from(purchase).where(eq(purchase.id, bought.id));
    expect(kept).toHaveLength(1);
    expect(kept[0].userId).toBe(u.id);
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await auditOf(u.id)).map((a) => [a.action, a.reason])).toContainEqual(['delete_user', 'Asked by email']);
  });
});

describe('delete an educator', () => {
  it('erases the public profile, takes their courses out of the catalogue and their name off them', async () => {
    const teacher = await makeEducator(app, { firstName: 'Tamsin', lastName: 'Teachwell' });
    const { courseId } = await makePublishedCourse(app, teacher);
    const res = await post(app, `/api/admin/users/${teacher.id}/delete`, { confirmEmail: teacher.email }, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);

    const [profile] = await app.database.db.select().from(educatorTable).where(eq(educatorTable.userId, teacher.id));
    expect([profile.bio, profile.headline, profile.profileImage, profile.links, profile.subjects]).toEqual([null, null, null, [], []]);
    const [c] = await app.database.db.select().from(courseTable).where(eq(courseTable.id, courseId));
    expect([c.status, c.educatorName]).toEqual(['archived', 'Deleted user']);
    expect(JSON.stringify(profile) + JSON.stringify(c)).not.toContain('Teachwell');
  });
});

describe('operations', () => {
  it('lists failed jobs and queues one again (audited); 404 for a job that did not fail', async () => {
    const [failed] = await app.database.db
      .insert(job)
      .values({ kind: 'admin-test-no-handler', payload: {}, state: 'failed', attempts: 5, lastError: 'SMTP down' })
      .returning({ id: job.id });
    const list = await get(app, '/api/admin/jobs', { cookie: admin.cookie });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().jobs).toContainEqual(expect.objectContaining({ id: failed.id, lastError: 'SMTP down', attempts: 5 }));
    expect((await post(app, `/api/admin/jobs/${failed.id}/retry`, undefined, { cookie: admin.cookie })).statusCode).toBe(200);
    const [after] = await app.database.db.select().from(job).where(eq(job.id, failed.id));
    expect([after.state, after.attempts]).toEqual(['queued', 0]);
    expect((await post(app, `/api/admin/jobs/${failed.id}/retry`, undefined, { cookie: admin.cookie })).statusCode).toBe(404);
    expect((await auditOf(failed.id)).map((a) => a.action)).toEqual(['retry_job']);
    await app.database.db.delete(job).where(eq(job.id, failed.id));
  });

  it('lists refunds owed', async () => {
    const res = await get(app, '/api/admin/refunds-due', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(Array.isArray(res.json().refunds)).toBe(true);
  });
});

describe('audit log', () => {
  it('is readable by admins and the database refuses to change or delete it', async () => {
    const res = await get(app, '/api/admin/audit', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().entries.length).toBeGreaterThan(0);
    expect(res.json().entries[0].adminEmail).toBe(adminEmail);
    const db = app.database.db;
    const refusal = (q: Promise<unknown>) =>
      q.then(
        () => 'allowed',
        (err: Error) => String((err.cause as Error | undefined)?.message ?? err.message),
      );
    expect(await refusal(db.execute(sql`update admin_audit set reason = 'edited'`))).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(db.execute(sql`delete from admin_audit`))).toMatch(/append-only: DELETE refused/);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(adminAudit))[0].n).toBeGreaterThan(0);
  });
});
