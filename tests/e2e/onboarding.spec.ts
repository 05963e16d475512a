import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { ApiClient, createVerifiedUser, latestEmail, linkIn, logIn, newUser, openAvatarMenu } from './support';

test('a newcomer signs up, verifies the email, logs in, edits the profile and picture, and signs out', async ({ page, context }) => {
  const user = newUser({ firstName: 'Mary', lastName: 'Jackson' });

  await test.step('sign up on /signup', async () => {
    await page.goto('/signup');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('First name').fill(user.firstName);
    await page.getByLabel('Last name').fill(user.lastName);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Birthdate').fill(user.birthdate);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page).toHaveURL(/\/verify-email\?/);
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByText(user.email)).toBeVisible();
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-e2e-verify-email.png', fullPage: true });
  });

  await test.step('open the verification link from the outbox', async () => {
    const link = linkIn(await latestEmail(new ApiClient(), user.email, /verify/i));
    await page.goto(link);
    await expect(page).toHaveURL(/\/email-verified$/);
    await expect(page.getByRole('heading', { name: 'Your email is verified' })).toBeVisible();
  });

  await test.step('log in on /login (the link may have been opened on another device)', async () => {
    await context.clearCookies();
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(`  ${user.email.toUpperCase()}  `);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/explore$/);
    await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
  });

  await test.step('change the first name and city in the settings', async () => {
    await page.goto('/user/settings');
    await page.getByLabel('First name').fill('Mae');
    await page.getByLabel('City').fill('Hampton');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your profile has been saved' })).toBeVisible();
    const menu = await openAvatarMenu(page);
    await expect(menu).toContainText(`Mae ${user.lastName}`);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await page.reload();
    await expect(page.getByLabel('City')).toHaveValue('Hampton');
  });

  await test.step('upload a profile picture', async () => {
    const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 67, g: 56, b: 202 } } })
      .png()
      .toBuffer();
    await page.getByLabel('Change picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByText('Your picture has been updated')).toBeVisible();
    const picture = page.getByRole('img', { name: 'Your avatar' });
    await expect(picture).toHaveAttribute('src', /^\/uploads\/avatars\/[\w-]+\.webp$/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    // The avatar in the app shell shows the new picture too.
    const src = await picture.getAttribute('src');
    await expect(page.getByRole('button', { name: /^Account menu for/ }).locator('img')).toHaveAttribute('src', src!);
    if (process.env.AGORA_SHOTS) await page.screenshot({ path: '/tmp/agora-e2e-settings.png', fullPage: true });
  });

  await test.step('sign out from the avatar menu', async () => {
    const menu = await openAvatarMenu(page);
    await menu.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/user/settings');
    await expect(page).toHaveURL(/\/login\?next=%2Fuser%2Fsettings$/);
    await expect(page.getByRole('heading', { name: 'Log in to Agora' })).toBeVisible();
  });
});

test('a file that is not a picture is refused with a clear message, and names cannot be emptied', async ({ page, context }) => {
  await logIn(context, await createVerifiedUser());
  await page.goto('/user/settings');
  const picture = page.getByRole('img', { name: 'Your avatar' });
  await expect(picture).toHaveAttribute('src', '/default-avatar.svg');

  // Declared as a PNG, but its content is not an image: the server decides by content.
  await page
    .getByLabel('Change picture')
    .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not pixels') });
  await expect(page.getByRole('alert')).toContainText('The picture must be a PNG, JPEG or WebP image');
  await expect(picture).toHaveAttribute('src', '/default-avatar.svg');

  await page.getByLabel('First name').fill('   ');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Empty Fields' })).toBeVisible();
  await expect(page.getByText('First name is required')).toBeVisible();
});
