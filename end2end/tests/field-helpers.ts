import { expect, Page } from '@playwright/test';

/** Counts the officer's inputs (taps and typed fields) through a test. */
export class Inputs {
  taps = 0;
  typed = 0;
  constructor(private page: Page) {}
  get count() {
    return this.taps + this.typed;
  }
  async tap(locator: ReturnType<Page['locator']>) {
    this.taps++;
    await locator.click();
  }
  async type(locator: ReturnType<Page['locator']>, text: string) {
    this.typed++;
    await locator.fill(text);
  }
}

export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Opens a fresh form (drafts left on this phone by an earlier test are discarded). */
export async function openNewForm(page: Page) {
  await page.goto('/field/new');
  await formReady(page);
  // The app keeps drafts in IndexedDB (app/src/phone_store.rs), one key per officer.
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const open = indexedDB.open('wells', 1);
        open.onerror = () => done();
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('kv')) return done();
          const tx = db.transaction('kv', 'readwrite');
          const store = tx.objectStore('kv');
          const keys = store.getAllKeys();
          keys.onsuccess = () => {
            for (const k of keys.result) if (String(k).startsWith('drafts.')) store.delete(k);
          };
          tx.oncomplete = () => done();
        };
      }),
  );
  await page.reload();
  await formReady(page);
}

/** The server renders the form disabled; it opens once this phone's draft is in it. */
export async function formReady(page: Page) {
  await expect(page.getByRole('heading', { name: '1. When and where' })).toBeVisible();
  await expect(page.getByTestId('submit-report').or(page.getByTestId('start-another'))).toBeEnabled();
}

export function person(page: Page, i: number) {
  return page.locator('article.person').nth(i);
}
export function response(page: Page, i: number) {
  return page.locator('.response').nth(i);
}
export function charge(page: Page, i: number) {
  return page.locator('article.charge').nth(i);
}

/** Identity and perception of person `i`, the way an officer fills them. */
export async function identify(
  page: Page,
  input: Inputs,
  i: number,
  who: { name: string; dob: string; address: string },
) {
  const p = person(page, i);
  await input.type(p.getByLabel('Full name'), who.name);
  await input.type(p.getByLabel('Date of birth'), who.dob);
  await input.type(p.getByLabel('Address', { exact: true }), who.address);
  await input.tap(p.getByLabel('35–49'));
  await input.tap(p.getByLabel('Male', { exact: true }));
  await input.tap(p.getByLabel('White'));
}

/** Person `i`'s own §52-1 E answer. */
export async function expression(page: Page, input: Inputs, i: number, answer = 'No — not expressing an opinion') {
  await input.tap(person(page, i).getByLabel(answer));
}

/**
 * The order, in one tap of its words, and the time allowed to comply: it starts
 * unset and must be chosen (§52-1 D: a person fails to obey only after a chance
 * to obey).
 */
export async function orderGiven(
  page: Page,
  input: Inputs,
  words = 'Stop blocking the way and move on.',
  minutes = '2 min',
) {
  await input.tap(page.getByRole('button', { name: words }));
  await input.tap(page.getByRole('group', { name: 'Order 1' }).getByLabel(minutes, { exact: minutes !== AT_ONCE }));
}

/** "At once" as the form offers it. */
export const AT_ONCE = "At once — only an outright refusal counts in the order's minute";

/** Where. */
export async function where(page: Page, input: Inputs, location: string, place: string) {
  await input.type(page.getByLabel('Address or landmark'), location);
  await input.tap(page.getByLabel(place, { exact: true }));
}

/** Ticks what person `i` did, by the labels of the conduct boxes. */
export async function did(page: Page, input: Inputs, i: number, ...labels: string[]) {
  for (const label of labels) await input.tap(person(page, i).getByLabel(label, { exact: true }));
}

/** Charges person `i` with the offence whose reference starts the label (`§52-1 A(1), D`). */
export async function chargeWith(page: Page, input: Inputs, i: number, reference: string) {
  await input.tap(charge(page, i).getByLabel(new RegExp(`^${reference.replace(/[()]/g, '\\$&')} `)));
}

/** Person `i`'s response time by its "Now" (empty until given). */
export async function respondedNow(page: Page, input: Inputs, i: number) {
  await input.tap(response(page, i).getByRole('button', { name: 'Now — Time of the response' }));
  await orderGivenEarlier(page, await page.locator(`#subjects-${i}-response_at`).inputValue());
}

/** `minutes` before a datetime-local value, in the same form (zone-free arithmetic). */
export function minutesBefore(local: string, minutes: number): string {
  const at = new Date(`${local}:00Z`);
  return new Date(at.getTime() - minutes * 60_000).toISOString().slice(0, 16);
}

/**
 * "Now" is the minute it is tapped (issue #35), and a failure to obey counts
 * only once the time allowed has passed. An officer records the refusal after
 * waiting; a spec cannot wait, so the incident and its orders are put as begun
 * ten minutes before the response (no later than they already are): what the
 * form would hold had the officer opened it on arrival. Not an officer's input,
 * so not counted by `Inputs`.
 */
export async function orderGivenEarlier(page: Page, responseAt: string) {
  const incident = page.locator('#occurred_at');
  const begun = minutesBefore(responseAt, 10);
  if ((await incident.inputValue()) > begun) await incident.fill(begun);
  const orders = page.locator('input[id^="orders-"][id$="-given_at"]');
  for (let k = 0; k < (await orders.count()); k++) {
    const order = orders.nth(k);
    if ((await order.inputValue()) > begun) await order.fill(begun);
  }
}

export const STAYED = 'Remained in essentially one place, alone or with others (§52-1 B)';
export const PEDESTRIANS = 'Hindered or impeded pedestrians (or tended to)';

/**
 * Person `i` (after the order was given): identified, not expressing an opinion,
 * stood in the way of pedestrians, refused the order just now, charged with
 * §52-1 A(1) with a citation — the standard citation.
 */
export async function refusedAndCited(
  page: Page,
  input: Inputs,
  i: number,
  who: { name: string; dob: string; address: string },
  manner = 'Did not stop or move',
) {
  await identify(page, input, i, who);
  await expression(page, input, i);
  await did(page, input, i, STAYED, PEDESTRIANS);
  await input.tap(response(page, i).getByLabel('Failed or refused to obey'));
  await input.tap(response(page, i).getByLabel(manner));
  await respondedNow(page, input, i);
  await chargeWith(page, input, i, '§52-1 A(1), D');
  await input.tap(charge(page, i).getByLabel(/^Issue citation/));
}

export async function submit(page: Page, input: Inputs) {
  await input.tap(page.getByTestId('submit-report'));
}

/**
 * A one-person §52-3 report with no order given (a warning, no citation), ready
 * to submit: what the offline specs record.
 */
export async function recordNoiseWarning(
  page: Page,
  input: Inputs,
  location: string,
  who: { name: string; dob: string; address: string },
) {
  await where(page, input, location, 'Park');
  await identify(page, input, 0, who);
  await expression(page, input, 0);
  await did(page, input, 0, 'Made a loud noise', '…and it disturbed the quiet and good order of the Town');
  await response(page, 0).getByLabel('No order given to this person').click();
  await chargeWith(page, input, 0, '§52-3');
  await page.getByLabel('What each person did').fill('Shouting with a megaphone at 1 a.m. beside the houses.');
}
