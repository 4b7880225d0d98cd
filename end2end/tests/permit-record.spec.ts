import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { BASE, officerContext } from './desk-helpers';
import { townDate } from './town-days';

// Issue #37, finding 18: an advisor's opinion (§52-8 A) reads as written — its
// paragraphs kept and wrapped to the screen, not run into one line — and the
// application's record names the amounts the Town Clerk recorded (the fee, the
// estimate of public costs, the bond and the deposit), with thousands
// separators, on the summary and in the history.

/** A plan for 2,400 persons on `day`. */
function application(day: string, place: string) {
  return {
    operator: 'Harbor Fest LLC', operator_address: '1 Post Road, Wells ME 04090',
    operator_phone: '207-555-0100', operator_email: '', sponsor: '',
    landowner: 'Town of Wells', lessee: '', place, map_point: '', purpose: 'Summer music festival',
    first_day: day, last_day: day, starts: '08:00', ends: '20:00',
    attendance: 2400, vehicles: 600, buses: 0, water_under_pressure: false,
    provided: {
      parking_spaces: 600, parking_acre_hundredths: 600, road_lanes: 2, road_parking_lanes: 0,
      road_width_feet: 24, site_square_feet: 30000, overnight: false, lighting: true,
      traffic_control: true, potable_water: true, water_gallons_per_day: 7200, water_psi: null,
      toilets_men: 4, toilets_women: 4,
      refuse: { fifty_gallon: 24, sixteen_cubic_yard: 0 },
      parking_refuse: { fifty_gallon: 24, sixteen_cubic_yard: 0 },
      collections: 2, clear_within_hours: 24, fire_department_informed: true, officers: 15,
      physician_supervision: true, first_aid_station: true, ambulances_on_site: true,
      phone_and_radio: true, hospitals_told: true, sound_precautions: true,
      insurance_per_person_cents: 30000000, insurance_per_occurrence_cents: 50000000,
      insurance_property_cents: 10000000, bond_cents: 0, deposit_cents: 0,
    },
    refuse_plan: 'Two collections', lighting_plan: 'Flood lights', medical_plan: 'Dr. Ames supervises',
  };
}

async function openRecord(page: Page, user: string, id: string, number: string) {
  await signIn(page, user, undefined, `/permits/${id}`);
  await expect(page.getByRole('heading', { name: `Permit application ${number}` })).toBeVisible();
  await waitForHydration(page);
}

test("an advisor's opinion keeps its paragraphs and the record names the Town Clerk's amounts", async ({ page, browser }) => {
  const operator = await browser.newContext();
  const filed = await operator.request.post(`${BASE}/api/permits/apply`, {
    data: { application: application(townDate(40), `Wells Harbor Park ${Date.now()}`) },
    headers: { Origin: BASE },
  });
  expect(filed.ok(), await filed.text()).toBeTruthy();
  const { application_id: id, number } = await filed.json();
  await operator.close();
  const clerk = await officerContext(browser, page, 'townclerk', BASE);
  for (const action of [
    { entry: 'fee', receipt: 'R-2026-737' },
    { entry: 'security', estimated_costs_cents: 1_250_000, bond_cents: 500_000, deposit_cents: 1_500_000 },
  ]) {
    const r = await clerk.request.post(`${BASE}/api/permits/clerk`, { data: { application_id: id, action }, headers: { Origin: BASE } });
    expect(r.ok(), await r.text()).toBeTruthy();
  }
  await clerk.close();

  // The chief advises the Selectmen in two paragraphs, one with a long word.
  await openRecord(page, 'chief', id, number);
  await page.getByLabel('In your capacity as').fill('Police Chief');
  const first = 'Traffic on Route 1 backs up past the harbor road by noon on a summer Saturday.';
  const second = 'Post two officers at the gate; see https://www.wellstown.org/police/summer-detail-planning-and-staffing-notes-2026.';
  await page.getByLabel('Opinion', { exact: true }).fill(`${first}\n\n${second}`);
  await page.getByRole('button', { name: 'Add the opinion' }).click();
  const opinion = page.getByTestId('opinion').locator('blockquote');
  await expect(opinion).toContainText(first);
  // As written: the blank line between the paragraphs is kept, and the text wraps
  // inside the screen rather than running off it in one line.
  expect(await opinion.innerText()).toContain(`${first}\n\n${second}`);
  const box = (await opinion.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  expect(await opinion.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBeTruthy();
  expect(box.height).toBeGreaterThan(40);
  await expectAccessible(page);
  await page.context().clearCookies();

  // The Town Clerk's record: the amounts recorded, on the summary and in the history.
  await openRecord(page, 'townclerk', id, number);
  const facts = page.locator('section[aria-labelledby="summary"] dl.facts');
  await expect(facts).toContainText('Persons expected2,400');
  await expect(facts).toContainText('$100.00 received, receipt R-2026-737');
  await expect(facts).toContainText('public costs estimated at $12,500.00; bond $5,000.00; deposit $15,000.00');
  const history = page.locator('ol.history');
  await expect(history).toContainText('$100.00 received, receipt R-2026-737');
  await expect(history).toContainText('estimate of public costs $12,500.00, bond $5,000.00, deposit $15,000.00');
  await expectAccessible(page);
  await page.goto('/permits');
  await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText('2,400');
});
