import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import { wallTimeToUtc } from '../../src/shared/time';
import {
  becomeEducator,
  createClassTimes,
  createCourse,
  createSession,
  dayFromNow,
  linkIn,
  newUser,
  publishCourse,
  uniqueEmail,
  type NewUser,
  type OutboxMessage,
  type Send,
} from '../support/test-data';
import { encodeProfile, PROFILE_COOKIE, type GoogleProfile } from './oidc-provider';

/**
 * Helpers of the end-to-end suite: users made through the real API (their verification
 * link read from the dev outbox), sessions seeded into a browser context by signing in
 * through that context's own request client, and the Google identity a test wants.
 */
export const BASE_URL = `http://localhost:${process.env.E2E_PORT}`;
export const OIDC_HOST = '127.0.0.1';

// The users, bodies and factories of the API suite's support, shared (that module has no Vitest).
export { dayFromNow, linkIn, newUser, uniqueEmail, type NewUser, type OutboxMessage };

export interface CurrentUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  city: string | null;
  profileImage: string;
  verified: boolean;
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

/**
 * A plain HTTP client with its own cookies, for setting things up behind the scenes. Each
 * one connects from its own loopback address (127.x.y.z), as a separate visitor would:
 * the server's per-IP limits (10 sign-ups a minute) then hold for the browser's own
 * requests without the suite's many set-up calls adding up to them.
 */
export class ApiClient {
  private readonly localAddress = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  private readonly cookies = new Map<string, string>();

  get(pathOrUrl: string): Promise<Reply> {
    return this.request('GET', pathOrUrl);
  }

  post(pathOrUrl: string, data?: unknown): Promise<Reply> {
    return this.request('POST', pathOrUrl, data);
  }

  /** An HTML form submission (application/x-www-form-urlencoded), as a browser sends it. */
  postForm(pathOrUrl: string, fields: Record<string, string>): Promise<Reply> {
    return this.request('POST', pathOrUrl, new URLSearchParams(fields));
  }

  /** The shared factories' client (tests/support/test-data.ts). */
  readonly send: Send = (method, pathOrUrl, data) => this.request(method, pathOrUrl, data);

  private request(method: string, pathOrUrl: string, data?: unknown): Promise<Reply> {
    const url = new URL(pathOrUrl, BASE_URL);
    const form = data instanceof URLSearchParams;
    const body = data === undefined ? undefined : form ? data.toString() : JSON.stringify(data);
    const headers: OutgoingHttpHeaders = { host: url.host, origin: BASE_URL, accept: form ? 'text/html' : 'application/json' };
    if (body !== undefined) headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method, headers, localAddress: this.localAddress },
        (res) => {
          for (const cookie of res.headers['set-cookie'] ?? []) {
            const [pair] = cookie.split(';');
            const at = pair.indexOf('=');
            const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
            if (value && !/max-age=0/i.test(cookie)) this.cookies.set(name, value);
            else this.cookies.delete(name);
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** The emails of the dev outbox to this address, newest first. */
export async function outbox(api: ApiClient, to: string): Promise<OutboxMessage[]> {
  const response = await api.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.status, response.text).toBe(200);
  return response.json<OutboxMessage[]>();
}

/** The newest email to this address whose subject matches, waiting for it to arrive. */
export async function latestEmail(api: ApiClient, to: string, subject: RegExp): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => !!(found = (await outbox(api, to)).find((m) => subject.test(m.subject))), {
      message: `an email "${subject}" to ${to} in the outbox`,
      timeout: 30_000,
    })
    .toBe(true);
  return found!;
}

/** Signs up through the API; the account is not verified yet. */
export async function signUpViaApi(user: NewUser = newUser()): Promise<NewUser> {
  const response = await new ApiClient().post('/api/accounts/sign-up', user);
  expect(response.status, response.text).toBe(201);
  return user;
}

/** A verified account, ready to log in. */
export async function createVerifiedUser(overrides: Partial<NewUser> = {}): Promise<NewUser & { id: string }> {
  const user = await signUpViaApi(newUser(overrides));
  const api = new ApiClient();
  const verified = await api.get(linkIn(await latestEmail(api, user.email, /verify/i)));
  expect(verified.status, 'the verification link redirects').toBe(302);
  expect(verified.headers.location).toContain('/email-verified');
  // Verifying signs the link's browser in; that session is ended so tests start clean.
  const me = await api.get('/api/me');
  expect(me.status, me.text).toBe(200);
  await api.post('/api/accounts/sign-out');
  return { ...user, id: me.json<CurrentUser>().id };
}

/**
 * Signs in through the context's own request client, so the session cookie lands in the
 * browser: pages opened afterwards are signed in without clicking through the form.
 */
export async function logIn(target: BrowserContext | Page, user: Pick<NewUser, 'email' | 'password'>): Promise<CurrentUser> {
  const response = await target.request.post(`${BASE_URL}/api/accounts/sign-in`, {
    data: { email: user.email, password: user.password },
    headers: { origin: BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as CurrentUser;
}

/** GET /api/me with the cookies of this browser context: the user, or the HTTP status. */
export async function whoAmI(target: BrowserContext | Page): Promise<CurrentUser | number> {
  const response = await target.request.get(`${BASE_URL}/api/me`);
  return response.ok() ? ((await response.json()) as CurrentUser) : response.status();
}

/** Who the local OIDC provider signs in as, for this browser context. */
export async function useGoogleProfile(context: BrowserContext, profile: GoogleProfile) {
  const port = process.env.E2E_OIDC_PORT;
  await context.addCookies([{ name: PROFILE_COOKIE, value: encodeProfile(profile), url: `http://${OIDC_HOST}:${port}/` }]);
}

/** Collects every dialog a page opens (an alert() from injected script would be one), dismissing it. */
export function collectDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

/** Opens the avatar menu of the app shell. */
export async function openAvatarMenu(page: Page) {
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  return page.getByRole('menu');
}

/** An API client signed in as this user. */
export async function signedInClient(user: Pick<NewUser, 'email' | 'password'>): Promise<ApiClient> {
  const api = new ApiClient();
  const response = await api.post('/api/accounts/sign-in', { email: user.email, password: user.password });
  expect(response.status, response.text).toBe(200);
  return api;
}

/** A verified user with an educator record (onboarding step 1), signed in through an API client. */
export async function createEducator(
  overrides: Partial<NewUser> = {},
  educator: Record<string, unknown> = {},
): Promise<{ api: ApiClient; user: NewUser & { id: string } }> {
  const user = await createVerifiedUser(overrides);
  const api = await signedInClient(user);
  await becomeEducator(api.send, educator);
  return { api, user };
}

/**
 * Onboarding step 2 behind the scenes: the Connect account, its onboarding link, and the
 * payments sandbox's onboarding form submitted as a browser would (charges and payouts on).
 */
export async function enablePayouts(api: ApiClient, user: { id: string; email: string }): Promise<string> {
  const account = await api.post('/api/stripe/create-stripe-account', { email: user.email, user_id: user.id });
  expect(account.status, account.text).toBe(200);
  const accountId = account.json<{ stripe_connect_account_id: string }>().stripe_connect_account_id;
  const link = await api.post('/api/stripe/create-educator-account-link', { stripe_connect_account_id: accountId });
  expect(link.status, link.text).toBe(200);
  const onboarding = await api.get(link.json<{ url: string }>().url);
  expect(onboarding.status, onboarding.text).toBe(200);
  const action = /<form[^>]*action="([^"]+)"/.exec(onboarding.text)?.[1];
  if (!action) throw new Error('no form on the sandbox onboarding page');
  const fields: Record<string, string> = {};
  for (const [tag] of onboarding.text.matchAll(/<input[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(tag)?.[1];
    if (name) fields[name] = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '';
  }
  fields.legal_name ||= 'Test Educator';
  fields.country ||= 'US';
  const submitted = await api.postForm(action.replace(/&amp;/g, '&'), fields);
  expect([200, 302, 303], submitted.text).toContain(submitted.status);
  const payouts = await api.get('/api/educator/payouts?refresh=1');
  expect(payouts.status, payouts.text).toBe(200);
  expect(payouts.json<{ account: { chargesEnabled: boolean } | null }>().account?.chargesEnabled, 'charges enabled after onboarding').toBe(
    true,
  );
  return accountId;
}

export interface PaidCourse {
  courseId: string;
  sessionId: string;
  title: string;
}

/** A published course: the course, one session and its class times (fields over the shared defaults). */
export async function createPublishedCourse(
  api: ApiClient,
  body: { course: Record<string, unknown>; session: Record<string, unknown>; classTimes: Record<string, unknown> },
): Promise<{ courseId: string; sessionId: string }> {
  const courseId = await createCourse(api.send, body.course);
  const sessionId = await createSession(api.send, courseId, body.session);
  await createClassTimes(api.send, courseId, sessionId, body.classTimes);
  await publishCourse(api.send, courseId);
  return { courseId, sessionId };
}

/** `hour`:`minute` London time on the day `days` days from now, as an ISO instant. */
function londonTime(days: number, hour: number, minute: number): string {
  const [year, month, day] = dayFromNow(days).split('-').map(Number);
  return wallTimeToUtc({ year, month, day, hour, minute }, 'Europe/London').toISOString();
}

export interface PaidCourse {
  courseId: string;
  sessionId: string;
  title: string;
}

/**
 * A published paid course (the educator's charges must be enabled) with one session that
 * starts in `startsIn` days, weekly class times at 18:00 London time, and `capacity` seats.
 */
export async function createPaidCourse(
  api: ApiClient,
  opts: {
    title?: string;
    priceCents: number;
    currency?: string;
    installments?: number | null;
    capacity?: number;
    startsIn?: number;
    refundPolicy?: string;
  },
): Promise<PaidCourse> {
  const title = opts.title ?? `Paid course ${Math.random().toString(36).slice(2, 8)}`;
  const startsIn = opts.startsIn ?? 5;
  const { courseId, sessionId } = await createPublishedCourse(api, {
    course: {
      title,
      city: null,
      address: null,
      priceCents: opts.priceCents,
      installments: opts.installments ?? null,
      ...(opts.currency && { currency: opts.currency }),
      ...(opts.refundPolicy && { refundPolicy: opts.refundPolicy }),
    },
    // Installments end before the session does: a plan of N months needs a session that long.
    session: {
      startsOn: dayFromNow(startsIn),
      endsOn: dayFromNow(Math.max(startsIn + 40, (opts.installments ?? 0) * 31)),
      capacity: opts.capacity ?? 8,
    },
    classTimes: {
      startsAt: londonTime(startsIn + 1, 18, 0),
      endsAt: londonTime(startsIn + 1, 19, 30),
      meetingUrl: 'https://meet.example.com/agora-class',
      repeatWeeks: 4,
    },
  });
  return { courseId, sessionId, title };
}

/** Types a card into the payments sandbox's form (in the checkout page's frame) and pays. */
export async function payWithCard(page: Page, number: string) {
  const form = page.frameLocator('iframe[title="Secure card payment"]');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Test Learner');
  await form.getByRole('button', { name: /^(Pay|Subscribe)/ }).click();
  return form;
}

/**
 * Time passes (the e2e suite does not wait real days): the session's class times move into the
 * past, a day apart and in order, as if they took place. The run's own database (E2E_DATABASE_URL).
 */
export async function classesTookPlace(sessionId: string) {
  await inRunDatabase(async (client) => {
    await client.query(
      `update class_time t set starts_at = now() - make_interval(days => o.rev) - interval '3 hours',
                               ends_at = now() - make_interval(days => o.rev) - interval '1 hour'
         from (select id, (count(*) over () - row_number() over (order by starts_at))::int as rev from class_time where session_id = $1) o
        where t.id = o.id`,
      [sessionId],
    );
  });
}

/**
 * A course whose classes took place, as the attendance specs start: Grace Hopper's published
 * course `title`, one session (days 20 to 60) with class times on day 21 from 17:00 to 18:00 UTC
 * (`classTimes` over those), a certificate rule of `minPercent`; `seat` enrols the learners, then
 * the classes take place (classesTookPlace). Answers the educator (user and API client) and the ids.
 */
export async function courseWhoseClassesTookPlace({
  title,
  classTimes = {},
  minPercent = 100,
  seat,
}: {
  title: string;
  classTimes?: Record<string, unknown>;
  minPercent?: number;
  seat: (courseId: string, sessionId: string) => Promise<void>;
}) {
  const { api: educatorApi, user: educator } = await createEducator({ firstName: 'Grace', lastName: 'Hopper' });
  const { courseId, sessionId } = await createPublishedCourse(educatorApi, {
    course: { title },
    session: { startsOn: dayFromNow(20), endsOn: dayFromNow(60) },
    classTimes: { startsAt: `${dayFromNow(21)}T17:00:00.000Z`, endsAt: `${dayFromNow(21)}T18:00:00.000Z`, ...classTimes },
  });
  const rule = await educatorApi.send('PUT', `/api/courses/${courseId}/certificate-rule`, { minPercent });
  expect(rule.status, rule.text).toBe(200);
  await seat(courseId, sessionId);
  await classesTookPlace(sessionId);
  return { educator, educatorApi, courseId, sessionId };
}

/** The educator, signed in on `context` (a phone, say), opens the attendance sheet from the course's roster. */
export async function openAttendanceSheet(context: BrowserContext, educator: Pick<NewUser, 'email' | 'password'>, courseId: string) {
  await logIn(context, educator);
  const sheet = await context.newPage();
  await sheet.goto(`/course/${courseId}/enrollment`);
  await sheet.getByRole('link', { name: /^Take attendance/ }).click();
  await expect(sheet.getByRole('heading', { name: 'Attendance' })).toBeVisible();
  return sheet;
}

/**
 * Downloads the certificate behind `link` (it must be a PDF) and looks its code up as anyone
 * would, signed out: answers GET /api/certificates/<code>.
 */
export async function downloadCertificate(page: Page, link: Locator): Promise<Reply> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const code = /certificate-([0-9A-Z]{12})\.pdf/.exec(download.suggestedFilename())![1];
  return new ApiClient().get(`/api/certificates/${code}`);
}

/** Runs `work` on a connection to the run's own database (E2E_DATABASE_URL), closed after. */
async function inRunDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Time passes on a paid session's waitlist (ADR 0067; the e2e suite does not wait out a real
 * hold): the offer of a seat out in this session ends now, and its expiry job
 * ('waitlist-offer:<enrolment id>') is due, for the server's job poller (JOBS_POLL_MS) to run;
 * `jobDue: false` leaves the job at the hold's first end (the moment before the poller takes it).
 * The run's own database (E2E_DATABASE_URL). Returns the offered enrolment's id.
 */
export async function offerHoldEnds(sessionId: string, { jobDue = true }: { jobDue?: boolean } = {}): Promise<string> {
  return inRunDatabase(async (client) => {
    const ended = await client.query<{ id: string }>(
      `update enrolment set offer_expires_at = now() - interval '1 second'
        where session_id = $1 and status = 'offered' returning id`,
      [sessionId],
    );
    expect(ended.rows, 'one offer out in the session').toHaveLength(1);
    const id = ended.rows[0].id;
    if (!jobDue) return id;
    const due = await client.query(`update job set run_at = now() where key = $1`, [`waitlist-offer:${id}`]);
    expect(due.rowCount, "the offer's expiry job").toBe(1);
    return id;
  });
}
