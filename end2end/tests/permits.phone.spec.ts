import { BrowserContext, expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { approve, BASE, officerContext, parseCsv } from './desk-helpers';
import { openDayServer, townDate } from './town-days';

// The Board's stories meet on the Town's most recent open day, on the server whose
// today that is (town-days.ts): on a weekend or a holiday no meeting can be both
// scheduled not before today and decided not after it. The officer's story on
// scene keeps the suite's server and the real time.
test.use({ baseURL: async ({}, use) => use(openDayServer().url) });

/** The day of the Board's meeting: the open-day server's today. */
function meetingDay(): string {
  return openDayServer().day;
}

/** Someone else picks up the phone: nobody is signed in any more. */
async function handOver(page: Page) {
  await page.context().clearCookies();
}

/**
 * A plan for 2,400 persons that meets every standard but the toilets: 3 for each sex, where
 * §52-10(4)(d) needs 4 each — one for each 350 of the 1,200 men and of the 1,200 women
 * (issue #33; before it, 4 per sex against 7 required).
 */
async function fillApplication(page: Page, firstDay: string) {
  const text: [string, string][] = [
    ['Operator', 'Harbor Fest LLC'],
    ["Operator's mailing address", '1 Post Road, Wells ME 04090'],
    ["Operator's phone", '207-555-0100'],
    ['Owner of the ground', 'Town of Wells'],
    ['Purpose', 'Summer music festival'],
    ['Place', 'Wells Harbor Park'],
    ['First day', firstDay],
    ['Last day', firstDay],
    ['Each day starts at', '10:00'],
    ['Each day ends at', '18:00'],
    ['Persons expected', '2400'],
    ['Passenger cars expected', '600'],
    ['Parking spaces (§52-10(2)(e))', '600'],
    ['Usable acres of parking', '6'],
    ['Traffic lanes of the service roads', '2'],
    ['Width of the service roads, feet', '24'],
    ['Square feet for the assemblage (§52-10(2)(f))', '30000'],
    ['Gallons of water a day', '7200'],
    ['Toilets for men (§52-10(4)(d))', '3'],
    ['Toilets for women', '3'],
    ['50-gallon containers at the assembly', '24'],
    ['50-gallon containers where vehicles park', '24'],
    ['Refuse collections planned', '2'],
    ['Grounds cleared within (hours after)', '24'],
    ['Law enforcement officers on site (§52-10(7)(e))', '15'],
    ['Bodily injury, per person ($)', '300000'],
    ['Bodily injury, per occurrence ($)', '500000'],
    ['Property damage ($)', '100000'],
  ];
  for (const [label, value] of text) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  for (const box of [
    /Traffic control personnel/, /lit at night/, /Potable water/, /Fire Department is informed/,
    /licensed physician/, /first aid building/, /Licensed ambulances/, /Telephone and radio/,
    /Area hospitals/, /Precautions so the sound/,
  ]) {
    await page.getByRole('checkbox', { name: box }).check();
  }
}

async function openApplication(page: Page, user: string, number: string) {
  await signIn(page, user, undefined, '/permits');
  await page.getByRole('link', { name: number }).click();
  await expect(page.getByRole('heading', { name: `Permit application ${number}` })).toBeVisible();
  await waitForHydration(page);
}

async function schedule(page: Page) {
  await page.getByLabel("Selectmen's meeting that considers it").fill(meetingDay());
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByTestId('permit-state')).toHaveText('Before the Selectmen');
}

/**
 * Records the Board's decision as its minutes give it (issue #37): the meeting, the motion,
 * who moved and seconded, the vote; then the summary of what will be recorded, confirmed.
 */
async function recordDecision(page: Page, motion: string) {
  const board = page.getByTestId('board-decision');
  await board.getByLabel('Meeting at which the Board decided').fill(meetingDay());
  await board.getByLabel('Moved by', { exact: true }).fill('Selectman Ames');
  await board.getByLabel('Seconded by (empty if no one seconded)').fill('Selectman Bell');
  await board.getByLabel('For', { exact: true }).fill('4');
  await board.getByLabel('Against', { exact: true }).fill('1');
  await board.getByLabel('Abstaining', { exact: true }).fill('0');
  await board.getByLabel(motion, { exact: true }).check();
  await board.getByRole('button', { name: 'Review what will be recorded' }).click();
  await expect(board.getByTestId('decision-summary')).toContainText('4 for, 1 against, 0 abstaining');
  await board.getByRole('button', { name: "Record the Board's decision" }).click();
}

test('an operator applies online for 2,400 people; denied with the generated reasons, fixed through the link, issued and printed', async ({ page }) => {
  const firstDay = townDate(30);

  // The operator, with no account, applies; the calculator shows the gap as they type.
  await page.goto('/permits/apply');
  await waitForHydration(page);
  await fillApplication(page, firstDay);
  await expect(page.getByTestId('plan-short')).toBeVisible();
  await expect(page.locator('ul.shortfalls')).toContainText('§52-10(4)(d): 3 toilets for men provided, 4 required');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Send the application' }).click();
  const filed = page.getByTestId('permit-filed');
  await expect(filed).toBeVisible();
  const number = ((await filed.getByRole('heading').textContent()) ?? '').match(/MG-\d{4}-\d{4}/)![0];
  const statusLink = (await page.getByTestId('status-link').getAttribute('href'))!;

  // The Town Clerk records the fee, the Town's estimate, bond and deposit, and the meeting.
  await handOver(page);
  await openApplication(page, 'townclerk', number);
  await page.getByLabel('Receipt number for the permit fee (§52-9 A)').fill('R-2026-118');
  await page.getByRole('button', { name: 'Record the fee' }).click();
  await expect(page.getByTestId('permit-state')).toHaveText('Fee recorded, awaiting scheduling');
  await page.getByLabel("The Town's estimate of its public costs ($)").fill('10000');
  await page.getByLabel('Bond furnished ($, at least $5,000)').fill('5000');
  await page.getByLabel('Deposit received ($)').fill('12000');
  await page.getByRole('button', { name: 'Record estimate, bond and deposit' }).click();
  await expect(page.locator('ol.history')).toContainText('security recorded');
  await schedule(page);

  // The Selectmen cannot issue while a standard is unmet; they deny with the generated reasons.
  await handOver(page);
  await openApplication(page, 'selectman', number);
  await expect(page.getByTestId('shortfalls')).toContainText('§52-10(4)(d): 3 toilets for men provided, 4 required');
  await expect(page.getByLabel('Issue the permit', { exact: true })).toBeDisabled();
  await expectAccessible(page);
  await recordDecision(page, 'Deny the permit, with the reasons listed');
  await expect(page.getByTestId('decision')).toContainText('Permit denied');

  // The operator reads the written denial and fixes the plan through the private link.
  await handOver(page);
  await page.goto(statusLink);
  await waitForHydration(page);
  const decision = page.getByTestId('decision');
  await expect(decision).toContainText('§52-10(4)(d): 3 toilets for men provided, 4 required');
  await expect(decision).toContainText('Provide 4 toilets for men');
  await expect(decision).toContainText('Provide 4 toilets for women');
  await expect(decision).toContainText('Rule 80B');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Change the application' }).click();
  await page.getByLabel('Toilets for men (§52-10(4)(d))', { exact: true }).fill('4');
  await page.getByLabel('Toilets for women', { exact: true }).fill('4');
  await expect(page.getByTestId('plan-meets')).toBeVisible();
  await page.getByRole('button', { name: 'Send the changes' }).click();
  await expect(page.getByTestId('permit-state')).toHaveText('Fee recorded, awaiting scheduling');

  // Back before the Board, which issues; the permit prints.
  await handOver(page);
  await openApplication(page, 'townclerk', number);
  await schedule(page);
  await handOver(page);
  await openApplication(page, 'selectman', number);
  await expect(page.getByTestId('no-shortfalls')).toBeVisible();
  await recordDecision(page, 'Issue the permit');
  await expect(page.getByTestId('decision')).toContainText('Permit issued');
  const pdf = await page.request.get((await page.getByTestId('permit-pdf').getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 4).toString()).toBe('%PDF');

  // The operator's link shows the permit too.
  await handOver(page);
  await page.goto(statusLink);
  await expect(page.getByTestId('permit-state')).toHaveText('Permit issued');
  const theirs = await page.request.get((await page.getByTestId('permit-pdf').getAttribute('href'))!);
  expect(theirs.status()).toBe(200);
});

test('an officer on a phone finds whether a place holds a permit on a day', async ({ page }) => {
  await signIn(page, 'officer', undefined, '/permits');
  await page.getByLabel('Gatherings on this day').fill(townDate(400));
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId('no-permits')).toContainText('holds no permit (§52-7)');
  await expectAccessible(page);
});

/** This browser's local `YYYY-MM-DDTHH:MM`, `minutes` ago: what a datetime-local input holds. */
async function localTime(page: Page, minutes: number): Promise<string> {
  return page.evaluate((m) => {
    const d = new Date(Date.now() - m * 60_000);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
  }, minutes);
}

test.describe('on scene, at the real time', () => {
  test.use({ baseURL: BASE });

  test('an officer on a phone records an unpermitted gathering counted twice two hours apart; the §52-12 citation reaches the court export with $1,000', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const place = `Drake farm field ${Date.now()}`;
    await signIn(page, 'officer', undefined, '/field/gathering');
    await expect(page.getByRole('heading', { name: 'Mass gathering (§52-7)' })).toBeVisible();
    await waitForHydration(page);
    // Nothing is answered for the officer (issue #33): the register's answer, the part, the citation.
    await expect(page.getByLabel('No permit covers this gathering')).not.toBeChecked();
    await expect(page.locator('input[name="permit"]:checked')).toHaveCount(0);
    await expect(page.getByLabel('Their part (§52-7)')).toHaveValue('');
    await expect(page.getByLabel('Issue a §52-12 citation')).not.toBeChecked();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Not saved.' })).toContainText('Permit register (§52-7)');
    await expect(page.getByRole('alert').filter({ hasText: 'Not saved.' })).toContainText('Their part (§52-7)');

    await page.getByLabel('No permit covers this gathering').check();
    // Permits other stories issued for today are other gatherings: say why.
    for (const why of await page.getByLabel(/^Why this is not MG-/).all()) {
      await why.fill('That permit is for another place; this is the Drake farm field.');
    }
    await page.getByLabel('Where', { exact: true }).fill(place);
    await page.getByLabel('When it began').fill(await localTime(page, 130));
    await page.getByLabel('Time of count 1').fill(await localTime(page, 130));
    await page.getByLabel('Persons at count 1').fill('2400');
    await page.getByRole('button', { name: 'Add a count' }).click();
    await page.getByLabel('Time of count 2').fill(await localTime(page, 0));
    await page.getByLabel('Persons at count 2').fill('2350');
    await page.getByLabel('How count 2 was made').selectOption('head_count');
    await page.getByLabel('What you saw').fill('Counted 2,400 at the two gates, and 2,350 over two hours later; the promoter said the music runs to 19:00.');
    await page.getByLabel('Full name').fill('Pat Promoter');
    await page.getByLabel('Date of birth').fill('1980-05-06');
    await page.getByLabel('Address', { exact: true }).fill('1 Farm Road, Wells, ME');
    await page.getByLabel('Their part (§52-7)').selectOption('promoter');
    await page.getByLabel('Issue a §52-12 citation').check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByTestId('gathering-saved');
    await expect(saved).toContainText('§52-7');
    const number = ((await saved.getByRole('link').first().textContent()) ?? '').trim();
    expect(number).toMatch(/^WPD-\d{4}-\d{6}$/);
    const incidentId = (await saved.getAttribute('data-incident'))!;

    // The subject's copy states the §52-12 fine.
    await saved.getByRole('link', { name: number }).click();
    await expect(page.getByText('$1,000.00 plus costs').first()).toBeVisible();

    // The chief approves; the clerk's court export carries $1,000.00 and §52-7.
    const chief = await officerContext(browser, page, 'chief');
    await approve(chief, incidentId);
    await chief.close();
    const clerk = await officerContext(browser, page, 'clerk');
    const exported = await clerk.request.post('/court/export', {
      form: { format: 'csv', numbers: number },
      headers: { Origin: BASE },
    });
    expect(exported.ok(), await exported.text()).toBeTruthy();
    const csv = parseCsv(await exported.text());
    const row = csv.find((r) => r[0] === number)!;
    expect(row[csv[0].indexOf('fine')]).toBe('$1,000.00');
    expect(row[csv[0].indexOf('offence_code')]).toBe('52-7');
    await clerk.close();
  });
});

test('the calculator counts buses as motor vehicles, collections per day, and toilets for each sex', async ({ page }) => {
  const firstDay = townDate(30);
  await page.goto('/permits/apply');
  await waitForHydration(page);
  const typed: [string, string][] = [
    ['First day', firstDay],
    ['Last day', townDate(32)],
    ['Each day starts at', '12:00'],
    ['Each day ends at', '16:00'],
    ['Persons expected', '2400'],
    ['Passenger cars expected', '600'],
    ['Buses expected', '4'],
  ];
  for (const [label, value] of typed) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  const need = page.getByTestId('requirements');
  // §52-10(4)(d): one for each 350 of 1,200 men and of 1,200 women (not 7 + 7).
  await expect(need).toContainText('4 toilets for men and 4 for women');
  // §52-10(5)(c): ⌈(600 + 4) / 25⌉ = 25; §52-10(5)(d): 3 days × 2.
  await expect(need).toContainText('25 fifty-gallon or 1 sixteen-yard containers where cars and buses park');
  await expect(need).toContainText('6 refuse collections');
  await page.getByLabel('Men expected (optional)', { exact: true }).fill('1500');
  await page.getByLabel('Women expected (optional)', { exact: true }).fill('900');
  await expect(need).toContainText('5 toilets for men and 3 for women');
  await expectAccessible(page);
});

test("the permit page lists 'should' standards as advice, and the Board issues with them open", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const firstDay = townDate(30);
  const { url: OPEN } = openDayServer();
  const operator = await browser.newContext({ baseURL: OPEN });
  const filed = await operator.request.post('/api/permits/apply', {
    data: { application: application(firstDay, `Wells Harbor Park ${Date.now()}`, { road_width_feet: 20, parking_refuse: { fifty_gallon: 20, sixteen_cubic_yard: 0 } }) },
    headers: { Origin: OPEN },
  });
  expect(filed.ok(), await filed.text()).toBeTruthy();
  const { application_id: id, number } = await filed.json();
  await operator.close();
  const clerk = await officerContext(browser, page, 'townclerk', OPEN);
  await readyForTheBoard(clerk, id, OPEN);
  await clerk.close();

  await openApplication(page, 'selectman', number);
  await expect(page.getByTestId('no-shortfalls')).toBeVisible();
  const advice = page.getByTestId('advice');
  await expect(advice).toContainText('§52-10(2)(e): service roads 20 feet wide, 24 advised');
  await expect(advice).toContainText('§52-10(5)(c)');
  await expectAccessible(page);
  await recordDecision(page, 'Issue the permit');
  await expect(page.getByTestId('decision')).toContainText('Permit issued');
  await expect(page.getByTestId('decision-advice')).toContainText('§52-10(5)(c)');
});

/** A plan for 2,400 persons on `day` that meets every standard, with `changes` to what it provides. */
function application(day: string, place: string, changes: Record<string, unknown> = {}) {
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
      ...changes,
    },
    refuse_plan: 'Two collections', lighting_plan: 'Flood lights', medical_plan: 'Dr. Ames supervises',
  };
}

/** The Town Clerk records the fee, the estimate, bond and deposit, and the meeting. */
async function readyForTheBoard(clerk: BrowserContext, id: string, origin: string) {
  for (const action of [
    { entry: 'fee', receipt: 'R-2026-200' },
    { entry: 'security', estimated_costs_cents: 1_000_000, bond_cents: 500_000, deposit_cents: 1_200_000 },
    { entry: 'schedule', day: meetingDay() },
  ]) {
    const r = await clerk.request.post('/api/permits/clerk', {
      data: { application_id: id, action },
      headers: { Origin: origin },
    });
    expect(r.ok(), await r.text()).toBeTruthy();
  }
}
