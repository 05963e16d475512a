import { expect, test } from '@playwright/test';
import { createVerifiedUser, logIn } from './support';
import AxeBuilder from '@axe-core/playwright';
import { rulesThatCannotBeSerious, seriousViolations } from './checks';

const PUBLIC_PAGES: [string, string][] = [
  ['/', 'Learn'],
  ['/login', 'Log in to Agora'],
  ['/signup', 'Create your Agora account'],
];

for (const [path, heading] of PUBLIC_PAGES) {
  test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('axe finds no serious or critical violation on /user/settings, nor on the sign-up errors', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser());
  await page.goto('/user/settings');
  await expect(page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  await context.clearCookies();
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Empty Fields');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the axe check runs every rule that can be serious: a page with serious and moderate faults', async ({ page }) => {
  // No server: a page of known faults. Serious or critical: an image without alt, pale text,
  // no lang; moderate: no main landmark, content outside landmarks, no h1.
  await page.setContent(`<html><head><title>Faults</title></head><body>
    <h3>Skipped levels</h3><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <p style="color:#eee;background:#fff">Pale text</p><div>Outside any landmark</div></body></html>`);
  const found = await seriousViolations(page);
  for (const rule of ['image-alt', 'color-contrast', 'html-has-lang']) expect(found.join('\n')).toContain(`: ${rule} (`);
  // Every rule, none left out: the rules left out found faults here, and each only minor or moderate.
  const everything = await new AxeBuilder({ page }).analyze();
  const leftOut = everything.violations.filter((v) => rulesThatCannotBeSerious.includes(v.id));
  expect(leftOut.map((v) => v.id)).toEqual(expect.arrayContaining(['landmark-one-main', 'page-has-heading-one', 'region']));
  for (const v of leftOut) expect(['minor', 'moderate'], v.id).toContain(v.impact);
  expect(rulesThatCannotBeSerious).not.toContain('color-contrast');
});
