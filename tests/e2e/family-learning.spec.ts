import { expect, test } from '@playwright/test';
import { seriousViolations, scrollWidth } from './checks';
import {
  courseWhoseClassesTookPlace,
  createVerifiedUser,
  downloadCertificate,
  logIn,
  openAttendanceSheet,
  signedInClient,
} from './support';

/**
 * Family accounts in the learning loop, in the browser (issue 26 part 3, ADR 0074): a parent's
 * two children in one session. On a phone the educator marks each child on their own line
 * (named, with the parent as contact), the classroom's list names the children, and the
 * parent downloads each child's certificate from the dashboard. The rules are
 * tests/api/attendance/family.test.ts, tests/api/classroom/family.test.ts and
 * tests/api/notifications/family-classes.test.ts.
 */

const shot = async (p: import('@playwright/test').Page, name: string) => {
  if (process.env.AGORA_SHOTS) await p.screenshot({ path: `/tmp/agora-family-${name}.png`, fullPage: true });
};

/** The parent adds their children as learners and enrols them in one request, as the pages do. */
async function enrolChildren(parent: { email: string; password: string }, courseId: string, sessionId: string, names: string[]) {
  const api = await signedInClient(parent);
  const ids: string[] = [];
  for (const firstName of names) {
    const added = await api.post('/api/me/learners', { firstName, age: '9' });
    expect(added.status, added.text).toBe(201);
    ids.push(added.json<{ learner: { id: string } }>().learner.id);
  }
  const enrolled = await api.post(`/api/courses/${courseId}/sessions/${sessionId}/enrol`, { learnerIds: ids });
  expect(enrolled.status, enrolled.text).toBe(200);
}

test("a parent's two children: marked one by one on a phone, named in the classroom, a certificate each on the dashboard", async ({
  page,
  context,
  browser,
}) => {
  const title = `Chess for Kids ${Date.now() % 100000}`;
  const ana = await createVerifiedUser({ firstName: 'Ana', lastName: 'Ruiz' });
  const { educator, courseId, sessionId } = await courseWhoseClassesTookPlace({
    title,
    seat: (courseId, sessionId) => enrolChildren(ana, courseId, sessionId, ['Mia', 'Leo']),
  });

  await test.step('on a phone: each child on their own line, the parent as contact, one tap each', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const sheet = await openAttendanceSheet(phone, educator, courseId);
      const learners = sheet.getByRole('list', { name: 'Learners' });
      const mia = learners.getByRole('listitem').filter({ hasText: /^Mia/ });
      const leo = learners.getByRole('listitem').filter({ hasText: /^Leo/ });
      await expect(mia.getByText('contact Ana Ruiz')).toBeVisible();
      await expect(leo.getByText('contact Ana Ruiz')).toBeVisible();
      await mia.getByRole('group', { name: 'Attendance of Mia' }).getByRole('button', { name: 'Present' }).tap();
      await leo.getByRole('group', { name: 'Attendance of Leo' }).getByRole('button', { name: 'Late' }).tap();
      await expect(mia.getByText('Saved')).toBeVisible();
      await expect(leo.getByText('Saved')).toBeVisible();
      await expect(mia.getByRole('button', { name: 'Present' })).toHaveAttribute('aria-pressed', 'true');
      await expect(leo.getByRole('button', { name: 'Late' })).toHaveAttribute('aria-pressed', 'true');
      await expect(sheet.getByText('1 present · 1 late · 0 absent')).toBeVisible();
      // The session had ended: each child met the share; a certificate each.
      const issued = sheet.getByRole('list', { name: 'Certificates issued' });
      await expect(issued.getByText('Mia', { exact: true })).toBeVisible();
      await expect(issued.getByText('Leo', { exact: true })).toBeVisible();
      expect(await seriousViolations(sheet)).toEqual([]);
      expect(await scrollWidth(sheet)).toBeLessThanOrEqual(390);
      await shot(sheet, 'sheet-390');

      // The classroom's list of learners names the parent's children.
      await sheet.goto(`/course/${courseId}/session/${sessionId}/classroom`);
      const members = sheet.getByRole('region', { name: 'Learners' });
      await expect(members.getByText('Ana Ruiz (for Leo, Mia)', { exact: true })).toBeVisible();
      expect(await seriousViolations(sheet)).toEqual([]);
      expect(await scrollWidth(sheet)).toBeLessThanOrEqual(390);
      await shot(sheet, 'classroom-390');
    } finally {
      await phone.close();
    }
  });

  await test.step("the parent sees each child's record and downloads each certificate", async () => {
    await logIn(context, ana);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    const panel = page.getByRole('region', { name: 'Attendance and certificates' });
    await expect(panel.getByText('For Mia')).toBeVisible();
    await expect(panel.getByText('For Leo')).toBeVisible();
    await expect(panel.getByRole('list', { name: `Mia's attendance in ${title}` }).getByText(/Present/)).toBeVisible();
    await expect(panel.getByRole('list', { name: `Leo's attendance in ${title}` }).getByText(/Late/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'dashboard-390');
    const lookup = await downloadCertificate(page, panel.getByRole('link', { name: /Download Mia's certificate/ }));
    expect(lookup.json()).toMatchObject({ status: 'valid', learnerName: 'Mia', courseTitle: title });
    await expect(panel.getByRole('link', { name: /Download Leo's certificate/ })).toBeVisible();
  });
});
