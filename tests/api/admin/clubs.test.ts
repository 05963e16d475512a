/**
 * Issue 22: the admin console's clubs section. Admins list and search clubs (by name, or the
 * owner's name or email) with their owner and counts, open one, and delete one that breaks
 * the rules (its name typed, a reason): audited, the attendees of its events to come told
 * (club.deleted). Everyone else gets 403 (401 signed out); an unknown id 404.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit } from '../../../src/server/db/schema/admin.js';
import { club } from '../../../src/server/db/schema/clubs.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { join, makeClub, makeEvents, recordClubEvents } from '../../support/clubs.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, get, post } from '../../support/http.js';

const adminEmail = `admin-clubs-${randomUUID().slice(0, 8)}@example.com`;
let app: TestApp;
let admin: SignedInUser;
let heard: ReturnType<typeof recordClubEvents>;

beforeAll(async () => {
  app = await buildTestApp({ ADMIN_EMAILS: adminEmail });
  heard = recordClubEvents(app);
  admin = await createSignedInUser(app, { email: adminEmail, firstName: 'Ada', lastName: 'Admin' });
});
afterAll(async () => {
  await app.close();
});

/** A club of a fresh owner, named uniquely, with an event to come and a member going to it. */
async function clubWithEvent(name: string, ownerName = 'Olga') {
  const owner = await createSignedInUser(app, { firstName: ownerName, lastName: `Owner${randomUUID().slice(0, 4)}` });
  const clubId = await makeClub(app, owner, { name });
  const [eventId] = await makeEvents(app, owner, clubId);
  const member = await createSignedInUser(app, { firstName: 'Mia' });
  await join(app, member, clubId);
  const rsvp = await call(app, 'PUT', `/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, { cookie: member.cookie });
  expect(rsvp.statusCode, rsvp.body).toBe(200);
  return { owner, member, clubId, eventId };
}

describe('admin clubs', () => {
  it('lists clubs newest first with owner and counts; searches by club name and by owner', async () => {
    const tag = randomUUID().slice(0, 8);
    const older = await clubWithEvent(`Chess ${tag}`);
    const newer = await createSignedInUser(app, { firstName: 'Zed' });
    const newerId = await makeClub(app, newer, { name: `Knitting ${tag}` });

    const byName = await get(app, `/api/admin/clubs?q=${tag}`, { cookie: admin.cookie });
    expect(byName.statusCode, byName.body).toBe(200);
    const list = byName.json();
    expect(list.total).toBe(2);
    expect(list.clubs.map((c: { id: string }) => c.id)).toEqual([newerId, older.clubId]);
    expect(list.clubs[1]).toMatchObject({
      name: `Chess ${tag}`,
      owner: { id: older.owner.id, email: older.owner.email },
      memberCount: 2,
      eventCount: 1,
      upcomingEventCount: 1,
      visibility: 'public',
    });
    expect(list.clubs[1].owner.name).toContain('Olga');

    const byOwner = await get(app, `/api/admin/clubs?q=${encodeURIComponent(older.owner.email)}`, { cookie: admin.cookie });
    expect(byOwner.json().clubs.map((c: { id: string }) => c.id)).toEqual([older.clubId]);

    // A LIKE wildcard is searched for as itself.
    expect((await get(app, `/api/admin/clubs?q=${tag}%25`, { cookie: admin.cookie })).json().total).toBe(0);

    const page = await get(app, `/api/admin/clubs?q=${tag}&pageSize=1&page=2`, { cookie: admin.cookie });
    expect(page.json()).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(page.json().clubs.map((c: { id: string }) => c.id)).toEqual([older.clubId]);
  });

  it('opens one club with its organisers and events to come; 404 for another id', async () => {
    const { owner, member, clubId, eventId } = await clubWithEvent(`Detail ${randomUUID().slice(0, 8)}`);
    const promote = await call(app, 'POST', `/api/clubs/${clubId}/members/${member.id}`, { action: 'promote' }, { cookie: owner.cookie });
    expect(promote.statusCode, promote.body).toBe(200);
    const res = await get(app, `/api/admin/clubs/${clubId}`, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c.owner.id).toBe(owner.id);
    expect(c.organisers).toEqual([expect.objectContaining({ id: member.id, email: member.email })]);
    expect(c.upcomingEvents).toEqual([expect.objectContaining({ id: eventId, title: 'Blitz night', goingCount: 1 })]);
    expect(c.rules).toBe('Be kind. Touch-move applies.');
    expect(c.summary).toContain('chess every week');
    expect(c.summary).not.toContain('**');

    const other = await get(app, `/api/admin/clubs/${randomUUID()}`, { cookie: admin.cookie });
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe('No such club');
  });

  it('deletes a club with its name typed and a reason: audited, attendees told', async () => {
    const name = `Rulebreakers ${randomUUID().slice(0, 8)}`;
    const { owner, member, clubId, eventId } = await clubWithEvent(name);

    const wrongName = await post(
      app,
      `/api/admin/clubs/${clubId}/delete`,
      { confirmName: 'Something else', reason: 'Spam' },
      { cookie: admin.cookie },
    );
    expect(wrongName.statusCode).toBe(400);
    expect(wrongName.json().error.fields).toEqual({ confirmName: 'Type the club name exactly' });
    const noReason = await post(app, `/api/admin/clubs/${clubId}/delete`, { confirmName: name }, { cookie: admin.cookie });
    expect(noReason.statusCode).toBe(400);
    expect(JSON.stringify(noReason.json().error.fields)).toContain('reason');
    expect(await app.database.db.select().from(club).where(eq(club.id, clubId))).toHaveLength(1);

    const res = await post(
      app,
      `/api/admin/clubs/${clubId}/delete`,
      { confirmName: name, reason: 'Selling counterfeit boards' },
      { cookie: admin.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await app.database.db.select().from(club).where(eq(club.id, clubId))).toHaveLength(0);
    expect((await get(app, `/api/admin/clubs/${clubId}`, { cookie: admin.cookie })).statusCode).toBe(404);

    const deleted = heard.find((h) => h.name === 'club.deleted' && h.event.clubId === clubId);
    expect(deleted?.event).toMatchObject({
      name,
      cancelledEvents: [expect.objectContaining({ eventId, attendeeIds: expect.arrayContaining([member.id]) })],
    });

    const [row] = await app.database.db.select().from(adminAudit).where(eq(adminAudit.targetId, clubId));
    expect(row).toMatchObject({ adminId: admin.id, action: 'delete_club', reason: 'Selling counterfeit boards' });
    expect(row.details).toEqual({ name, ownerId: owner.id });
    const log = (await get(app, '/api/admin/audit', { cookie: admin.cookie })).json();
    const entry = log.entries.find((e: { targetId: string }) => e.targetId === clubId);
    expect(entry.target).toEqual({ kind: 'club', id: clubId, name, email: null });

    const again = await post(app, `/api/admin/clubs/${clubId}/delete`, { confirmName: name, reason: 'Again' }, { cookie: admin.cookie });
    expect(again.statusCode).toBe(404);
  });

  it('is refused to everyone but admins (the club owner included): 403, 401 signed out, nothing changed', async () => {
    const name = `Kept ${randomUUID().slice(0, 8)}`;
    const { owner, clubId } = await clubWithEvent(name);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/clubs'],
      ['GET', `/api/admin/clubs/${clubId}`],
      ['POST', `/api/admin/clubs/${clubId}/delete`, { confirmName: name, reason: 'Mine' }],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(app, method as 'GET', url, body, { cookie: owner.cookie });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain(owner.email);
      expect((await call(app, method as 'GET', url, body)).statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect(await app.database.db.select().from(club).where(eq(club.id, clubId))).toHaveLength(1);
    expect(await app.database.db.select().from(adminAudit).where(eq(adminAudit.targetId, clubId))).toHaveLength(0);
  });
});
