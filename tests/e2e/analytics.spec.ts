import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../src/shared/payments';
import { createEducator, createPaidCourse, createVerifiedUser, enablePayouts, logIn, openAvatarMenu, payWithCard } from './support';
import { fitsNarrowScreen, seriousViolations } from './checks';

/**
 * Educator analytics (issue 13): an educator with a sale opens analytics from the
 * dashboard, changes the range, reads the charts as tables, sorts and filters the course
 * table and downloads the sales CSV; another educator gets the not-found page.
 */

async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-analytics-${name}-390.png`, fullPage: true });
  expect(await seriousViolations(page), `axe on ${name} at 390 px`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await fitsNarrowScreen(page, 'analytics', name);
}

test('an educator with a sale reads their analytics; another educator is refused', async ({ browser }) => {
  const { api, user: educator } = await createEducator({ firstName: 'Maria', lastName: 'Montessori' });
  await enablePayouts(api, educator);
  const course = await createPaidCourse(api, { title: 'Sketching the city', priceCents: 12000 });
  const other = await createPaidCourse(api, { title: 'Ink and wash', priceCents: 5000, currency: 'gbp' });

  await test.step('a learner opens the course page and pays', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(context, await createVerifiedUser({ firstName: 'Lotte', lastName: 'Reiniger' }));
    await page.goto(`/course/${other.courseId}`);
    await expect(page.getByRole('heading', { name: other.title, level: 1 })).toBeVisible();
    // From the course page (a second page view), Enrol opens the one checkout page.
    await page.goto(`/course/${course.courseId}`);
    await page
      .getByRole('link', { name: /^Enrol in the session of/ })
      .first()
      .click();
    await expect(page.getByRole('region', { name: 'Order summary' })).toContainText(course.title);
    await payWithCard(page, TEST_CARDS.success);
    await expect(page.getByRole('heading', { name: "You're enrolled" })).toBeVisible({ timeout: 30_000 });
    await context.close();
  });

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await logIn(context, educator);

  await test.step('from the educator dashboard to analytics: figures with the previous period', async () => {
    await page.goto('/educator/dashboard');
    await page.getByRole('link', { name: 'Analytics' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/educator/${educator.id}/analytics$`));
    await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
    const figures = page.getByRole('list', { name: 'Headline figures' }).or(page.locator('dl[aria-label="Headline figures"]'));
    await expect(figures).toContainText('Enrolments');
    await expect(
      figures
        .locator('div', { hasText: /^Enrolments/ })
        .locator('dd')
        .first(),
    ).toHaveText('1');
    const usd = page.getByRole('region', { name: 'Revenue in USD' });
    await expect(usd).toContainText('$120.00');
    // Net of the e2e server's 12% fee (tests/e2e/app-server.ts).
    await expect(usd).toContainText('$105.60');
    await expect(page.getByText('vs previous period').first()).toBeVisible();
    // Page views are written every few seconds: the learner's views appear after a reload.
    await expect(async () => {
      await page.reload();
      await expect(
        figures
          .locator('div', { hasText: /^Course page views/ })
          .locator('dd')
          .first(),
      ).toHaveText('2', { timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await checkPage(page, 'overview');
  });

  await test.step('the range changes in the URL; every chart reads as a table', async () => {
    await page.getByLabel('Range').selectOption('7d');
    await expect(page).toHaveURL(/range=7d/);
    await page.getByLabel('Range').selectOption('12m');
    await expect(page).toHaveURL(/range=12m/);
    const enrolments = page.getByRole('region', { name: 'Enrolments over time' });
    await expect(enrolments.locator('svg').first()).toBeVisible();
    await enrolments.getByRole('button', { name: 'Show as table' }).click();
    await expect(enrolments.getByRole('table')).toContainText(new Date().toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' }));
    const funnel = page.getByRole('region', { name: 'From page view to paid seat' });
    await funnel.getByRole('button', { name: 'Show as table' }).click();
    await expect(funnel.getByRole('row', { name: /Paid 1/ })).toBeVisible();
    await checkPage(page, 'tables');
  });

  await test.step('the course table sorts, and a course opens its own figures', async () => {
    const table = page.getByRole('region', { name: 'Your courses' }).getByRole('table');
    await table.getByRole('button', { name: 'Course' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Ink and wash');
    await table.getByRole('button', { name: 'Revenue (net)' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('Sketching the city');
    await table.getByRole('link', { name: 'Sketching the city' }).click();
    await expect(page).toHaveURL(new RegExp(`course=${course.courseId}`));
    await expect(page.getByRole('heading', { name: 'Analytics: Sketching the city', level: 1 })).toBeVisible();
  });

  await test.step('the sales CSV downloads every sale', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Sales CSV' }).click();
    const file = readFileSync(await (await download).path(), 'utf8');
    expect(file).toContain('"Sketching the city"');
    // The e2e server's fee is 12% (tests/e2e/app-server.ts).
    expect(file).toContain('"Lotte",120.00,14.40,0.00,105.60,"USD"');
  });
  await context.close();

  await test.step('another educator gets the not-found page', async () => {
    const stranger = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const strangerPage = await stranger.newPage();
    const { user } = await createEducator({ firstName: 'Other', lastName: 'Educator' });
    await logIn(stranger, user);
    await strangerPage.goto(`/educator/${educator.id}/analytics`);
    await expect(strangerPage.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(strangerPage.getByText('Sketching the city')).toHaveCount(0);
    await stranger.close();
  });
});

test('a new educator sees what will appear, and when', async ({ browser }) => {
  const { user } = await createEducator({ firstName: 'New', lastName: 'Educator' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await logIn(context, user);
  await page.goto('/dashboard');
  const menu = await openAvatarMenu(page);
  await menu.getByRole('menuitem', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(new RegExp(`/educator/${user.id}/analytics$`));
  await expect(page.getByRole('heading', { name: 'No courses yet' })).toBeVisible();
  await expect(page.getByText(/views here within a few seconds/)).toBeVisible();
  await checkPage(page, 'empty');
  await context.close();
});

/**
 * Issue 23: on the demo educator's page (last 30 days) every chart draws what its figure says,
 * or says why it cannot: the day's sales are bars you can see, a range whose sessions took no
 * seat says so instead of an empty frame, the funnel starts with page views, and the view to
 * paid conversion is a share of those who reached the page (never above 100 %).
 */
test("Grace's analytics: every chart shows what its figure says, or says why not", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const grace = await logIn(context, { email: 'grace@agora.local', password: 'Agora-demo-2026' });
  await page.goto(`/educator/${grace.id}/analytics`);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  const figures = page.locator('dl[aria-label="Headline figures"]');
  const figure = (label: RegExp) => figures.locator('div', { hasText: label }).locator('dd').first();

  await expect(page.getByRole('region', { name: 'Revenue in USD' })).toContainText('Net');
  const revenue = page.getByRole('region', { name: 'Net revenue over time' });
  const bars = revenue.locator('.recharts-bar-rectangle path');
  await expect(bars.first()).toBeVisible();
  const heights = await bars.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  expect(Math.max(...heights), 'the net revenue bar is drawn').toBeGreaterThan(20);

  const views = Number((await figure(/^Course page views/).textContent())!.replace(/,/g, ''));
  expect(views).toBeGreaterThan(0);
  const conversion = (await figure(/^View to paid conversion/).textContent())!;
  expect(Number(conversion.replace('%', ''))).toBeLessThanOrEqual(100);
  const funnel = page.getByRole('region', { name: 'From page view to paid seat' });
  const funnelBars = await funnel
    .locator('.recharts-bar-rectangle path')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  expect(funnelBars[0], 'the page views bar is drawn').toBeGreaterThan(20);

  // The fill chart draws a bar taller than nothing per session, or says in words why not.
  const fill = page.getByRole('region', { name: 'Fill rate per session' });
  const fillRate = (await figure(/^Fill rate/).textContent())!;
  if (fillRate === '0%') await expect(fill.locator('[data-chart-empty]')).toContainText(/none of (its|their) \d+ seats taken/);
  else {
    const fillBars = await fill
      .locator('.recharts-bar-rectangle path')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(Math.max(...fillBars)).toBeGreaterThan(0);
  }
  // The table stays one click away either way.
  await fill.getByRole('button', { name: 'Show as table' }).click();
  await expect(fill.getByRole('table')).toContainText('Seats taken');
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-analytics-grace.png', fullPage: true });
  await context.close();
});
