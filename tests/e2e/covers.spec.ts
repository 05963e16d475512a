import { expect, test, type Page } from '@playwright/test';
import { createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn } from './support';

/**
 * Issue 23, item 9: a course without an uploaded cover has one generated cover, the same on
 * its card in search, on its page, at enrol (the session summary) and at checkout.
 */
const coverKey = (page: Page, scope = page.locator('main')) =>
  scope.locator('img[data-cover="generated"]').first().getAttribute('data-cover-key');

test('one generated cover per course: card, course page, enrol and checkout', async ({ browser }) => {
  const { api, user: educator } = await createEducator({ firstName: 'Cora', lastName: 'Cover' });
  await enablePayouts(api, educator);
  const title = `Cover check ${Math.random().toString(36).slice(2, 8)}`;
  const course = await createPaidCourse(api, { title, priceCents: 4000 });

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await logIn(context, await createVerifiedUser({ firstName: 'Theo', lastName: 'Thumb' }));

  await page.goto(`/course/search?q=${encodeURIComponent(title)}`);
  const card = page.locator('article', { hasText: title }).first();
  await expect(card).toBeVisible();
  const onCard = await coverKey(page, card);
  expect(onCard).toMatch(/^hsl\(/);

  await page.goto(`/course/${course.courseId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  expect(await coverKey(page)).toBe(onCard);

  // The enrol page of a paid course opens the checkout for a learner; its educator sees the page itself.
  const own = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const ownPage = await own.newPage();
  await logIn(own, educator);
  await ownPage.goto(`/course/${course.courseId}/session/${course.sessionId}/enroll`);
  await expect(ownPage.getByText('This is your course')).toBeVisible();
  expect(await coverKey(ownPage)).toBe(onCard);
  await own.close();

  await page.goto(`/course/checkout?course=${course.courseId}&session=${course.sessionId}`);
  const order = page.getByRole('region', { name: 'Order summary' });
  await expect(order).toContainText(title);
  expect(await coverKey(page, order)).toBe(onCard);
  // The thumbnail keeps the cover's 16:9 shape, so it shows the same picture, not another crop of it.
  const box = (await order.locator('img[data-cover="generated"]').boundingBox())!;
  expect(Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.05);
  await context.close();
});
