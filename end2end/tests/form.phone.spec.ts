import { test, expect, Page } from '@playwright/test';
import { expectAccessible, openMenu, signIn, waitForHydration } from './helpers';
import { chargeWith, did, expression, identify, Inputs, openNewForm, person, respondedNow, response, submit, unique, where } from './field-helpers';
import { BASE, officerContext, submitReport } from './desk-helpers';

// The field form on a 390 × 844 phone (issue #17): problems as the officer goes
// and all at once on submit, times the rules allow, undo, the folded header, and
// targets a thumb can hit.

const STAYED = 'Remained in essentially one place, alone or with others (§52-1 B)';

/** Visible targets in `scope` smaller than 44 × 44 CSS pixels (WCAG 2.5.5). */
async function smallTargets(page: Page, scope: string): Promise<string[]> {
  return page.locator(scope).evaluateAll((roots) => {
    const small: string[] = [];
    for (const root of roots) {
      for (const el of Array.from(root.querySelectorAll('a[href], button, summary, select, textarea, input:not([type=radio]):not([type=checkbox]), label.choice'))) {
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
        if (box.height < 44 || box.width < 44) {
          small.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
        }
      }
    }
    return small;
  });
}

test.describe('the form on a phone', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'officer', undefined, '/field/new');
    await openNewForm(page);
  });

  test('submit on an empty form names every problem at once and takes the officer to the first', async ({ page }) => {
    // Tapped at the bottom of the form, as an officer would.
    await page.getByTestId('submit-report').click();
    const summary = page.getByTestId('form-errors');
    await expect(summary).toBeVisible();
    for (const problem of ['Location: required.', 'Name: required.', 'Address: required.', 'Narrative:', '§52-1 E', 'Choose the type of place']) {
      await expect(summary).toContainText(problem);
    }
    // A person's problem says whose it is, as their part of the form is headed (#35).
    await expect(summary).toContainText('Person 1 — Name: required.');
    // The first problem's input, in view and focused — not the summary far above.
    const first = page.getByLabel('Address or landmark');
    await expect(first).toBeFocused();
    await expect(first).toBeInViewport();
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    await expect(person(page, 0).getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('What each person did')).toHaveAttribute('aria-invalid', 'true');
    // Fixed, a problem goes at once.
    await first.fill(unique('Mile Road'));
    await person(page, 0).getByLabel('Full name').focus();
    await expect(first).toHaveAttribute('aria-invalid', 'false');
    await expect(summary).not.toContainText('Location: required.');
    await expectAccessible(page);
  });

  test('a field is checked when the officer leaves it, not before', async ({ page }) => {
    const name = person(page, 0).getByLabel('Full name');
    await name.fill('Pat');
    await name.fill('');
    await expect(name).toHaveAttribute('aria-invalid', 'false');
    await person(page, 0).getByLabel('Date of birth').focus();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(person(page, 0).locator('#subjects-0-full_name-error')).toHaveText('Name: required.');
    // The next field, not left yet, is not flagged.
    await expect(person(page, 0).getByLabel('Date of birth')).toHaveAttribute('aria-invalid', 'false');
    // The overview at the top lists it too (no submit yet: nothing is focused).
    await expect(page.getByTestId('form-errors')).toContainText('Name: required.');
    await expect(page.getByTestId('form-errors')).not.toContainText('Date of birth');
  });

  test('the response time is empty until given, and a failure recorded after the time allowed is sound', async ({ page }) => {
    await page.getByRole('button', { name: 'Stop blocking the way and move on.' }).click();
    await page.getByRole('group', { name: 'Order 1' }).getByLabel('2 min').click();
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    const at = page.locator('#subjects-0-response_at');
    await expect(at).toHaveValue('');
    await response(page, 0).getByLabel('Did not stop or move').click();
    // "Now" is this minute (tests/true-times.phone.spec.ts); the order was given
    // ten minutes before it, so the two minutes allowed have passed.
    await respondedNow(page, new Inputs(page), 0);
    await page.getByLabel('What each person did').focus();
    await expect(at).toHaveAttribute('aria-invalid', 'false');
  });

  test('a removed person comes back with "Undo", until the next change', async ({ page }) => {
    await page.getByRole('button', { name: 'Add another person' }).click();
    await person(page, 1).getByLabel('Full name').fill('Drew Lane');
    await person(page, 1).getByLabel(STAYED).click();
    await person(page, 1).getByRole('button', { name: 'Remove Drew Lane from the report' }).click();
    await expect(page.locator('article.person')).toHaveCount(1);
    const undo = page.getByRole('button', { name: 'Undo — put Drew Lane back' });
    await expect(undo).toBeFocused();
    await expectAccessible(page);
    await undo.click();
    await expect(page.locator('article.person')).toHaveCount(2);
    await expect(person(page, 1).getByLabel('Full name')).toHaveValue('Drew Lane');
    await expect(person(page, 1).getByLabel(STAYED)).toBeChecked();
    // Removed again, then another change: the offer is gone.
    await person(page, 1).getByRole('button', { name: 'Remove Drew Lane from the report' }).click();
    await expect(page.getByTestId('undo-remove')).toBeVisible();
    await page.getByLabel('What each person did').fill('Changed after the removal.');
    await expect(page.getByTestId('undo-remove')).toHaveCount(0);
  });

  test('the header is one row; its menu holds the name, sign-out and the screens', async ({ page }) => {
    const header = await page.locator('header.site-header').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(60);
    await expect(page.getByTestId('signed-in-as')).toBeHidden();
    await openMenu(page);
    await expect(page.getByTestId('signed-in-as')).toContainText('Officer Sam Price');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My reports' })).toBeVisible();
    await expectAccessible(page);
    expect(await smallTargets(page, 'header')).toEqual([]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My reports' }).click();
    await expect(page.getByRole('heading', { name: 'My reports', level: 1 })).toBeVisible();
    await expect(page.getByTestId('signed-in-as')).toBeHidden();
  });

  test('targets on the form, the receipt and My reports are 44 px at least; date-times show AM/PM', async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, unique('Drakes Island Road'), 'Sidewalk');
    await page.getByRole('button', { name: 'Stop blocking the way and move on.' }).click();
    await page.getByRole('group', { name: 'Order 1' }).getByLabel('2 min').click();
    await identify(page, input, 0, { name: 'Sam Doe', dob: '1999-09-09', address: '5 Harbor Rd, Wells, ME' });
    await expression(page, input, 0);
    await did(page, input, 0, STAYED, 'Hindered or impeded pedestrians (or tended to)');
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Refused out loud').click();
    await respondedNow(page, input, 0);
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    await page.getByLabel(/^Issue citation/).click();
    await page.getByLabel('What each person did').fill('Stood across the sidewalk; said no when told to move on.');
    expect(await smallTargets(page, 'main')).toEqual([]);
    // The date-time field is wide enough for its whole value and its picker.
    for (const time of await page.locator('input[type="datetime-local"]').all()) {
      expect((await time.boundingBox())!.width).toBeGreaterThanOrEqual(235);
    }
    await submit(page, input);
    await expect(page.getByTestId('citation-number')).toHaveCount(1);
    expect(await smallTargets(page, '[data-testid="receipt"]')).toEqual([]);
    await page.goto('/field/reports');
    await waitForHydration(page);
    await expect(page.getByTestId('report').first()).toBeVisible();
    expect(await smallTargets(page, 'main')).toEqual([]);
  });
});

test('the start page lists the officer\'s returned reports first, with links to correct them', async ({ page, browser }) => {
  const officer = await officerContext(browser, page, 'officer');
  const location = unique('Ocean Avenue');
  const { incidentId } = await submitReport(officer, location, 'Kit Marsh');
  const chief = await officerContext(browser, page, 'chief');
  const returned = await chief.request.post('/api/review/decide', {
    data: { incident_id: incidentId, revision: 1, action: { action: 'return', reason: 'Give the minutes allowed.' } },
    headers: { Origin: BASE },
  });
  expect(returned.ok(), await returned.text()).toBeTruthy();
  await signIn(page, 'officer');
  const notice = page.getByTestId('returned-reports');
  await expect(notice).toContainText(/\d+ reports? returned for correction/);
  const link = notice.getByRole('link', { name: new RegExp(location) });
  await expect(link).toHaveAttribute('href', `/field/reports/${incidentId}`);
  await expect(notice).toContainText('Give the minutes allowed.');
  // My reports lists it first too, whatever came after it (#35).
  const later = unique('Later Lane');
  await submitReport(officer, later, 'Sky Later');
  await page.goto('/field/reports');
  await expect(page.getByTestId('report').filter({ hasText: later })).toHaveCount(1);
  const rows = await page.getByTestId('report').allTextContents();
  const at = (place: string) => rows.findIndex((r) => r.includes(place));
  expect(at(location)).toBeLessThan(at(later));
  await page.goto('/');
  // Above the desks.
  const desks = await page.locator('ul.desks').boundingBox();
  expect((await notice.boundingBox())!.y).toBeLessThan(desks!.y);
  await expectAccessible(page);
  expect(await smallTargets(page, 'main')).toEqual([]);
  await officer.close();
  await chief.close();
});
