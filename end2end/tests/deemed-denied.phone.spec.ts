import { expect, test } from '@playwright/test';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectAccessible, PASSWORD, waitForHydration } from './helpers';
import { openDayClockOffset, townDate, townOpenOnOrBefore } from './town-days';

// §52-9 B(3): an application the Selectmen do not decide within seven days of
// considering it is deemed denied. The suite's server keeps the real time, so
// this story runs its own server on its own database, twice: on the Town's most
// recent open day, and then ten days on (`--test-clock-offset-days`, an option of debug builds only).

const bin = process.env.WELLS_SERVER_BIN!;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

async function serve(db: string, offsetDays: number): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child = spawn(bin, ['serve'], {
    env: {
      ...process.env,
      WELLS_DATABASE: db,
      WELLS_LISTEN: `127.0.0.1:${port}`,
      WELLS_PUBLIC_ORIGIN: url,
      WELLS_TEST_CLOCK_OFFSET_DAYS: String(offsetDays),
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the second server did not start');
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

test('an application nobody decides turns "deemed denied" seven days after its consideration', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'wells-deemed-'));
  const db = path.join(dir, 'wells.db');
  const env = { ...process.env, WELLS_DATABASE: db };
  try {
    execFileSync(bin, ['user', 'add', 'nora', '--role', 'town_clerk', '--name', 'Town Clerk Nora Bates'], {
      input: PASSWORD + '\n', env, stdio: ['pipe', 'ignore', 'inherit'],
    });
    execFileSync(bin, ['sign-in-policy', '--second-factor', 'optional'], { env, stdio: ['ignore', 'ignore', 'inherit'] });

    // The Town's most recent open day (today, or before it on a weekend or a
    // holiday, when no meeting can be set for today: town-days.ts): the
    // application is filed, its fee and security recorded, and the Selectmen's
    // meeting set for that day.
    const offset = openDayClockOffset();
    const meeting = townOpenOnOrBefore(townDate());
    const today = await serve(db, offset);
    const api = await playwright.request.newContext({ baseURL: today.url, extraHTTPHeaders: { Origin: today.url } });
    const first = townDate(30);
    const filed = await api.post('/api/permits/apply', { data: { application: {
      operator: 'Harbor Fest LLC', operator_address: '1 Post Road, Wells ME 04090', operator_phone: '207-555-0100',
      operator_email: '', sponsor: '', landowner: 'Town of Wells', lessee: '', place: 'Wells Harbor Park',
      map_point: '', purpose: 'Summer music festival', first_day: first, last_day: first, starts: '10:00', ends: '18:00',
      attendance: 2400, vehicles: 600, buses: 0, water_under_pressure: false,
      provided: {
        parking_spaces: 600, parking_acre_hundredths: 600, road_lanes: 2, road_parking_lanes: 0, road_width_feet: 24,
        site_square_feet: 30000, overnight: false, lighting: true, traffic_control: true, potable_water: true,
        water_gallons_per_day: 7200, water_psi: null, toilets_men: 7, toilets_women: 7,
        refuse: { fifty_gallon: 24, sixteen_cubic_yard: 0 }, parking_refuse: { fifty_gallon: 24, sixteen_cubic_yard: 0 },
        collections: 2, clear_within_hours: 24, fire_department_informed: true, officers: 15,
        physician_supervision: true, first_aid_station: true, ambulances_on_site: true, phone_and_radio: true,
        hospitals_told: true, sound_precautions: true, insurance_per_person_cents: 30000000,
        insurance_per_occurrence_cents: 50000000, insurance_property_cents: 10000000, bond_cents: 0, deposit_cents: 0,
      },
      refuse_plan: 'Two collections', lighting_plan: 'Ends before dark', medical_plan: 'Dr. Ames supervises',
    } } });
    expect(filed.ok(), await filed.text()).toBeTruthy();
    const { application_id: id, token } = await filed.json();
    const signedIn = await api.post('/api/session/sign-in', { data: { username: 'nora', password: PASSWORD } });
    expect(signedIn.ok(), await signedIn.text()).toBeTruthy();
    for (const action of [
      { entry: 'fee', receipt: 'R-2026-301' },
      { entry: 'security', estimated_costs_cents: 1_000_000, bond_cents: 500_000, deposit_cents: 1_200_000 },
      { entry: 'schedule', day: meeting },
    ]) {
      const r = await api.post('/api/permits/clerk', { data: { application_id: id, action } });
      expect(r.ok(), await r.text()).toBeTruthy();
    }
    await page.goto(`${today.url}/permits/status?token=${token}`);
    await expect(page.getByTestId('permit-state')).toHaveText('Before the Selectmen');
    await api.dispose();
    await stop(today.child);

    // Ten days on, with no decision: deemed denied, with the appeal.
    const later = await serve(db, offset + 10);
    await page.goto(`${later.url}/permits/status?token=${token}`);
    await waitForHydration(page);
    await expect(page.getByTestId('permit-state')).toHaveText('Deemed denied (§52-9 B(3))');
    const decision = page.getByTestId('decision');
    await expect(decision).toContainText(`considering the application on ${meeting}`);
    await expect(decision).toContainText('Rule 80B');
    await expectAccessible(page);
    await stop(later.child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
