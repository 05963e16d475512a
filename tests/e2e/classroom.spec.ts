import { expect, test, type Page } from '@playwright/test';
import { createEducator, createPublishedCourse, createVerifiedUser, dayFromNow, logIn, signedInClient } from './support';
import { pdfBytes } from '../support/classroom';
import { scrollWidth, seriousViolations } from './checks';

/**
 * The classroom of a course session (issue 25, ADR 0072): the educator posts with a file; the
 * learner, with the classroom open in a tab, sees it arrive without reloading, opens the
 * file's link and replies, and the educator's tab shows the reply live; the educator edits
 * the post, then deletes it (a confirmation dialog). axe at 1280 and 390 px.
 */

async function checkAt(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 900 });
  expect(await seriousViolations(page), `axe on ${name} at ${width}px`).toEqual([]);
  await expect.poll(() => scrollWidth(page), { message: `${name} fits ${width}px` }).toBeLessThanOrEqual(width);
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-classroom-${name}-${width}.png`, fullPage: true });
}

const socketReady = (page: Page) =>
  page
    .waitForEvent('websocket', (ws) => ws.url().endsWith('/api/realtime'))
    .then((ws) => ws.waitForEvent('framereceived', (f) => String(f.payload).includes('"ready"')));

test('the educator posts material with a file; the learner sees it live, opens it and replies', async ({ browser }) => {
  const { api: educatorApi, user: educator } = await createEducator({ firstName: 'Grace', lastName: 'Hopper' });
  const start = new Date(`${dayFromNow(2)}T17:00:00Z`);
  const { courseId, sessionId } = await createPublishedCourse(educatorApi, {
    course: { title: 'Python for Curious Beginners', priceCents: 0 },
    session: { startsOn: dayFromNow(1), endsOn: dayFromNow(40), capacity: 10, timeZone: 'Europe/London' },
    classTimes: {
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 90 * 60_000).toISOString(),
      meetingUrl: 'https://meet.example.com/python',
    },
  });
  const learner = await createVerifiedUser({ firstName: 'Ada', lastName: 'Lovelace' });
  const enrolled = await (await signedInClient(learner)).post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`);
  expect(enrolled.status, enrolled.text).toBe(200);

  const learnerContext = await browser.newContext();
  const educatorContext = await browser.newContext();
  const learnerPage = await learnerContext.newPage();
  const educatorPage = await educatorContext.newPage();
  await logIn(learnerContext, learner);
  await logIn(educatorContext, educator);

  await test.step('the learner reaches the classroom from the course page: the next class and its join link, nothing posted yet', async () => {
    const ready = socketReady(learnerPage);
    await learnerPage.goto(`/course/${courseId}`);
    await learnerPage.getByRole('link', { name: /^Classroom/ }).click();
    await expect(learnerPage).toHaveURL(new RegExp(`/course/${courseId}/session/${sessionId}/classroom$`));
    await expect(learnerPage.getByRole('heading', { name: 'Classroom', level: 1 })).toBeVisible();
    await expect(learnerPage.getByRole('link', { name: /Join the class/ })).toHaveAttribute('href', 'https://meet.example.com/python');
    await expect(learnerPage.getByText(/Nothing posted yet/)).toBeVisible();
    await ready;
  });

  await test.step('the educator posts Markdown with a PDF; it appears in the learner’s open tab', async () => {
    const ready = socketReady(educatorPage);
    await educatorPage.goto(`/course/${courseId}/session/${sessionId}/classroom`);
    await ready;
    await educatorPage.getByLabel('Announcement or material').fill('## Week 1\n\nRead **chapter 1** before class.');
    await educatorPage
      .locator('input[type="file"]')
      .setInputFiles({ name: 'Week 1 notes.pdf', mimeType: 'application/pdf', buffer: pdfBytes() });
    await expect(educatorPage.getByRole('list', { name: 'Attached' })).toContainText('Week 1 notes.pdf');
    await educatorPage.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(educatorPage.getByRole('heading', { name: 'Week 1' })).toBeVisible();

    await expect(learnerPage.getByRole('heading', { name: 'Week 1' })).toBeVisible();
    await expect(learnerPage.getByText('chapter 1')).toBeVisible();
    const file = learnerPage.getByRole('list', { name: 'Files' }).getByRole('link', { name: /Week 1 notes\.pdf/ });
    const res = await learnerPage.request.get((await file.getAttribute('href'))!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
  });

  await test.step('the learner replies; the educator sees the reply live', async () => {
    await learnerPage.getByLabel('Reply').fill('Thanks, I will read it tonight');
    await learnerPage.getByRole('button', { name: 'Send reply' }).click();
    await expect(learnerPage.getByText('Thanks, I will read it tonight')).toBeVisible();
    await expect(educatorPage.getByText('Thanks, I will read it tonight')).toBeVisible();
  });

  await test.step('axe finds nothing serious at 1280 and 390 px, for either', async () => {
    await checkAt(learnerPage, 1280, 'learner');
    await checkAt(learnerPage, 390, 'learner');
    await checkAt(educatorPage, 1280, 'educator');
    await checkAt(educatorPage, 390, 'educator');
  });
  await test.step('at 390 px the educator edits the post, then deletes it after the dialog; the learner’s tab follows', async () => {
    const post = educatorPage.getByRole('article').filter({ has: educatorPage.getByRole('heading', { name: 'Week 1' }) });
    await post.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(educatorPage.getByLabel('Post text')).toBeFocused();
    await educatorPage.getByLabel('Post text').fill('## Week 1\n\nRead **chapters 1 and 2** before class.');
    await educatorPage.getByRole('button', { name: 'Save changes' }).click();
    await expect(learnerPage.getByText('chapters 1 and 2')).toBeVisible();

    await post.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = educatorPage.getByRole('dialog', { name: 'Delete this post?' });
    await expect(dialog).toContainText('1 reply and 1 file');
    await checkAt(educatorPage, 390, 'educator-delete');
    await dialog.getByRole('button', { name: 'Delete post' }).click();
    await expect(dialog).toBeHidden();
    await expect(educatorPage.getByRole('heading', { name: 'Week 1' })).toHaveCount(0);
    await expect(learnerPage.getByRole('heading', { name: 'Week 1' })).toHaveCount(0);
    await expect(learnerPage.getByText(/Nothing posted yet/)).toBeVisible();
  });
  await learnerContext.close();
  await educatorContext.close();
});
