import { test, expect } from '@playwright/test';
import { expectAccessible, layoutShift, openMenu, signIn } from './helpers';
import {
  charge, chargeWith, did, expression, formReady, identify, Inputs, openNewForm, orderGiven, PEDESTRIANS, person, recordNoiseWarning, refusedAndCited, respondedNow, response, STAYED, submit, unique, where,
} from './field-helpers';


test.describe('officer on a phone', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'officer', undefined, '/field/new');
    await openNewForm(page);
  });

  test('(a) a §52-1(A)(1) refusal ends in a numbered citation and its PDF, in at most 20 inputs', async ({ page }, testInfo) => {
    await expectAccessible(page);
    const input = new Inputs(page);
    const location = unique('Post Road at Mile Road');
    await where(page, input, location, 'Sidewalk');
    await orderGiven(page, input);
    await identify(page, input, 0, { name: 'Alex Morgan', dob: '1990-02-03', address: '12 Main Street, Wells, ME' });
    await expression(page, input, 0);
    await did(page, input, 0, STAYED, PEDESTRIANS);
    await expect(person(page, 0).getByTestId('suggested')).toContainText('§52-1 A(1), D');
    await input.tap(response(page, 0).getByLabel('Failed or refused to obey'));
    await input.tap(response(page, 0).getByLabel('Did not stop or move'));
    await respondedNow(page, input, 0);
    await chargeWith(page, input, 0, '§52-1 A(1), D');
    await input.type(
      page.getByLabel('What each person did'),
      'Stood across the sidewalk in front of the store for 20 minutes; pedestrians stepped into Route 1 to pass. Told to stop and move on; stayed in place.',
    );
    const verdict = charge(page, 0);
    await expect(verdict.getByRole('status')).toContainText('citable — $100.00 plus costs');
    await input.tap(verdict.getByLabel('Issue citation — §52-1 A(1), D $100.00 plus costs (§52-4)'));
    await expect(page.getByTestId('outcome')).toHaveText(/Cited — \$100\.00 plus costs/);
    await expectAccessible(page);
    await submit(page, input);

    const receipt = page.getByTestId('receipt');
    await expect(receipt).toBeVisible();
    const number = (await receipt.getByTestId('citation-number').textContent())!.trim();
    expect(number).toMatch(/^WPD-\d{4}-\d{6}$/);
    console.log(`flow (a): ${input.count} required inputs (taps + typed fields)`);
    testInfo.annotations.push({ type: 'inputs', description: String(input.count) });
    expect(input.count).toBeLessThanOrEqual(20);
    await expectAccessible(page);

    const pdf = await page.request.get(`/citations/${number}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const bytes = (await pdf.body()).toString('latin1');
    expect(bytes.startsWith('%PDF-')).toBe(true);
    expect(bytes).toContain(`Citation ${number}`);
    // A line with a character outside ASCII (the penalty statement's §) is
    // written as a hex string: read those too.
    const hex = [...bytes.matchAll(/<([0-9A-Fa-f]{2,})>/g)].map((m) => Buffer.from(m[1], 'hex').toString('latin1'));
    expect([bytes, ...hex].join('\n')).toContain('$100.00 plus costs as assessed by the court');

    await page.goto(`/citations/${number}`);
    await expect(page.getByTestId('citation-number')).toHaveText(number);
    await expect(page.getByText('§52-1 A(1), D')).toBeVisible();
    await expect(page.locator('article.summons').getByText('Officer Sam Price')).toBeVisible();
    await expectAccessible(page);
  });

  test('(h) two persons, one refuses and one complies: exactly one citation, the other "complied — no violation"', async ({ page }) => {
    const input = new Inputs(page);
    const location = unique('Post Office Square');
    await where(page, input, location, 'Sidewalk');
    await orderGiven(page, input);
    await refusedAndCited(page, input, 0, { name: 'Blake Stone', dob: '1988-03-04', address: '4 Elm St, Wells, ME' }, 'Refused out loud');

    // The second person: the same facts in one tap, then their own response.
    await page.getByRole('button', { name: 'Add another person' }).click();
    await identify(page, input, 1, { name: 'Drew Lane', dob: '1990-05-06', address: '6 Elm St, Wells, ME' });
    await person(page, 1).getByTestId('same-as-first').click();
    await expect(person(page, 1).getByLabel(STAYED)).toBeChecked();
    await expect(person(page, 1).getByLabel('Stood with Blake Stone')).toBeChecked();
    await input.tap(response(page, 1).getByLabel('Complied'));
    // Complied: no violation, whatever person 1 did; the citation box is gone.
    await expect(charge(page, 1).getByRole('status')).toContainText('a person who complied has committed no violation');
    await expect(charge(page, 1).getByLabel(/^Issue citation/)).toHaveCount(0);
    await input.tap(charge(page, 1).getByLabel('No offence — no action'));
    await input.type(
      page.getByLabel('What each person did'),
      'Stone and Lane stood across the sidewalk by the post office; pedestrians stepped into the road. Told to move on: Lane left, Stone said no.',
    );
    const outcomes = page.getByTestId('outcome');
    await expect(outcomes.nth(0)).toContainText('Cited — $100.00 plus costs');
    await expect(outcomes.nth(1)).toContainText('Complied — no violation');
    await expectAccessible(page);
    await submit(page, input);

    const receipt = page.getByTestId('receipt');
    await expect(receipt.getByTestId('citation-number')).toHaveCount(1);
    await expect(receipt).toContainText('Blake Stone');
    await expect(receipt).not.toContainText('Drew Lane ·');
    await expect(receipt).toContainText('Complied — no violation');
    await expect(receipt).toContainText('1 citation issued.');
    // Each outcome says whose it is (#35).
    await expect(receipt.getByRole('listitem').filter({ hasText: 'Drew Lane: Complied — no violation' })).toHaveCount(1);
    await expect(receipt.getByRole('listitem').filter({ hasText: 'Blake Stone: Cited — $100.00 plus costs' })).toHaveCount(1);
  });

  test('(b) protected activity: §52-1 is not offered to that person, and a crafted API call to cite it is refused', async ({ page }) => {
    const input = new Inputs(page);
    const location = unique('Town Hall steps');
    await where(page, input, location, 'Public grounds or area');
    const p = person(page, 0);
    await p.getByLabel('Not identified — describe').click();
    await p.getByLabel('Description (clothing, build, hair)').fill('Group of six with signs about the wind farm');
    await p.getByLabel('Cannot tell').first().click();
    await p.locator('fieldset', { hasText: 'Sex' }).getByLabel('Cannot tell').click();
    await p.locator('fieldset', { hasText: 'Race' }).getByLabel('Cannot tell').click();
    await expression(page, input, 0, 'Peaceful picketing');
    await expect(p.getByTestId('protected-notice')).toBeVisible();
    // The §52-1 conduct questions are gone for this person and no §52-1 offence is offered.
    await expect(p.getByText('Loitering (§52-1)', { exact: true })).toHaveCount(0);
    const offences = charge(page, 0);
    await expect(offences.getByLabel(/^§52-1 A/)).toHaveCount(0);
    await expect(offences.getByLabel(/^§52-2/)).toHaveCount(1);
    await p.getByRole('button', { name: 'Record this person as protected activity — no action' }).click();
    await page.getByLabel('What each person did').fill('Peaceful picket on the public grounds; no obstruction.');
    await expectAccessible(page);
    await submit(page, input);
    await expect(page.getByTestId('receipt')).toContainText('Protected activity — no action (§52-1 E)');
    await expect(page.getByTestId('citation-number')).toHaveCount(0);

    const origin = new URL(page.url()).origin;
    const now = Date.now();
    const crafted = {
      report: {
        incident_id: '01937f00-0000-7000-8000-000000000001',
        occurred_at: now - 600000,
        location: { text: location, place: 'public_grounds', gps: null },
        orders: [{ words: 'Stop and move on.', given_at: now - 300000, move_on: true, minutes_to_comply: 0 }],
        narrative: 'Picketing.',
        subjects: [{
          subject_id: '01937f00-0000-7000-8000-000000000002',
          identity: { kind: 'described', description: 'Picketer' },
          perceived: { age_range: 'unknown', sex: 'unknown', race: 'unknown' },
          protected_activity: 'peaceful_picketing',
          conduct: { remained_in_one_location: true, passage: { pedestrians: true, vehicles: false, place: 'public_grounds' } },
          order: 0,
          response: { kind: 'refused', at: now - 200000, manner: 'refused_verbally' },
          arrested: false,
          charges: [{ offence: '52-1(A)(1)', issue_citation: true }],
        }],
      },
    };
    const refused = await page.request.post('/api/incidents/submit', { data: crafted, headers: { Origin: origin } });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain('§52-1 E');
  });

  test('(c) complied after the order: saved with no citation', async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, unique('Wells Beach main lot'), 'Beach');
    await orderGiven(page, input, 'Stop blocking the entrance and move on.');
    await identify(page, input, 0, { name: 'Jordan Lee', dob: '2001-06-30', address: '3 Ocean Ave, Wells, ME' });
    await expression(page, input, 0);
    await did(page, input, 0, STAYED, 'With a business being lawfully conducted');
    await input.tap(response(page, 0).getByLabel('Complied'));
    await respondedNow(page, input, 0);
    await chargeWith(page, input, 0, '§52-1 A(2), D');
    await input.type(page.getByLabel('What each person did'), 'Blocked the snack bar line; moved on when told.');
    await expect(charge(page, 0).getByRole('status')).toContainText('a person who complied has committed no violation');
    await expect(charge(page, 0).getByLabel(/Issue citation/)).toHaveCount(0);
    await submit(page, input);
    await expect(page.getByTestId('receipt')).toContainText('Complied — no violation');
    await expect(page.getByTestId('citation-number')).toHaveCount(0);
    // "New incident" opens on a new report, not on the last one's receipt (#35);
    // the receipt lives on in My reports.
    await page.goto('/field/new');
    await formReady(page);
    await expect(page.getByTestId('receipt')).toHaveCount(0);
    await expect(page.getByLabel('Address or landmark')).toHaveValue('');
    await expect(page.getByTestId('submit-report')).toBeEnabled();
    // With no signal, My reports shows the receipts this phone keeps, not just
    // "No connection" (#35).
    await page.context().setOffline(true);
    await openMenu(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My reports' }).click();
    await expect(page.getByTestId('no-signal-reports')).toContainText('No signal.');
    await expect(page.getByTestId('kept-receipt').first()).toContainText('Jordan Lee: Complied — no violation');
    await expectAccessible(page);
    await page.context().setOffline(false);
  });

  test('(d) §52-2 with two persons, one refusing: one citation, a summons unless an arrest is recorded', async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, unique('Route 1 at Eldridge Road'), 'Street');
    await page.getByRole('button', { name: 'Stop blocking the way and move on.' }).click();
    await page.getByRole('group', { name: 'Order 1' }).getByLabel('2 min').click();
    await identify(page, input, 0, { name: 'Casey Hart', dob: '1985-11-12', address: '9 Post Rd, Wells, ME' });
    await page.getByRole('button', { name: 'Add another person' }).click();
    await identify(page, input, 1, { name: 'Riley Shaw', dob: '1987-04-01', address: '11 Post Rd, Wells, ME' });
    await expression(page, input, 0);
    await person(page, 0).getByLabel('Stood with Riley Shaw').click();
    await did(page, input, 0, 'They obstructed free passage');
    await person(page, 1).getByTestId('same-as-first').click();
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Refused out loud').click();
    await respondedNow(page, input, 0);
    await response(page, 1).getByLabel('Complied').click();
    await respondedNow(page, input, 1);
    await chargeWith(page, input, 0, '§52-2');
    await charge(page, 1).getByLabel('No offence — no action').click();
    await page.getByLabel('What each person did').fill('Two men stood in the travel lane; cars swerved. Both told to move on; Hart refused, Shaw left.');
    await expect(charge(page, 0).getByRole('status')).toContainText('§52-2 permits an arrest');
    await charge(page, 0).getByLabel(/^Issue citation — §52-2/).click();
    // A summons without arrest is the default; the officer records an arrest made.
    const arrest = charge(page, 0).getByLabel(/An arrest was made/);
    await expect(arrest).not.toBeChecked();
    await expect(page.getByTestId('outcome').nth(0)).toContainText('Cited — $100.00 plus costs');
    await arrest.click();
    await expect(page.getByTestId('outcome').nth(0)).toContainText('Arrested and cited — District Court (§52-2)');
    await expectAccessible(page);
    await submit(page, input);
    const receipt = page.getByTestId('receipt');
    await expect(receipt).toContainText('Arrested and cited — District Court (§52-2)');
    await expect(receipt).toContainText('Complied — no violation');
    await expect(receipt.getByTestId('citation-number')).toHaveCount(1);
    await expect(receipt).toContainText('arrest, District Court (§52-2)');
  });

  test('(e) no signal at submit: kept, queued, sent once when the signal returns', async ({ page, context }) => {
    const input = new Inputs(page);
    const location = unique('Drakes Island Road');
    await recordNoiseWarning(page, input, location, { name: 'Sam Doe', dob: '1999-09-09', address: '5 Harbor Rd, Wells, ME' });
    await context.setOffline(true);
    await submit(page, input);
    const queued = page.getByTestId('queued');
    await expect(queued).toContainText('No signal');
    await expect(page.getByTestId('connection')).toContainText('Offline');
    await expectAccessible(page);
    // Still queued after a reload with no signal (the service worker serves the page).
    await context.setOffline(false);
    await expect(page.getByTestId('receipt')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('receipt')).toContainText('Warned — no citation');

    await page.goto('/field/reports');
    await expect(page.getByTestId('report').filter({ hasText: location })).toHaveCount(1);
    const origin = new URL(page.url()).origin;
    const mine = await page.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: origin } });
    const reports = (await mine.json()) as { location: string }[];
    expect(reports.filter((r) => r.location === location)).toHaveLength(1);
  });

  test('(g) the server sends the form itself, disabled until the draft is in it; nothing jumps when it opens', async ({ page }) => {
    const html = await (await page.request.get('/field/new')).text();
    expect(html).toContain('1. When and where');
    expect(html).toMatch(/<fieldset (disabled class="unboxed"|class="unboxed" disabled)[ >]/);
    await page.reload();
    await formReady(page);
    expect(await layoutShift(page)).toBeLessThan(0.01);
  });

  test('(f) a reload mid-form keeps the draft', async ({ page }) => {
    const location = unique('Mile Road');
    await page.getByLabel('Address or landmark').fill(location);
    await page.getByLabel('Sidewalk', { exact: true }).click();
    await person(page, 0).getByLabel('Full name').fill('Pat Quinn');
    await person(page, 0).getByLabel(STAYED).click();
    await page.reload();
    await expect(page.getByLabel('Address or landmark')).toHaveValue(location);
    await expect(page.getByLabel('Sidewalk', { exact: true })).toBeChecked();
    await expect(person(page, 0).getByLabel('Full name')).toHaveValue('Pat Quinn');
    await expect(person(page, 0).getByLabel(STAYED)).toBeChecked();
    await expectAccessible(page);
  });
});
