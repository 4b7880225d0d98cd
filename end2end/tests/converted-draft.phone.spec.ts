import { test, expect } from '@playwright/test';
import { expectAccessible, signIn, waitForHydration } from './helpers';
import { formReady, unique } from './field-helpers';

// Issue #33, finding 8: a draft kept on a phone by the earlier app (the conduct,
// order and §52-1 E answer recorded once for the whole incident) opens with what
// that app never recorded for the person marked "not recorded — converted", and
// the report cannot be sent until the officer has checked and confirmed it.

test('a draft kept by the earlier app opens with the answers it never recorded to check before sending', async ({ page, context }) => {
  await signIn(page, 'officer2', undefined, '/field/new');
  await formReady(page);
  const place = unique('Converted Lane');
  // Put the phone back the way the earlier app left it: its one draft in
  // localStorage, nothing in IndexedDB.
  await page.evaluate(async ({ place }) => {
    const local = (minutesAgo: number) => {
      const d = new Date(Date.now() - minutesAgo * 60_000);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
    };
    const first = {
      incident_id: crypto.randomUUID(), occurred_at: local(30), location_text: place, place: 'sidewalk', gps: null,
      protected: 'none',
      conduct: {
        remained_in_one_location: true,
        passage: { pedestrians: true, vehicles: false },
        interference: { use_of_property: false, lawful_business: false, ingress_egress: false },
        disturbance: { disturbance_or_annoyance: false, discomfort_or_alarm: false, person_lawfully_passing: false },
        group: { persons_together: 0, obstructs_free_passage: false },
        peace: {
          loud_or_unusual_noise: false, improper_or_boisterous_songs: false, obscene_indecent_and_profane: false,
          unruly_or_boisterous_manner: false, disturbed_quiet_and_good_order: false,
        },
      },
      order_given: true, order_words: 'Stop blocking the way and move on.', order_at: local(20),
      move_on: true, minutes_to_comply: 2, narrative: 'Stood across the sidewalk; pedestrians stepped into the road.',
      subjects: [{
        subject_id: crypto.randomUUID(), identified: true, full_name: 'Alex Doe', date_of_birth: '1990-02-03',
        address: '1 Main St, Wells, ME', id_type: null, id_number: '', description: '', age_range: '35_49',
        sex: 'male', race: 'white', response: 'refused', response_at: local(10), manner: 'stayed_in_place',
        offence: '52-1(A)(1)', no_offence: false, issue_citation: true,
      }],
    };
    localStorage.setItem('wells.draft.officer2', JSON.stringify(first));
    const db: IDBDatabase = await new Promise((ok, fail) => {
      const open = indexedDB.open('wells', 1);
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    await new Promise((ok) => {
      const tx = db.transaction('kv', 'readwrite');
      tx.objectStore('kv').clear();
      tx.oncomplete = ok;
    });
  }, { place });
  await page.close();
  const again = await context.newPage();
  await again.goto('/field/new');
  await waitForHydration(again);
  await expect(again.getByLabel('Address or landmark')).toHaveValue(place);

  const check = again.getByTestId('converted-check');
  await expect(check).toContainText('the place obstructed (§52-1 A(1))');
  await expect(check).toContainText('not recorded — converted');
  await again.getByTestId('submit-report').click();
  await expect(again.getByTestId('form-errors')).toContainText('Converted from the earlier app');
  await expectAccessible(again);

  await check.getByRole('button', { name: 'I have checked these answers for this person' }).click();
  await expect(check).toHaveCount(0);
  await again.getByTestId('submit-report').click();
  await expect(again.getByText(/Converted from the earlier app/)).toHaveCount(0);
});
