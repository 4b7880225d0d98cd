import { expect, Page, test } from '@playwright/test';
import { BASE, officerContext } from './desk-helpers';
import { expectAccessible, signIn } from './helpers';
import { formReady, Inputs, openNewForm, orderGiven, refusedAndCited, submit, unique, where } from './field-helpers';

// Issue #20: a photo is attached on the phone, kept through a reload and with no
// signal, sent after its report, and reaches the chief's page without the
// location data a camera writes into it.

// Chromium's offline switch does not reach a service worker's own fetches: here
// the page talks to the network itself, so "offline" is offline.
test.use({ serviceWorkers: 'block' });

/** A JPEG as a phone camera writes one: an image drawn by Chromium, with an EXIF
 *  segment carrying a GPS position put in after its start marker. */
async function cameraPhoto(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1800;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2a6f4e';
    context.fillRect(0, 0, 2400, 1800);
    context.fillStyle = '#f4f4f4';
    context.fillRect(500, 400, 1400, 1000);
    return canvas.toDataURL('image/jpeg', 0.9);
  });
  const jpeg = Buffer.from(dataUrl.split(',')[1], 'base64');
  const exif = Buffer.from('Exif\0\0MM\0*GPSLatitude 43.3221 GPSLongitude -70.5806', 'latin1');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(exif.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1]), length, exif, jpeg.subarray(2)]);
}

test('a photo is kept through a reload and no signal, sent after its report, and reaches the chief without its location data', async ({ page, context, browser }) => {
  await signIn(page, 'officer', undefined, '/field/new');
  await openNewForm(page);
  const photo = await cameraPhoto(page);
  expect(photo.toString('latin1')).toContain('GPSLatitude');
  const input = new Inputs(page);
  const location = unique('Wells Beach parking lot');
  await where(page, input, location, 'Sidewalk');
  await page.getByTestId('add-photos').setInputFiles({ name: 'crowd.jpg', mimeType: 'image/jpeg', buffer: photo });
  const thumbnails = page.getByTestId('draft-photos');
  await expect(thumbnails.getByRole('img', { name: 'Photo 1 of 1' })).toBeVisible();
  await expect(page.locator('#incident-photos-hint')).toContainText('1 of 10.');
  await expectAccessible(page);

  // A reload: the draft and its photo are still on the phone.
  await page.reload();
  await formReady(page);
  await expect(thumbnails.getByRole('img', { name: 'Photo 1 of 1' })).toBeVisible();

  // No signal: the report and its photo wait on the phone.
  await context.setOffline(true);
  await orderGiven(page, input);
  await refusedAndCited(page, input, 0, { name: 'Kim Lowe', dob: '1993-06-07', address: '8 Sea Road, Wells, ME' });
  await page.getByLabel('What each person did').fill('Stood across the lot entrance; cars backed onto Route 1. Told to move on; stayed.');
  await submit(page, input);
  await expect(page.getByTestId('queued')).toContainText('No signal');
  await context.setOffline(false);
  await expect(page.getByTestId('receipt')).toBeVisible({ timeout: 30_000 });

  const mine = await page.request.post('/api/incidents/mine', { data: { before: null }, headers: { Origin: BASE } });
  const reports = (await mine.json()) as { incident_id: string; location: string }[];
  const incident = reports.find((r) => r.location === location)!.incident_id;

  const chief = await officerContext(browser, page, 'chief');
  const view = async () => {
    const reply = await chief.request.post('/api/reports/get', { data: { incident_id: incident }, headers: { Origin: BASE } });
    return ((await reply.json()) as { photos?: { photo_id: string; width: number; height: number }[] }).photos ?? [];
  };
  await expect.poll(async () => (await view()).length, { timeout: 30_000 }).toBe(1);
  const [stored] = await view();
  expect([stored.width, stored.height]).toEqual([1600, 1200]);

  const desk = await chief.newPage();
  await desk.goto(`/reports/${incident}`);
  await expect(desk.getByRole('img', { name: /^Photo 1 of 1 of the incident/ })).toBeVisible();
  await expectAccessible(desk);
  const served = await chief.request.get(`/incidents/${incident}/photos/${stored.photo_id}`);
  expect(served.headers()['content-type']).toBe('image/jpeg');
  const bytes = (await served.body()).toString('latin1');
  expect(bytes).not.toContain('Exif');
  expect(bytes).not.toContain('GPSLatitude');
  await chief.close();
});
