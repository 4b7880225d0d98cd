import { test, expect } from '@playwright/test';
import { expectAccessible, layoutShift, signIn } from './helpers';
import { charge, formReady, identify, Inputs, openNewForm, person, response, submit, unique, where } from './field-helpers';

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
    await input.tap(page.getByLabel('Remained in essentially one place, alone or with others (§52-1 B)'));
    await input.tap(page.getByLabel('Hindered or impeded pedestrians (or tended to)'));
    await expect(page.getByTestId('suggested')).toContainText('§52-1 A(1), D');
    await identify(page, input, 0, { name: 'Alex Morgan', dob: '1990-02-03', address: '12 Main Street, Wells, ME' });
    await input.tap(page.getByRole('button', { name: 'Stop blocking the way and move on.' }));
    await input.tap(response(page, 0).getByLabel('Failed or refused to obey'));
    await input.tap(response(page, 0).getByLabel('Did not stop or move'));
    await input.type(
      page.getByLabel('What the person did'),
      'Stood across the sidewalk in front of the store for 20 minutes; pedestrians stepped into Route 1 to pass. Told to stop and move on; stayed in place.',
    );
    const verdict = charge(page, 0);
    await expect(verdict.getByRole('status')).toContainText('citable — $100.00 plus costs');
    await input.tap(verdict.getByLabel('Issue citation — $100.00 plus costs (§52-4)'));
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
    expect(bytes).toContain('$100.00');

    await page.goto(`/citations/${number}`);
    await expect(page.getByTestId('citation-number')).toHaveText(number);
    await expect(page.getByText('§52-1 A(1), D')).toBeVisible();
    await expect(page.locator('article.summons').getByText('Officer Sam Price')).toBeVisible();
    await expectAccessible(page);
  });

  test('(b) protected activity: §52-1 is not offered, and a crafted API call to cite it is refused', async ({ page }) => {
    const input = new Inputs(page);
    const location = unique('Town Hall steps');
    await where(page, input, location, 'Public grounds or area', 'Peaceful picketing');
    await expect(page.getByTestId('protected-notice')).toBeVisible();
    // The §52-1 conduct questions are gone and no §52-1 offence is offered.
    await expect(page.getByText('Loitering (§52-1)', { exact: true })).toHaveCount(0);
    const offences = charge(page, 0);
    await expect(offences.getByText(/§52-1 A/)).toHaveCount(0);
    await expect(offences.getByLabel(/^§52-2/)).toHaveCount(1);
    await page.getByRole('button', { name: 'Record as protected activity — no action' }).click();
    const p = person(page, 0);
    await p.getByLabel('Not identified — describe').click();
    await p.getByLabel('Description (clothing, build, hair)').fill('Group of six with signs about the wind farm');
    await p.getByLabel('Cannot tell').first().click();
    await p.locator('fieldset', { hasText: 'Sex' }).getByLabel('Cannot tell').click();
    await p.locator('fieldset', { hasText: 'Race' }).getByLabel('Cannot tell').click();
    await page.getByLabel('What the person did').fill('Peaceful picket on the public grounds; no obstruction.');
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
        protected_activity: 'peaceful_picketing',
        conduct: {
          remained_in_one_location: true,
          passage: { pedestrians: true, vehicles: false },
          interference: { use_of_property: false, lawful_business: false, ingress_egress: false },
          disturbance: { disturbance_or_annoyance: false, discomfort_or_alarm: false, person_lawfully_passing: false },
          group: { persons_together: 6, obstructs_free_passage: false },
          peace: { loud_or_unusual_noise: false, improper_or_boisterous_songs: false, obscene_indecent_and_profane: false, unruly_or_boisterous_manner: false, disturbed_quiet_and_good_order: false },
        },
        order: { words: 'Stop and move on.', given_at: now - 300000, move_on: true, minutes_to_comply: 0 },
        narrative: 'Picketing.',
        subjects: [{
          subject_id: '01937f00-0000-7000-8000-000000000002',
          identity: { kind: 'described', description: 'Picketer' },
          perceived: { age_range: 'unknown', sex: 'unknown', race: 'unknown' },
          response: { kind: 'refused', at: now - 200000, manner: 'stayed_in_place' },
          charge: { offence: '52-1(A)(1)', issue_citation: true },
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
    await input.tap(page.getByLabel('Remained in essentially one place, alone or with others (§52-1 B)'));
    await input.tap(page.getByLabel('With a business being lawfully conducted'));
    await identify(page, input, 0, { name: 'Jordan Lee', dob: '2001-06-30', address: '3 Ocean Ave, Wells, ME' });
    await input.tap(page.getByRole('button', { name: 'Stop blocking the entrance and move on.' }));
    await input.tap(response(page, 0).getByLabel('Complied'));
    await input.type(page.getByLabel('What the person did'), 'Blocked the snack bar line; moved on when told.');
    await expect(charge(page, 0).getByRole('status')).toContainText('a person who complied has committed no violation');
    await expect(charge(page, 0).getByLabel(/Issue citation/)).toHaveCount(0);
    await submit(page, input);
    await expect(page.getByTestId('receipt')).toContainText('Complied — no violation');
    await expect(page.getByTestId('citation-number')).toHaveCount(0);
  });

  test('(d) §52-2 with two persons, one refusing: one citation and an arrest record', async ({ page }) => {
    const input = new Inputs(page);
    await where(page, input, unique('Route 1 at Eldridge Road'), 'Street');
    await page.getByRole('button', { name: 'One more person' }).click();
    await page.getByRole('button', { name: 'One more person' }).click();
    await expect(page.getByTestId('persons-together')).toHaveText('2');
    await page.getByLabel('They obstructed free passage').click();
    await identify(page, input, 0, { name: 'Casey Hart', dob: '1985-11-12', address: '9 Post Rd, Wells, ME' });
    await page.getByRole('button', { name: 'Add another person' }).click();
    await identify(page, input, 1, { name: 'Riley Shaw', dob: '1987-04-01', address: '11 Post Rd, Wells, ME' });
    await page.getByRole('button', { name: 'Stop blocking the way and move on.' }).click();
    await response(page, 0).getByLabel('Failed or refused to obey').click();
    await response(page, 0).getByLabel('Refused out loud').click();
    await response(page, 1).getByLabel('Complied').click();
    await page.getByLabel('What the person did').fill('Two men stood in the travel lane; cars swerved. Both told to move on; Hart refused, Shaw left.');
    await expect(charge(page, 0).getByRole('status')).toContainText('§52-2: arrest and bring before the District Court');
    await charge(page, 0).getByLabel(/Arrest and issue citation/).click();
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
    await where(page, input, location, 'Park');
    await page.getByLabel('Loud or unusual noise').click();
    await identify(page, input, 0, { name: 'Sam Doe', dob: '1999-09-09', address: '5 Harbor Rd, Wells, ME' });
    await response(page, 0).getByLabel('No order given to this person').click();
    await page.getByLabel('What the person did').fill('Shouting with a megaphone at 1 a.m. beside the houses.');
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
    await page.reload();
    await expect(page.getByLabel('Address or landmark')).toHaveValue(location);
    await expect(page.getByLabel('Sidewalk', { exact: true })).toBeChecked();
    await expect(person(page, 0).getByLabel('Full name')).toHaveValue('Pat Quinn');
    await expectAccessible(page);
  });
});
