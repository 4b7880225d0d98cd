import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, openMenu, PASSWORD } from './helpers';
import { unique } from './field-helpers';
import { BASE, approve, officerContext, submitReport } from './desk-helpers';
import { townClosed, townDate } from './town-days';

// Issue #37, finding 18: the court clerk's calendar — the hearings set from
// today on, grouped by day, each citation a link; reached from the clerk's
// pages. At the desk's screen.

test.use({ viewport: { width: 1366, height: 768 } });

/** The first day the court sits at least `days` from the suite's today. */
function sittingDay(days: number): string {
  let n = days;
  while (townClosed(townDate(n))) n += 1;
  return townDate(n);
}

test('the clerk sees the hearings by day and opens a citation from the calendar', async ({ page, browser }) => {
  const officer = await officerContext(browser, page);
  const chief = await officerContext(browser, page, 'chief');
  const clerk = await officerContext(browser, page, 'clerk');
  const run = unique('Hearing');
  const first = sittingDay(20);
  const second = sittingDay(30);
  const cited: { number: string; hearing: string }[] = [];
  for (const [i, hearing] of [first, first, second].entries()) {
    const { incidentId, number } = await submitReport(officer, `Hearing Lane ${run} ${i}`, `Harper Hearing ${i}`);
    await approve(chief, incidentId);
    const filed = await clerk.request.post('/api/court/file', {
      data: { filing: { numbers: [number], filed_on: townDate(), reference: `YORDC-${run}-${i}` } },
      headers: { Origin: BASE },
    });
    expect(filed.ok(), await filed.text()).toBeTruthy();
    const contested = await clerk.request.post('/api/court/dispose', {
      data: { number, disposition: { kind: 'contested', on: townDate(), hearing_on: hearing } },
      headers: { Origin: BASE },
    });
    expect(contested.ok(), await contested.text()).toBeTruthy();
    cited.push({ number, hearing });
  }
  await Promise.all([officer.close(), chief.close(), clerk.close()]);

  await signIn(page, 'clerk', PASSWORD, '/court/register');
  // Linked from the clerk's pages: the register and the menu.
  await page.getByRole('main').getByRole('link', { name: 'Hearings calendar' }).click();
  await expect(page).toHaveURL(/\/court\/calendar$/);
  await expect(page.getByRole('heading', { name: 'Hearings calendar', level: 1 })).toBeVisible();
  await openMenu(page);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hearings calendar' }))
    .toHaveAttribute('aria-current', 'page');

  // Each day once, in order, its hearings under it.
  const days = page.getByTestId('calendar-day');
  const headings = await days.locator('h2').allTextContents();
  const dates = headings.map((h) => h.match(/\d{4}-\d{2}-\d{2}/)![0]);
  expect(dates).toEqual([...dates].sort());
  expect(new Set(dates).size).toBe(dates.length);
  const firstDay = days.filter({ has: page.getByRole('heading', { name: new RegExp(first) }) });
  for (const { number, hearing } of cited) {
    const day = days.filter({ has: page.getByRole('heading', { name: new RegExp(hearing) }) });
    await expect(day.getByTestId('hearing').filter({ hasText: number })).toHaveCount(1);
  }
  const weekday = new Date(`${first}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  await expect(firstDay.locator('h2')).toHaveText(`${weekday} ${first}`);
  await expectAccessible(page);

  await firstDay.getByRole('link', { name: cited[0].number }).click();
  await expect(page).toHaveURL(new RegExp(`/court/citations/${cited[0].number}$`));
});
