import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn } from './support';

/** Issue 23, item 8: an unknown id under a real route is the not-found page, served with 404. */
const NIL = '00000000-0000-0000-0000-000000000000';

test('an unknown course or club answers 404 and shows the not-found page', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser());
  for (const path of [`/course/${NIL}`, `/club/${NIL}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: `/tmp/agora-unknown-${path.split('/')[1]}-1280.png` });
  }
  await page.setViewportSize({ width: 390, height: 800 });
  expect((await page.goto(`/course/${NIL}`))?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-unknown-course-390.png' });
});
