import { expect, Page, test } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { approve, BASE, officerContext, parseCsv } from './desk-helpers';

/** The Town's date `days` from today, as the server counts days (America/New_York). */
function townDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
}

/** Someone else picks up the phone: nobody is signed in any more. */
async function handOver(page: Page) {
  await page.context().clearCookies();
}

/** A plan for 2,400 persons that meets every standard but the toilets (4 per sex, 7 required). */
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
    ['Toilets for men (§52-10(4)(d))', '4'],
    ['Toilets for women', '4'],
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
  await page.getByLabel("Selectmen's meeting that considers it").fill(townDate(0));
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByTestId('permit-state')).toHaveText('Before the Selectmen');
}

test('an operator applies online for 2,400 people; denied with the generated reasons, fixed through the link, issued and printed', async ({ page }) => {
  const firstDay = townDate(30);

  // The operator, with no account, applies; the calculator shows the gap as they type.
  await page.goto('/permits/apply');
  await waitForHydration(page);
  await fillApplication(page, firstDay);
  await expect(page.getByTestId('plan-short')).toBeVisible();
  await expect(page.locator('ul.shortfalls')).toContainText('§52-10(4)(d): 4 toilets per sex provided, 7 required');
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
  await expect(page.getByTestId('shortfalls')).toContainText('§52-10(4)(d): 4 toilets per sex provided, 7 required');
  await expect(page.getByRole('button', { name: 'Issue the permit' })).toBeDisabled();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Deny, with these reasons' }).click();
  await expect(page.getByTestId('decision')).toContainText('Permit denied');

  // The operator reads the written denial and fixes the plan through the private link.
  await handOver(page);
  await page.goto(statusLink);
  await waitForHydration(page);
  const decision = page.getByTestId('decision');
  await expect(decision).toContainText('§52-10(4)(d): 4 toilets per sex provided, 7 required');
  await expect(decision).toContainText('Provide 7 toilets for men and 7 for women');
  await expect(decision).toContainText('Rule 80B');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Change the application' }).click();
  await page.getByLabel('Toilets for men (§52-10(4)(d))', { exact: true }).fill('7');
  await page.getByLabel('Toilets for women', { exact: true }).fill('7');
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
  await page.getByRole('button', { name: 'Issue the permit' }).click();
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

test('an officer on a phone records an unpermitted gathering; the §52-12 citation reaches the court export with $1,000', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const place = `Drake farm field ${Date.now()}`;
  await signIn(page, 'officer', undefined, '/field/gathering');
  await expect(page.getByRole('heading', { name: 'Mass gathering (§52-7)' })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByLabel('No permit covers this gathering')).toBeChecked();
  await page.getByLabel('Where', { exact: true }).fill(place);
  await page.getByLabel('Persons counted').fill('2400');
  await page.getByLabel('Hours it has lasted or is announced to last').fill('3');
  await page.getByLabel('What you saw').fill('Counted 2,400 at the two gates from 14:00; the promoter said the music runs to 19:00.');
  await page.getByLabel('Full name').fill('Pat Promoter');
  await page.getByLabel('Date of birth').fill('1980-05-06');
  await page.getByLabel('Address', { exact: true }).fill('1 Farm Road, Wells, ME');
  await page.getByLabel('Their part (§52-7)').selectOption('promoter');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save and issue' }).click();
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
