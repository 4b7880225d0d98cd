import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import {
  did, formReady, Inputs, orderGiven, person, refusedAndCited, response, submit, unique, where,
} from './field-helpers';

// Issue #17: an officer on the beach with no signal hands each person cited a
// numbered copy on the spot, records a second incident while the first waits,
// and the server later confirms the numbers — or voids one, and says why.

const NARRATIVE = 'Stood across the boardwalk ramp with a friend; beachgoers had to climb the dune fence to pass.';

/** A one-person §52-1(A)(1) refusal, cited, ready to submit. */
async function recordRefusal(page: Page, location: string, who: { name: string; dob: string; address: string }) {
  const input = new Inputs(page);
  await where(page, input, location, 'Sidewalk');
  await orderGiven(page, input);
  await refusedAndCited(page, input, 0, who);
  await input.type(page.getByLabel('What each person did'), NARRATIVE);
  await expect(page.getByTestId('outcome')).toHaveText(/Cited — \$100\.00 plus costs/);
  await submit(page, input);
}

/** The number the phone gave the person just cited, after checking the copy it prints. */
async function numberOnScene(page: Page, name: string): Promise<string> {
  const current = page.getByTestId('phone-citation-number').first();
  await expect(current).toBeVisible();
  const number = (await current.textContent())!.trim();
  expect(number).toMatch(/^WPD-\d{4}-\d{6}$/);
  await page.getByTestId('phone-copy').first().click();
  const copy = page.locator('article.summons').first();
  await expect(copy.getByTestId('citation-number')).toHaveText(number);
  await expect(copy).toContainText(name);
  await expect(copy).toContainText('$100.00');
  await expect(copy).toContainText('Stop blocking the way and move on.');
  // This person's copy: their conduct, the order, their response — not the
  // officer's account of the incident, which names the others.
  await expect(copy).not.toContainText(NARRATIVE);
  await expect(copy.getByRole('button', { name: 'Print or save as PDF' })).toBeVisible();
  return number;
}

const seq = (number: string) => Number(number.slice(-6));

// Chromium's offline switch does not reach a service worker's own fetches, so a
// report sent through the worker would leave "offline". The worker's offline
// pages have their own spec (release.phone.spec.ts); here the page talks to the
// network itself, and "offline" is offline.
test.use({ serviceWorkers: 'block' });

test('with no signal, two incidents each get a number and a copy on the spot, are sent once later, and a refused third voids its number', async ({ page, context, browser }) => {
  await signIn(page, 'beach', undefined, '/field/new');
  await formReady(page);
  // While there is signal the phone reserves its block.
  await expect(page.getByTestId('numbers-held')).toContainText('10 left');
  await context.setOffline(true);

  const first = unique('Wells Beach ramp');
  await recordRefusal(page, first, { name: 'Alex Morgan', dob: '1990-02-03', address: '12 Main Street, Wells, ME' });
  await expect(page.getByTestId('queued')).toContainText('No signal');
  const n1 = await numberOnScene(page, 'Alex Morgan');
  await expectAccessible(page);

  // A second incident while the first waits.
  await page.getByTestId('start-another').click();
  await formReady(page);
  const second = unique('Mile Road beach lot');
  await recordRefusal(page, second, { name: 'Jo Smith', dob: '1985-05-06', address: '3 Depot St, Wells, ME' });
  const n2 = await numberOnScene(page, 'Jo Smith');
  expect(seq(n2)).toBe(seq(n1) + 1);
  // Both wait on this phone, the one just queued too (#35); its copy is the
  // one shown above the list, not repeated in it.
  const waiting = page.getByTestId('queued-report');
  await expect(waiting).toHaveCount(2);
  await expect(waiting.filter({ hasText: first }).getByTestId('phone-citation-number')).toHaveText(n1);
  await expect(waiting.filter({ hasText: second })).toContainText('the report on the form above');
  await expect(waiting.filter({ hasText: second }).getByTestId('phone-citation-number')).toHaveCount(0);
  await expect(page.getByTestId('numbers-held')).toContainText('8 left');

  // Back in signal: both go, once, and the server confirms the numbers.
  await context.setOffline(false);
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  await expect(receipt.getByTestId('citation-number')).toHaveText(n2);
  await expect(waiting).toHaveCount(0, { timeout: 30_000 });
  const origin = new URL(page.url()).origin;
  for (const number of [n1, n2]) {
    const got = await page.request.post('/api/citations/get', { data: { number }, headers: { Origin: origin } });
    expect(got.status(), number).toBe(200);
    expect((await got.json()).status).toBe('issued');
  }
  const mine = await page.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: origin } });
  const reports = (await mine.json()) as { location: string }[];
  expect(reports.filter((r) => r.location === first || r.location === second)).toHaveLength(2);

  // A third incident offline, which the server will refuse: the report that
  // reaches it says the person was picketing (§52-1 E) — as a phone with an
  // outdated copy of the rules, or a tampered one, might send it.
  await page.getByTestId('start-another').click();
  await formReady(page);
  await context.setOffline(true);
  const third = unique('Harbor Road');
  await recordRefusal(page, third, { name: 'Max Lee', dob: '1979-01-02', address: '9 Harbor Rd, Wells, ME' });
  const n3 = await numberOnScene(page, 'Max Lee');
  expect(seq(n3)).toBe(seq(n2) + 1);
  await page.evaluate(async () => {
    const db: IDBDatabase = await new Promise((ok, fail) => {
      const open = indexedDB.open('wells', 1);
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    const store = () => db.transaction('kv', 'readwrite').objectStore('kv');
    const text: string = await new Promise((ok) => {
      const get = store().get('outbox.beach');
      get.onsuccess = () => ok(get.result);
    });
    const queue = JSON.parse(text);
    queue.pending[0].subjects[0].protected_activity = 'peaceful_picketing';
    await new Promise((ok) => {
      const put = store().put(JSON.stringify(queue), 'outbox.beach');
      put.onsuccess = ok;
    });
  });
  // The phone is put away and opened again once there is signal.
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto('/field/new');
  await waitForHydration(again);
  const void_ = again.getByTestId('void-numbers').first();
  await expect(void_).toBeVisible({ timeout: 30_000 });
  await expect(void_).toContainText(n3);
  await expect(void_).toContainText('52-1 E');
  await expectAccessible(again);

  // The clerk's queue accounts for every number of the year.
  const desk = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const clerk = await desk.newPage();
  await signIn(clerk, 'clerk', undefined, '/court');
  const account = clerk.getByTestId('number-account');
  await expect(account.getByTestId('numbers-balance')).toContainText('accounted for');
  await expect(account.getByTestId('numbers-void').filter({ hasText: n3 })).toContainText('52-1 E');
  await expect(account).toContainText('Officer Dana Reyes');
  await expectAccessible(clerk);
  await desk.close();
});

test('a report queued by the app before it kept reports in IndexedDB is moved there and sent, and the old draft is kept', async ({ page, context }) => {
  await signIn(page, 'officer2', undefined, '/field/new');
  await formReady(page);
  await context.setOffline(true);
  const location = unique('Depot Street');
  await recordRefusal(page, location, { name: 'Lee Park', dob: '1970-07-07', address: '1 Depot St, Wells, ME' });
  await expect(page.getByTestId('queued')).toContainText('No signal');
  // Put the phone back the way the previous version of the app left it: the
  // queue and a half-typed draft in localStorage, nothing in IndexedDB.
  const draftPlace = unique('Half-typed place');
  await page.evaluate(async ({ draftPlace }) => {
    const db: IDBDatabase = await new Promise((ok, fail) => {
      const open = indexedDB.open('wells', 1);
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    const read = (key: string): Promise<string> =>
      new Promise((ok) => {
        const get = db.transaction('kv').objectStore('kv').get(key);
        get.onsuccess = () => ok(get.result);
      });
    const queue = JSON.parse(await read('outbox.officer2'));
    for (const r of queue.pending) r.numbers = [];
    const drafts = JSON.parse(await read('drafts.officer2'));
    drafts.current.location_text = draftPlace;
    drafts.current.incident_id = crypto.randomUUID();
    localStorage.setItem('wells.outbox.officer2', JSON.stringify({ pending: queue.pending, receipts: [], rejected: [] }));
    localStorage.setItem('wells.draft.officer2', JSON.stringify(drafts.current));
    await new Promise((ok) => {
      const tx = db.transaction('kv', 'readwrite');
      tx.objectStore('kv').clear();
      tx.oncomplete = ok;
    });
  }, { draftPlace });
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto('/field/new');
  await waitForHydration(again);
  // The draft is back on the form, and the queued report went to the server.
  await expect(again.getByLabel('Address or landmark')).toHaveValue(draftPlace);
  const origin = new URL(again.url()).origin;
  await expect
    .poll(async () => {
      const mine = await again.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: origin } });
      return ((await mine.json()) as { location: string }[]).filter((r) => r.location === location).length;
    }, { timeout: 30_000 })
    .toBe(1);
  const left = await again.evaluate(() => [localStorage.getItem('wells.outbox.officer2'), localStorage.getItem('wells.draft.officer2')]);
  expect(left).toEqual([null, null]);
});
