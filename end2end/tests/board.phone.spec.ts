import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { officerContext } from './desk-helpers';
import { openDayServer, townDate } from './town-days';

// Issue #37, findings 8 and 9: the Board of Selectmen decides at its meeting — the
// decision records the meeting, the motion, who moved and seconded and the vote, and
// is confirmed before it is recorded — and a finding of the Board (§52-8 B) stays open,
// through the operator's answer and change, until the Board marks it met; no permit
// issues while it is open (§52-8 A).

// The meetings are held on the Town's most recent open day, on the server whose
// today that is (town-days.ts): on a weekend or a holiday no meeting can be both
// scheduled not before today and decided not after it.
test.use({ baseURL: async ({}, use) => use(openDayServer().url) });

/** The server's today: the Town's most recent open day. */
function today(): string {
  return openDayServer().day;
}

/** A plan for 2,400 persons on `day` that meets every standard the rules check. */
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

async function openApplication(page: Page, user: string, number: string) {
  await signIn(page, user, undefined, '/permits');
  await page.getByRole('link', { name: number }).click();
  await expect(page.getByRole('heading', { name: `Permit application ${number}` })).toBeVisible();
  await waitForHydration(page);
}

/** The Town Clerk, on a phone, puts the application before today's meeting. */
async function schedule(page: Page, number: string) {
  await openApplication(page, 'townclerk', number);
  await page.getByLabel("Selectmen's meeting that considers it").fill(today());
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByTestId('permit-state')).toHaveText('Before the Selectmen');
  await page.context().clearCookies();
}

/** The meeting, the mover and seconder, and the vote, as the minutes give them. */
async function minutes(page: Page, motion: string) {
  const board = page.getByTestId('board-decision');
  await board.getByLabel('Meeting at which the Board decided').fill(today());
  await board.getByLabel('Moved by', { exact: true }).fill('Selectman Ames');
  await board.getByLabel('Seconded by (empty if no one seconded)').fill('Selectman Bell');
  await board.getByLabel('For', { exact: true }).fill('3');
  await board.getByLabel('Against', { exact: true }).fill('1');
  await board.getByLabel('Abstaining', { exact: true }).fill('1');
  await board.getByLabel(motion, { exact: true }).check();
}

test('the Board decides at its meeting on a recorded vote, and its finding stays open until it marks it met', async ({ page, browser }) => {
  const BASE = openDayServer().url;
  const firstDay = townDate(40);
  const operator = await browser.newContext();
  const filed = await operator.request.post('/api/permits/apply', {
    data: { application: application(firstDay, `Wells Harbor Park ${Date.now()}`) },
    headers: { Origin: BASE },
  });
  expect(filed.ok(), await filed.text()).toBeTruthy();
  const { application_id: id, number, token } = await filed.json();
  await operator.close();
  const clerk = await officerContext(browser, page, 'townclerk', BASE);
  for (const action of [
    { entry: 'fee', receipt: 'R-2026-400' },
    { entry: 'security', estimated_costs_cents: 1_000_000, bond_cents: 500_000, deposit_cents: 1_200_000 },
  ]) {
    const r = await clerk.request.post('/api/permits/clerk', { data: { application_id: id, action }, headers: { Origin: BASE } });
    expect(r.ok(), await r.text()).toBeTruthy();
  }
  await clerk.close();
  await schedule(page, number);

  // At the meeting the Board finds a standard the rules cannot check not met, and
  // denies on it; what will be recorded is shown, and nothing is recorded until confirmed.
  await openApplication(page, 'selectman', number);
  await minutes(page, 'Deny the permit, with the reasons listed');
  await page.getByLabel('A further finding of the Board: the standard not met').selectOption('§52-10(2)(b)');
  await page.getByLabel('What the Board found (optional)').fill('The plan clears the tree line at the north field for a second gate.');
  await page.getByLabel('The step that would meet it').fill('Put the second gate at the existing farm road, leaving the trees.');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Review what will be recorded' }).click();
  const summary = page.getByTestId('decision-summary');
  await expect(summary).toContainText('3 for, 1 against, 1 abstaining');
  await expect(summary).toContainText('§52-10(2)(b)');
  await expect(page.getByTestId('permit-state')).toHaveText('Before the Selectmen');
  await page.getByRole('button', { name: "Record the Board's decision" }).click();
  await expect(page.getByTestId('decision')).toContainText('Permit denied');
  await expect(page.getByTestId('decision-board')).toContainText('3 for, 1 against, 1 abstaining');
  await expect(page.getByTestId('decision-board')).toContainText('Selectman Ames');
  await expect(page.getByTestId('board-finding')).toContainText('§52-10(2)(b): The plan clears the tree line');
  await expect(page.getByTestId('finding-open')).toBeVisible();
  await page.context().clearCookies();

  // The operator answers the finding and sends a change through the private link.
  await page.goto(`/permits/status?token=${token}`);
  await waitForHydration(page);
  await expect(page.getByTestId('finding-open')).toBeVisible();
  await page.getByLabel('Your answer to the Board').fill('The second gate now uses the farm road; the tree line stays.');
  await page.getByRole('button', { name: 'Send your answer' }).click();
  await expect(page.getByTestId('finding-answer')).toContainText('the tree line stays');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Change the application' }).click();
  await page.getByLabel('Purpose', { exact: true }).fill('Summer music festival; second gate at the farm road');
  await page.getByRole('button', { name: 'Send the changes' }).click();
  await expect(page.getByTestId('permit-state')).toHaveText('Fee recorded, awaiting scheduling');
  // The change does not close the Board's finding.
  await expect(page.getByTestId('finding-open')).toBeVisible();
  await page.context().clearCookies();

  // Before the Board again: no permit while the finding is open.
  await schedule(page, number);
  await openApplication(page, 'selectman', number);
  await expect(page.getByTestId('finding-open')).toBeVisible();
  await expect(page.getByLabel('Issue the permit', { exact: true })).toBeDisabled();
  await expect(page.getByTestId('finding-answer')).toContainText('the tree line stays');

  // The Board marks it met, asked first; then it issues on its vote.
  await page.getByText('The Board found this met').click();
  await page.getByLabel("The Board's note").fill('The farm road gate leaves the trees; met.');
  await page.getByTestId('mark-met').click();
  await expect(page.getByRole('group', { name: 'Mark met' })).toContainText('§52-10(2)(b)');
  await page.getByRole('button', { name: 'Yes, record it met' }).click();
  await expect(page.getByTestId('finding-met')).toContainText('The farm road gate leaves the trees; met.');
  await expect(page.getByTestId('finding-open')).toHaveCount(0);
  await minutes(page, 'Issue the permit');
  await page.getByRole('button', { name: 'Review what will be recorded' }).click();
  await page.getByRole('button', { name: "Record the Board's decision" }).click();
  await expect(page.getByTestId('decision')).toContainText('Permit issued');
  await expect(page.getByTestId('decision-board')).toContainText(`meeting of ${today()}`);
  await expectAccessible(page);
});
