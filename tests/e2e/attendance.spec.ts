import { expect, test } from '@playwright/test';
import { seriousViolations, scrollWidth } from './checks';
import {
  courseWhoseClassesTookPlace,
  createVerifiedUser,
  dayFromNow,
  downloadCertificate,
  logIn,
  openAttendanceSheet,
  signedInClient,
} from './support';

/**
 * Attendance and certificates in the browser (issue 25, ADR 0069): the educator takes
 * attendance on a phone (390 px) once the classes took place, one tap per learner, each
 * saved as it goes; the learner meeting the course's share gets a certificate at once
 * (the session had ended) and downloads it from the dashboard. The rules (one record per
 * learner under concurrent taps, who may mark, issued once) are tests/api/attendance.
 */

/** With AGORA_SHOTS=1, a full-page screenshot as /tmp/agora-attendance-<name>.png (to look at the pages). */
const shot = async (p: import('@playwright/test').Page, name: string) => {
  if (process.env.AGORA_SHOTS) await p.screenshot({ path: `/tmp/agora-attendance-${name}.png`, fullPage: true });
};

test('the educator marks attendance on a phone; the learner downloads the certificate from the dashboard', async ({
  page,
  context,
  browser,
}) => {
  const title = `Python for Curious Beginners ${Date.now() % 100000}`;
  const ada = await createVerifiedUser({ firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await createVerifiedUser({ firstName: 'Bob', lastName: 'Jones' });
  const { educator, courseId } = await courseWhoseClassesTookPlace({
    title,
    classTimes: { endsAt: `${dayFromNow(21)}T19:00:00.000Z`, repeatWeeks: 2 },
    seat: async (courseId, sessionId) => {
      for (const learner of [ada, bob]) {
        const enrolled = await (await signedInClient(learner)).post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`);
        expect(enrolled.status, enrolled.text).toBe(200);
      }
    },
  });

  await test.step('on a phone, from the roster: one tap per learner, each saved as it goes', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const sheet = await openAttendanceSheet(phone, educator, courseId);
      // It opens on the last class that started (class 2 of 2).
      await expect(sheet.getByLabel('Class')).toHaveValue(/.+/);
      await expect(sheet.getByLabel('Class').locator('option:checked')).toHaveText(/^Class 2:/);
      expect(await seriousViolations(sheet)).toEqual([]);
      expect(await scrollWidth(sheet)).toBeLessThanOrEqual(390);

      const adaRow = sheet.getByRole('listitem').filter({ hasText: 'Ada Lovelace' });
      const bobRow = sheet.getByRole('listitem').filter({ hasText: 'Bob Jones' });
      await adaRow.getByRole('button', { name: 'Present' }).tap();
      await bobRow.getByRole('button', { name: 'Late' }).tap();
      await expect(adaRow.getByRole('button', { name: 'Present' })).toHaveAttribute('aria-pressed', 'true');
      await expect(adaRow.getByText('Saved')).toBeVisible();
      await expect(bobRow.getByText('Saved')).toBeVisible();
      await expect(sheet.getByText('1 present · 1 late · 0 absent')).toBeVisible();

      await sheet.getByLabel('Class').selectOption({ index: 0 });
      await adaRow.getByRole('button', { name: 'Present' }).tap();
      await bobRow.getByRole('button', { name: 'Absent' }).tap();
      await expect(adaRow.getByText('Saved')).toBeVisible();
      await expect(bobRow.getByText('Saved')).toBeVisible();
      // The session had ended: Ada met the share (every class), so her certificate is issued at once; Bob's is not.
      const issued = sheet.getByRole('list', { name: 'Certificates issued' });
      await expect(issued.getByText('Ada Lovelace')).toBeVisible();
      await expect(issued.getByText('Bob Jones')).toHaveCount(0);
      expect(await seriousViolations(sheet)).toEqual([]);
      await shot(sheet, 'sheet-390');
      await sheet.setViewportSize({ width: 1280, height: 900 });
      expect(await seriousViolations(sheet)).toEqual([]);
      await shot(sheet, 'sheet-1280');
      if (process.env.AGORA_SHOTS) {
        await sheet.goto(`/course/${courseId}/edit`);
        await sheet.getByRole('heading', { name: /Certificate of completion/ }).scrollIntoViewIfNeeded();
        await sheet.getByLabel(/Share of classes attended/).waitFor();
        await sheet.getByRole('region', { name: /Certificate of completion/ }).screenshot({ path: '/tmp/agora-attendance-editor.png' });
        await sheet.goto(`/educator/${educator.id}/analytics`);
        await sheet.getByText('Attendance rate per session').waitFor();
        await shot(sheet, 'analytics');
      }
    } finally {
      await phone.close();
    }
  });

  await test.step('the learner sees their record on the dashboard and downloads the certificate', async () => {
    await logIn(context, ada);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard');
    const panel = page.getByRole('region', { name: 'Attendance and certificates' });
    await expect(panel.getByText('Attended 2 of 2 classes')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'dashboard-1280');
    // Anyone can verify it, signed out.
    const lookup = await downloadCertificate(page, panel.getByRole('link', { name: /Download your certificate/ }));
    expect(lookup.status).toBe(200);
    expect(lookup.json()).toMatchObject({ status: 'valid', learnerName: 'Ada Lovelace', courseTitle: title, educatorName: 'Grace Hopper' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'dashboard-390');
  });
});
