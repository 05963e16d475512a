import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { wallTimeToUtc } from '../../src/shared/time';
import {
  ApiClient,
  collectDialogs,
  createEducator,
  createPublishedCourse,
  createVerifiedUser,
  dayFromNow,
  latestEmail,
  logIn,
} from './support';
import { scrollWidth, seriousViolations } from './checks';
import { createClassTimes, UNKNOWN_ID } from '../support/test-data';

/**
 * The learner's side of courses in the browser: search (with a typo), the course page,
 * enrol, the dashboard and its calendar, drop, enrol again, review; the waitlist; no
 * script ever runs from course text; accessibility and small screens.
 *
 * Courses are set up through the API by an educator; everything the learner does happens
 * in the browser. The browser runs in Paris, the sessions in New York, so times are shown
 * converted, with both zones named.
 */
test.use({ timezoneId: 'Europe/Paris' });

const XSS_DESCRIPTION = [
  '## What you will play',
  '',
  'Simple **melodies** on a 17-key kalimba.',
  '',
  '<script>alert("script ran")</script>',
  '<img src=x onerror="alert(\'onerror ran\')">',
  '[click me](javascript:alert("link ran"))',
].join('\n');

/** A made-up word (ten random letters) no other course has, so searches find our course. */
function uniqueWord(): string {
  const pick = (letters: string) => letters[Math.floor(Math.random() * letters.length)];
  let w = '';
  for (let i = 0; i < 5; i++) w += pick('bdfgklmnprstvz') + pick('aeiou');
  return w[0].toUpperCase() + w.slice(1);
}

/** The same word with two neighbouring letters swapped near its middle: a typo. */
const typo = (word: string) => word.slice(0, 4) + word[5] + word[4] + word.slice(6);

/** A verified educator (a musician) signed in through an API client. */
const educator = () =>
  createEducator(
    { firstName: 'Hedy', lastName: 'Lamarr' },
    {
      headline: 'Musician and patient teacher',
      bio: 'I have taught the kalimba to children and adults for ten years, online and in person.',
      subjects: ['music'],
      links: [],
    },
  );

/**
 * A published free course with one session (New York time) and weekly class times, the
 * first in two days at 12:00 New York time.
 */
async function publishedCourse(api: ApiClient, opts: { title: string; description?: string; capacity?: number }) {
  const [y, m, d] = dayFromNow(2).split('-').map(Number);
  const start = wallTimeToUtc({ year: y, month: m, day: d, hour: 12, minute: 0 }, 'America/New_York');
  return createPublishedCourse(api, {
    course: {
      title: opts.title,
      summary: 'Play your first songs on the kalimba in four relaxed weekly classes.',
      description: opts.description ?? 'Simple melodies on a 17-key kalimba.',
      category: 'music',
      audience: 'Adults and teens',
      refundPolicy: 'flexible',
    },
    session: { startsOn: dayFromNow(1), endsOn: dayFromNow(40), capacity: opts.capacity ?? 10, timeZone: 'America/New_York' },
    classTimes: {
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 90 * 60_000).toISOString(),
      meetingUrl: 'https://meet.example.com/kalimba',
      repeatWeeks: 4,
    },
  });
}

test('a learner finds a course by search with a typo, enrols, sees it on the dashboard, downloads the calendar, drops, enrols again and reviews it', async ({
  page,
  context,
}) => {
  const word = uniqueWord();
  const title = `Kalimba for beginners ${word}`;
  const { api } = await educator();
  const { courseId, sessionId } = await publishedCourse(api, { title, description: XSS_DESCRIPTION });
  const dialogs = collectDialogs(page);
  await logIn(context, await createVerifiedUser({ firstName: 'Ada', lastName: 'Byron' }));

  await test.step('search with a typo finds the course', async () => {
    await page.goto('/course/search');
    await expect(page.getByRole('heading', { name: 'Find a course' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search courses' }).fill(typo(word));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${typo(word)}`));
    const results = page.getByRole('list', { name: 'Courses found' });
    await expect(results.getByRole('link', { name: title, exact: true })).toBeVisible();
    await expect(page.getByText('Showing results for similar words')).toBeVisible();
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-learner-search.png', fullPage: true });
    await results.getByRole('link', { name: title, exact: true }).click();
  });

  await test.step('the course page shows everything to decide, and the description runs no script', async () => {
    await expect(page).toHaveURL(new RegExp(`/course/${courseId}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('Simple melodies on a 17-key kalimba.')).toBeVisible();
    await expect(page.getByText('<script>alert("script ran")</script>')).toBeVisible();
    await expect(page.locator('#about img')).toHaveCount(0);
    await expect(page.locator('#about a[href^="javascript:"]')).toHaveCount(0);
    // 12:00 in New York is 17:00 or 18:00 in Paris (their clocks change on different days); both zones are named.
    const [y, m, d] = dayFromNow(2).split('-').map(Number);
    const first = wallTimeToUtc({ year: y, month: m, day: d, hour: 12, minute: 0 }, 'America/New_York');
    const hm = (t: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(t);
    const paris = `${hm(first)} – ${hm(new Date(first.getTime() + 90 * 60_000))} (Europe/Paris)`;
    const classTimes = page.getByRole('list', { name: 'Class times' }).first();
    await expect(classTimes.getByText(paris).first()).toBeVisible();
    await expect(classTimes.getByText(/12:00 – 13:30 in America\/New_York/).first()).toBeVisible();
    await expect(page.getByText('10 of 10 seats left')).toBeVisible();
    await expect(page.getByText(/Flexible\./)).toBeVisible();
    await expect(page.getByRole('link', { name: /Hedy Lamarr/ }).first()).toHaveAttribute('href', /^\/educator\//);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-learner-course.png', fullPage: true });
    await page.getByRole('link', { name: /^Enrol in the session/ }).click();
  });

  await test.step('confirming enrols at once (a free session)', async () => {
    await expect(page.getByRole('heading', { name: 'Confirm your enrolment' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm enrolment' }).click();
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible();
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  });

  await test.step('the dashboard lists the class this week and the course', async () => {
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('list', { name: 'Class times this week' }).getByRole('link', { name: title, exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Your courses' }).getByRole('link', { name: title, exact: true })).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Later class times' }).getByRole('link', { name: title, exact: true }).first(),
    ).toBeVisible();
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-learner-dashboard.png', fullPage: true });
  });

  await test.step('the .ics download and the private feed hold the class times', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download .ics' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const ics = readFileSync((await download.path())!, 'utf8');
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(4);
    expect(ics.replace(/\r\n /g, '')).toContain(word);

    await page.getByRole('button', { name: 'Subscribe' }).click();
    const feed = page.getByLabel('Private calendar feed URL');
    await expect(feed).toHaveValue(/\/api\/calendar\/feed\/[\w-]+\.ics$/);
    const feedText = (await new ApiClient().get(await feed.inputValue())).text;
    expect(feedText).toContain('BEGIN:VEVENT');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  });

  await test.step('dropping frees the seat; enrolling again works', async () => {
    await page.goto(`/course/${courseId}`);
    await expect(page.getByText("You're enrolled")).toBeVisible();
    await page.getByRole('link', { name: /^Drop/ }).click();
    await expect(page.getByRole('heading', { name: 'Drop this session?' })).toBeVisible();
    await page.getByRole('button', { name: 'Drop this session' }).click();
    await expect(page.getByRole('heading', { name: 'You have left this session' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the course' }).click();
    await expect(page.getByText('10 of 10 seats left')).toBeVisible();
    await page.getByRole('link', { name: /^Enrol in the session/ }).click();
    await page.getByRole('button', { name: 'Confirm enrolment' }).click();
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the course' }).click();
    await expect(page.getByText('9 of 10 seats left')).toBeVisible();
  });

  await test.step('reviews open once the first class took place; the page says when', async () => {
    await expect(page.getByText(/^You can review this course after your first class: from /)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Write a review' })).toHaveCount(0);
    // The educator adds a class that began half a minute ago: the learner's first class took place.
    const now = Date.now();
    await createClassTimes(api.send, courseId, sessionId, {
      startsAt: new Date(now - 30_000).toISOString(),
      endsAt: new Date(now + 3600_000).toISOString(),
      meetingUrl: 'https://meet.example.com/kalimba',
    });
    await page.reload();
  });

  await test.step('the learner writes a review and sees it on the course page', async () => {
    await page.getByRole('link', { name: 'Write a review' }).click();
    await expect(page.getByRole('heading', { name: 'Review this course' })).toBeVisible();
    await page.getByRole('button', { name: 'Publish review' }).click();
    await expect(page.getByText('Choose a rating from 1 to 5 stars')).toBeVisible();
    await page.getByRole('radio', { name: '4 stars' }).check();
    await page.getByLabel('Your review').fill('Lovely pace, <b>clear</b> explanations.');
    await page.getByRole('button', { name: 'Publish review' }).click();
    await expect(page).toHaveURL(new RegExp(`/course/${courseId}#reviews$`));
    await expect(page.getByText('Thank you for your review')).toBeVisible();
    const reviews = page.getByRole('list', { name: 'Reviews' });
    await expect(reviews.getByText('Lovely pace, <b>clear</b> explanations.')).toBeVisible();
    await expect(reviews.getByText('Your review')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Rated 4.0 out of 5 from 1 review' }).first()).toBeVisible();

    // Editing prefills the form with the review.
    await page.getByRole('link', { name: 'Edit your review' }).click();
    await expect(page.getByRole('radio', { name: '4 stars' })).toBeChecked();
    await expect(page.getByLabel('Your review')).toHaveValue('Lovely pace, <b>clear</b> explanations.');
    await page.getByRole('radio', { name: '5 stars' }).check();
    await page.getByRole('button', { name: 'Update review' }).click();
    await expect(page.getByRole('img', { name: 'Rated 5.0 out of 5 from 1 review' }).first()).toBeVisible();
  });

  expect(dialogs, 'no script from course text ran').toEqual([]);
});

test('a full session puts the learner on the waitlist; a dropped seat promotes them and they are emailed', async ({ page, context }) => {
  const { api } = await educator();
  const title = `Kalimba duets ${uniqueWord()}`;
  const { courseId, sessionId } = await publishedCourse(api, { title, capacity: 1 });

  const learnerA = await createVerifiedUser({ firstName: 'Annie', lastName: 'Easley' });
  const apiA = new ApiClient();
  expect((await apiA.post('/api/accounts/sign-in', { email: learnerA.email, password: learnerA.password })).status).toBe(200);
  const enrolled = await apiA.post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`);
  expect(enrolled.status, enrolled.text).toBe(200);
  expect(enrolled.json<{ enrolment: { status: string } }>().enrolment.status).toBe('active');

  const learnerB = await createVerifiedUser({ firstName: 'Betty', lastName: 'Holberton' });
  await logIn(context, learnerB);
  await page.goto(`/course/${courseId}`);
  await expect(page.getByText('All 1 seats taken')).toBeVisible();
  await page.getByRole('link', { name: /^Join the waitlist/ }).click();
  await expect(page.getByRole('heading', { name: 'Join the waitlist' })).toBeVisible();
  await expect(page.getByText('This session is full')).toBeVisible();
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByRole('heading', { name: "You're on the waitlist (#1)" })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the course' }).click();
  await expect(page.getByText('Waitlisted #1')).toBeVisible();

  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Your waitlists' }).getByText('Waitlisted #1')).toBeVisible();

  const dropped = await apiA.post(`/api/courses/${courseId}/sessions/${sessionId}/drop`);
  expect(dropped.status, dropped.text).toBe(200);

  await page.goto(`/course/${courseId}`);
  await expect(page.getByText("You're enrolled")).toBeVisible();
  await expect(page.getByText('Waitlisted #1')).toHaveCount(0);
  const mail = await latestEmail(new ApiClient(), learnerB.email, /seat opened up/i);
  expect(mail.subject).toContain(title);
});

test('an unknown course is Not Found; search, course, explore and dashboard pages have no serious axe violation', async ({
  page,
  context,
}) => {
  const { api } = await educator();
  const word = uniqueWord();
  const { courseId } = await publishedCourse(api, { title: `Kalimba songbook ${word}` });
  await logIn(context, await createVerifiedUser());

  await page.goto(`/course/${UNKNOWN_ID}`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.goto('/course/not-a-uuid');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();

  await page.goto(`/course/search?q=${word}`);
  await expect(page.getByRole('list', { name: 'Courses found' }).getByRole('link', { name: `Kalimba songbook ${word}` })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/course/search?q=qqqqqqqqqqqqqqqq');
  await expect(page.getByRole('heading', { name: /No courses match/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto(`/course/${courseId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(word);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/explore');
  await expect(page.getByRole('heading', { name: 'Starting soon' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: "You're not enrolled in any course yet" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('search filters live in the URL: back and forward restore them', async ({ page, context }) => {
  const { api } = await educator();
  const word = uniqueWord();
  const title = `Kalimba rhythm ${word}`;
  await publishedCourse(api, { title });
  await logIn(context, await createVerifiedUser());

  await page.goto(`/course/search?q=${word}`);
  const ours = page.getByRole('list', { name: 'Courses found' }).getByRole('link', { name: title });
  await expect(ours).toBeVisible();
  await page.getByLabel('Category').selectOption('music');
  await expect(page).toHaveURL(/category=music/);
  // The box follows the URL (the filter lives there), so click and wait for both.
  await page.getByLabel('Free courses only').click();
  await expect(page).toHaveURL(/free=true/);
  await expect(page.getByLabel('Free courses only')).toBeChecked();
  await page.getByLabel('Sort by').selectOption('soonest');
  await expect(page).toHaveURL(/sort=soonest/);
  await expect(ours).toBeVisible();
  await page.getByLabel('Category').selectOption('cooking');
  await expect(page.getByRole('heading', { name: /No courses match/ })).toBeVisible();

  await page.goBack();
  await expect(page.getByLabel('Category')).toHaveValue('music');
  await expect(ours).toBeVisible();
  await page.goForward();
  await expect(page.getByLabel('Category')).toHaveValue('cooking');
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).not.toHaveURL(/category=/);
  await expect(page.getByLabel('Sort by')).toHaveValue('soonest');
  await expect(ours).toBeVisible();
});

test.describe('on a 360 px wide screen', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('search, the course page, enrol and the dashboard fit, and the filters fold into a panel', async ({ page, context }) => {
    const { api } = await educator();
    const word = uniqueWord();
    const { courseId, sessionId } = await publishedCourse(api, { title: `Kalimba in the park ${word}` });
    await logIn(context, await createVerifiedUser());

    await page.goto(`/course/search?q=${word}`);
    await expect(
      page.getByRole('list', { name: 'Courses found' }).getByRole('link', { name: `Kalimba in the park ${word}` }),
    ).toBeVisible();
    await expect(page.getByLabel('Category')).toBeHidden();
    await page.getByRole('button', { name: /Filters/ }).click();
    await expect(page.getByLabel('Category')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-learner-search-360.png', fullPage: true });

    await page.goto(`/course/${courseId}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(word);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-learner-course-360.png', fullPage: true });

    await page.goto(`/course/${courseId}/session/${sessionId}/enroll`);
    await page.getByRole('button', { name: 'Confirm enrolment' }).click();
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);

    await page.goto('/dashboard');
    await expect(page.getByRole('list', { name: 'Your courses' })).toBeVisible();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByLabel('Private calendar feed URL')).toHaveValue(/\.ics$/);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-learner-dashboard-360.png', fullPage: true });

    await page.goto('/explore');
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
  });
});
