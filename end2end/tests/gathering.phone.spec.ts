import { expect, test } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { BASE as SUITE, officerContext } from './desk-helpers';
import { openDayClockOffset, openDayServer } from './town-days';

// Issue #33, §52-7's last sentence: the Board may determine that the permit for a
// gathering "shall be issued under Chapter 55 regulations". On scene such a
// gathering is listed as permitted, and choosing it cites nobody.

// The Board routes the gathering at its meeting on the Town's most recent open
// day, and the officer meets the gathering that day, on the server whose today
// that is (town-days.ts): on a weekend or a holiday no meeting can be both
// scheduled not before today and decided not after it.
test.use({ baseURL: async ({}, use) => use(openDayServer().url) });

test('a gathering the Board routed to Chapter 55 is shown as permitted on scene and nobody is cited', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const place = `Harbor fair field ${Date.now()}`;
  // An application for that day, which the Board routes to Chapter 55 at its meeting.
  const { url: BASE, day: meeting } = openDayServer();
  const operator = await browser.newContext({ baseURL: BASE });
  const filed = await operator.request.post('/api/permits/apply', {
    data: {
      application: {
        operator: 'Harbor Fair Inc.', operator_address: '2 Post Road, Wells ME 04090',
        operator_phone: '207-555-0101', operator_email: '', sponsor: '', landowner: 'Town of Wells',
        lessee: '', place, map_point: '', purpose: 'Craft fair', first_day: meeting, last_day: meeting,
        starts: '00:00', ends: '23:59', attendance: 3000, vehicles: 700, buses: 0,
        water_under_pressure: false,
        provided: {
          parking_spaces: 0, parking_acre_hundredths: 0, road_lanes: 0, road_parking_lanes: 0,
          road_width_feet: 0, site_square_feet: 0, overnight: false, lighting: false,
          traffic_control: false, potable_water: false, water_gallons_per_day: 0, water_psi: null,
          toilets_men: 0, toilets_women: 0, refuse: { fifty_gallon: 0, sixteen_cubic_yard: 0 },
          parking_refuse: { fifty_gallon: 0, sixteen_cubic_yard: 0 }, collections: 0,
          clear_within_hours: 0, fire_department_informed: false, officers: 0,
          physician_supervision: false, first_aid_station: false, ambulances_on_site: false,
          phone_and_radio: false, hospitals_told: false, sound_precautions: false,
          insurance_per_person_cents: 0, insurance_per_occurrence_cents: 0,
          insurance_property_cents: 0, bond_cents: 0, deposit_cents: 0,
        },
        refuse_plan: '', lighting_plan: '', medical_plan: '',
      },
    },
    headers: { Origin: BASE },
  });
  expect(filed.ok(), await filed.text()).toBeTruthy();
  const { application_id: id, number } = await filed.json();
  await operator.close();
  const clerk = await officerContext(browser, page, 'townclerk', BASE);
  for (const action of [
    { entry: 'fee', receipt: 'R-2026-300' },
    { entry: 'security', estimated_costs_cents: 100_000, bond_cents: 500_000, deposit_cents: 120_000 },
    { entry: 'schedule', day: meeting },
  ]) {
    const r = await clerk.request.post('/api/permits/clerk', {
      data: { application_id: id, action },
      headers: { Origin: BASE },
    });
    expect(r.ok(), await r.text()).toBeTruthy();
  }
  await clerk.close();
  const board = await officerContext(browser, page, 'selectman', BASE);
  const routed = await board.request.post('/api/permits/decide', {
    data: {
      application_id: id, revision: 1, decision: { decision: 'chapter_55' },
      // The Board's action at that meeting (issue #37).
      vote: { meeting_day: meeting, moved_by: 'Selectman Ames', seconded_by: '', in_favour: 3, against: 0, abstaining: 0 },
    },
    headers: { Origin: BASE },
  });
  expect(routed.ok(), await routed.text()).toBeTruthy();
  await board.close();

  // The officer on scene: the routed gathering is listed as permitted, nothing chosen.
  // The phone's clock reads the server's day.
  const offset = openDayClockOffset();
  if (offset !== 0) await page.clock.install({ time: Date.now() + offset * 86_400_000 });
  await signIn(page, 'officer', undefined, '/field/gathering');
  await waitForHydration(page);
  const permitted = page.getByLabel(new RegExp(`${number} .*permitted under Chapter 55`));
  await expect(permitted).toBeVisible();
  await expect(page.locator('input[name="permit"]:checked')).toHaveCount(0);
  await expectAccessible(page);
  await permitted.check();
  await page.getByLabel('Where', { exact: true }).fill(place);
  await page.getByLabel('Persons at count 1').fill('3000');
  await page.getByLabel(/^What shows it/).selectOption('advertised_hours');
  await page.getByLabel('Where it is shown').fill('The fair\'s poster at the gate: 9:00 to 17:00');
  await page.getByLabel('Hours advertised or ticketed').fill('8');
  await page.getByLabel('What you saw').fill('About 3,000 at the fair; the organiser showed the Board\'s Chapter 55 determination.');
  await page.getByLabel('Full name').fill('Olive Organiser');
  await page.getByLabel('Date of birth').fill('1975-03-04');
  await page.getByLabel('Address', { exact: true }).fill('2 Post Road, Wells, ME');
  await page.getByLabel('Their part (§52-7)').selectOption('operator');

  // A citation asked for is refused, naming Chapter 55; without one the report is saved.
  await page.getByLabel('Issue a §52-12 citation').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved.' })).toContainText('Chapter 55 regulations (§52-7)');
  await page.getByLabel('Issue a §52-12 citation').uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  const saved = page.getByTestId('gathering-saved');
  await expect(saved).toContainText('No citation issued.');
  await expect(saved.getByRole('link', { name: /^WPD-/ })).toHaveCount(0);
});

test.describe('on the suite\'s server', () => {
  test.use({ baseURL: SUITE });

  test('an organisation is cited under §52-12 without a date of birth', async ({ page }) => {
    test.setTimeout(90_000);
    await signIn(page, 'officer', undefined, '/field/gathering');
    await waitForHydration(page);
    await page.getByLabel('No permit covers this gathering').check();
    for (const why of await page.getByLabel(/^Why this is not MG-/).all()) {
      await why.fill('That one is the harbor fair; this is the beach concert.');
    }
    await page.getByLabel('Where', { exact: true }).fill(`Beach lot ${Date.now()}`);
    await page.getByLabel('Persons at count 1').fill('2400');
    await page.getByLabel(/^What shows it/).selectOption('tickets_sold');
    await page.getByLabel('Where it is shown').fill('The promoter\'s ticket list, shown on scene');
    await page.getByLabel('Hours advertised or ticketed').fill('5');
    await page.getByLabel('Persons the tickets or advertising show (optional)').fill('2600');
    await page.getByLabel('What you saw').fill('A ticketed concert on the beach lot; the organiser named its manager.');
    // A party, not a person: no date of birth is asked (§52-12: "any person or party").
    await page.getByLabel(/^An organisation/).check();
    await expect(page.getByLabel('Date of birth')).toHaveCount(0);
    await page.getByLabel('Name of the organisation').fill('Beach Sound LLC');
    await page.getByLabel('Address', { exact: true }).fill('9 Mile Road, Wells, ME');
    await page.getByLabel('Representative (optional)').fill('Pat Doe, manager');
    await page.getByLabel('Their part (§52-7)').selectOption('sponsor');
    await page.getByLabel('Issue a §52-12 citation').check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByTestId('gathering-saved');
    await expect(saved).toContainText('Beach Sound LLC');
    await saved.getByRole('link', { name: /^WPD-/ }).click();
    await expect(page.getByText('Beach Sound LLC, by its representative Pat Doe, manager').first()).toBeVisible();
    await expect(page.getByText('Date of birth')).toHaveCount(0);
    await expect(page.getByText('$1,000.00 plus costs').first()).toBeVisible();
  });
});
