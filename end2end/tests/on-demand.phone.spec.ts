import { test, expect, Page } from '@playwright/test';
import { expectAccessible, openMenu, signIn, waitForHydration } from './helpers';
import { formReady } from './field-helpers';

// The officer's pages are the main WASM; the desk's, the court's, the
// administrator's and the account pages are split out and fetched the first time
// one opens (issue #15, app/src/on_demand.rs). `make build` splits, so this suite
// runs against the split build.

/** Every console error and uncaught exception of the page, as it happens. */
function errorsOf(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** The app files (`/pkg/<release>/<file>`) the page asks for, by file name. */
function appFilesOf(page: Page) {
  const files: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/pkg/')) files.push(path.split('/').pop()!);
  });
  return files;
}

/** The page's release and its split manifest: on-demand page → the files it needs. */
async function manifestOf(page: Page): Promise<{ release: string; splits: Record<string, string[]> }> {
  const release = await page.evaluate(
    () => new URL(document.querySelector<HTMLLinkElement>('link[href$="/wells.css"]')!.href).pathname.split('/')[2],
  );
  const response = await page.request.get(`/pkg/${release}/__wasm_split_manifest.json`);
  expect(response.ok(), 'a split build has a manifest').toBeTruthy();
  return { release, splits: await response.json() };
}

/** The files the on-demand page of `route` (e.g. `desk_queue`) needs. */
function filesOf(splits: Record<string, string[]>, route: string) {
  const key = Object.keys(splits).find((k) => k.startsWith(`__${route}_route_view_`));
  expect(key, `the manifest names ${route}`).toBeTruthy();
  return splits[key!].map((f) => `${f}.wasm`);
}

const ON_DEMAND: { user: string; path: string; link: string; heading: string; route: string }[] = [
  { user: 'chief', path: '/review', link: 'Review queue', heading: 'Review queue', route: 'desk_queue' },
  { user: 'chief', path: '/register', link: 'Register', heading: 'Incident register', route: 'desk_register' },
  { user: 'chief', path: '/dashboard', link: 'Dashboard', heading: 'Dashboard', route: 'desk_dashboard' },
  { user: 'clerk', path: '/court', link: 'Filing queue', heading: 'Filing queue', route: 'court_queue' },
  { user: 'clerk', path: '/court/register', link: "Clerk's register", heading: "Clerk's register", route: 'court_register' },
  { user: 'admin', path: '/admin/users', link: 'Users', heading: 'Users', route: 'admin_users' },
  { user: 'admin', path: '/admin/audit', link: 'Audit log', heading: 'Audit log', route: 'admin_audit' },
  { user: 'admin', path: '/admin/settings', link: 'Court settings', heading: 'Court settings', route: 'admin_settings' },
  { user: 'officer', path: '/account/password', link: 'Password', heading: 'Change password', route: 'account_password' },
];

for (const { user, path, link, heading, route } of ON_DEMAND) {
  test(`${path} loads on demand by a link and by a full load, with no console error`, async ({ page }) => {
    const errors = errorsOf(page);
    await signIn(page, user, undefined, '/');
    const { splits } = await manifestOf(page);
    const needed = filesOf(splits, route);

    // By a link from the start page: the page's own files are fetched then.
    const files = appFilesOf(page);
    await openMenu(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${heading} · Wells PD loitering log`);
    expect(files).toEqual(expect.arrayContaining(needed));

    // By a full load: the server renders it, the app takes it over once its code is in.
    await page.goto(path);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${heading} · Wells PD loitering log`);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });
}

test('the field form loads no on-demand page; the review queue after it fetches only its own', async ({ page }) => {
  const errors = errorsOf(page);
  await signIn(page, 'sergeant', undefined, '/');
  const files = appFilesOf(page);
  await page.goto('/field/new');
  await formReady(page);
  const { splits } = await manifestOf(page);
  const onDemand = (f: string) => f.startsWith('split_') || f.startsWith('chunk_');
  expect(files.filter(onDemand), 'the field form is all in the main WASM').toEqual([]);
  expect(files).toEqual(expect.arrayContaining(['wells.js', 'wells.wasm']));

  files.length = 0;
  await openMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review queue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
  expect([...new Set(files)].sort(), 'the review queue fetches its own files and nothing else').toEqual(
    filesOf(splits, 'desk_queue').sort(),
  );
  expect(errors).toEqual([]);
});
