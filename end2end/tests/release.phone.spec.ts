import { test, expect, Page } from '@playwright/test';
import { expectAccessible, signIn } from './helpers';
import { formReady, Inputs, recordNoiseWarning, submit, unique } from './field-helpers';

// The service worker keeps one release of the app on the phone (issue #15):
// its caches bear the release, pages ask for that release's files, an older
// release's caches are dropped, and a network slower than 3 s gives way to the
// saved page.

/** The release the page was built for, from its stylesheet's `/pkg/<release>/`. */
async function pageRelease(page: Page) {
  return page.evaluate(() => {
    const css = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href$="/wells.css"]');
    return css ? new URL(css.href).pathname.split('/')[2] : null;
  });
}

/** Each cache of this site, with the paths (and queries) it holds. */
async function cached(page: Page) {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => {
        const url = new URL(r.url);
        return url.pathname + url.search;
      }).sort();
    }
    return out;
  });
}

/** The text of a page the worker saved. */
async function savedPage(page: Page, cache: string, path: string) {
  return page.evaluate(
    async ([cache, path]) => (await (await caches.open(cache)).match(path))?.text() ?? '',
    [cache, path],
  );
}

async function workerReady(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
}

test.describe('one release on the phone', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'officer', undefined, '/field/new');
    await formReady(page);
    await workerReady(page);
  });

  test('the worker keeps this release\'s files and pages, drops an older release, and opens the form with no signal', async ({ page, context }) => {
    const release = await pageRelease(page);
    expect(release).toMatch(/^[0-9a-f]{12}$/);
    const worker = await (await page.request.get('/sw.js')).text();
    expect(worker).toContain(`const RELEASE = '${release}';`);
    // The page's script and WASM are this release's too.
    const html = await (await page.request.get('/field/new')).text();
    expect(html).toContain(`/pkg/${release}/wells.js`);
    expect(html).toContain(`/pkg/${release}/wells.wasm`);

    const files = `wells-files-${release}`;
    const pages = `wells-pages-${release}`;
    await expect.poll(async () => (await cached(page))[files] ?? []).toEqual(
      expect.arrayContaining([`/pkg/${release}/wells.css`, `/pkg/${release}/wells.js`, `/pkg/${release}/wells.wasm`]),
    );
    // The officer's pages of this release, saved as the officer sees them once
    // the worker has seen a signed-in officer's page (its install on the sign-in
    // page found only "Sign in to continue", which it does not keep).
    await expect.poll(async () => (await cached(page))[pages]).toEqual(['/', '/field/gathering', '/field/new', '/field/reports']);
    expect(await savedPage(page, pages, '/field/reports')).toContain('Sign out');

    // An older release's caches, as a phone updated from it still holds them.
    await page.evaluate(async () => {
      await (await caches.open('wells-files-000000000000')).put('/pkg/000000000000/wells.wasm', new Response('old'));
      await (await caches.open('wells-pages-000000000000')).put('/field/new', new Response('old page'));
    });
    expect(Object.keys(await cached(page))).toContain('wells-files-000000000000');
    // A worker installing (as a new release's does) keeps only its own release.
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    });
    await page.reload();
    await formReady(page);
    await workerReady(page);
    await expect.poll(async () => Object.keys(await cached(page)).sort()).toEqual([files, pages]);
    // Installed while signed in, it keeps the officer's pages of its release.
    await expect.poll(async () => (await cached(page))[pages]).toEqual(['/', '/field/gathering', '/field/new', '/field/reports']);
    expect(await savedPage(page, pages, '/field/reports')).toContain('Sign out');

    // No signal: the saved page and this release's files open the form…
    await context.setOffline(true);
    await page.goto('/field/new');
    await formReady(page);
    expect(await pageRelease(page)).toBe(release);
    await expectAccessible(page);
    // …which records a report, kept until the signal returns and then sent.
    const input = new Inputs(page);
    const location = unique('Offline Release Road');
    await recordNoiseWarning(page, input, location, { name: 'Kit Offline', dob: '1990-01-01', address: '1 Main St, Wells, ME' });
    await submit(page, input);
    await expect(page.getByTestId('queued')).toContainText('No signal');
    await context.setOffline(false);
    await expect(page.getByTestId('receipt')).toBeVisible({ timeout: 30_000 });
  });

  test('a page of an older release that asks for a file the server no longer holds is reloaded as this release', async ({ page }) => {
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    // As a page opened before a deploy does when it first opens an on-demand page.
    const reloaded = page.waitForEvent('load');
    await page.evaluate(() => {
      (window as unknown as { beforeDeploy: boolean }).beforeDeploy = true;
      void fetch('/pkg/000000000000/split___desk_queue_route_view_0.wasm').catch(() => undefined);
    });
    await reloaded;
    expect(await page.evaluate(() => (window as unknown as { beforeDeploy?: boolean }).beforeDeploy ?? false)).toBe(false);
    await formReady(page);
    await expect(page).toHaveURL(/\/field\/new$/);
  });

  test('a network slower than three seconds gives way to the saved page', async ({ page, context }) => {
    const release = await pageRelease(page);
    await expect.poll(async () => savedPage(page, `wells-pages-${release}`, '/field/new')).toContain('Sign out');
    // Every answer for the form now takes 8 s (the worker's own fetches included).
    let held = 0;
    await context.route('**/field/new', async (route) => {
      held += 1;
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      await route.continue().catch(() => undefined);
    });
    const started = Date.now();
    await page.goto('/field/new', { timeout: 7_000 });
    const took = Date.now() - started;
    await formReady(page);
    expect(held, 'the slow answer was asked for').toBeGreaterThan(0);
    expect(took, 'the saved page answered after the 3 s wait, not the 8 s network').toBeLessThan(6_000);
    expect(took).toBeGreaterThanOrEqual(2_900);
    await context.unrouteAll({ behavior: 'ignoreErrors' });
  });
});

test.describe('installing the app', () => {
  test('the manifest names the app, its shortcuts and separate any and maskable icons', async ({ page }) => {
    const manifest = await (await page.request.get('/manifest.webmanifest')).json();
    expect(manifest.id).toBe('/');
    expect(manifest.lang).toBe('en-US');
    expect(manifest.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
      ['New incident', '/field/new'],
      ['My reports', '/field/reports'],
    ]);
    const purposes = manifest.icons.map((i: { purpose: string }) => i.purpose);
    expect(purposes).toContain('maskable');
    expect(purposes.every((p: string) => p === 'any' || p === 'maskable'), 'no icon is both').toBe(true);
    for (const icon of manifest.icons) {
      const answer = await page.request.get(icon.src);
      expect(answer.status(), icon.src).toBe(200);
      expect(answer.headers()['content-type']).toBe(icon.type);
    }
  });

  test('an officer is offered "Install app" where the browser can install it', async ({ page }) => {
    await signIn(page, 'officer');
    await expect(page.getByTestId('install')).toHaveCount(0);
    // What Chromium does once the site is installable: the browser's own offer.
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: () => {
          (window as unknown as { prompted: boolean }).prompted = true;
        },
      });
      dispatchEvent(offer);
    });
    await page.getByTestId('install').click();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
    // The browser offers its prompt once.
    await expect(page.getByTestId('install')).toHaveCount(0);
    await expectAccessible(page);
  });

  test('on an iPhone, whose browser has no install prompt, one line says how', async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    });
    const page = await context.newPage();
    await signIn(page, 'officer');
    await expect(page.getByTestId('install-hint')).toHaveText('To install: tap Share, then “Add to Home Screen”.');
    await expect(page.getByTestId('install')).toHaveCount(0);
    await context.close();
  });
});
