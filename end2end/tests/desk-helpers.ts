import { expect, Browser, BrowserContext, Page } from '@playwright/test';
import { PASSWORD } from './helpers';

// Reports made through the API for the desk and court specs: the officer's
// screens have their own specs, these need records to work on.

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
export const OFFICER = 'officer2';

/** A signed-in API session (the officer by default), in its own browser context. */
export async function officerContext(browser: Browser, page: Page, username = OFFICER, base = BASE): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: base, viewport: page.viewportSize() });
  const signedIn = await context.request.post('/api/session/sign-in', {
    data: { username, password: PASSWORD },
    headers: { Origin: base },
  });
  expect(signedIn.ok(), await signedIn.text()).toBeTruthy();
  return context;
}

function uuid(): string {
  return crypto.randomUUID();
}

/** A §52-1(A)(1) refusal with one identified person, cited. */
export function refusal(location: string, name: string) {
  const now = Date.now();
  return {
    report: {
      incident_id: uuid(),
      occurred_at: now - 1_800_000,
      location: { text: location, place: 'sidewalk', gps: null },
      orders: [{ words: 'Stop blocking the way and move on.', given_at: now - 1_200_000, move_on: true, minutes_to_comply: 2 }],
      narrative: 'Stood across the sidewalk; pedestrians stepped into the road to pass.',
      subjects: [{
        subject_id: uuid(),
        identity: {
          kind: 'identified', full_name: name, date_of_birth: '1990-02-03',
          address: '12 Main Street, Wells, ME', id_type: 'driver_license', id_number: '1234567',
        },
        perceived: { age_range: '35_49', sex: 'unknown', race: 'unknown' },
        // This person's own facts (each person answers for their own conduct).
        protected_activity: 'none',
        conduct: {
          remained_in_one_location: true,
          passage: { pedestrians: true, vehicles: false, place: 'sidewalk' },
        },
        order: 0,
        response: { kind: 'refused', at: now - 900_000, manner: 'stayed_in_place' },
        arrested: false,
        charges: [{ offence: '52-1(A)(1)', issue_citation: true }],
      }],
    },
  };
}

export async function submit(officer: BrowserContext, location: string, name: string): Promise<string> {
  return (await submitReport(officer, location, name)).number;
}

/** Submits a cited refusal; its incident id and citation number. */
export async function submitReport(officer: BrowserContext, location: string, name: string) {
  const answer = await officer.request.post('/api/incidents/submit', {
    data: refusal(location, name),
    headers: { Origin: BASE },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  const receipt = await answer.json();
  expect(receipt.citations).toHaveLength(1);
  return { incidentId: receipt.incident_id as string, number: receipt.citations[0].number as string };
}

/** The chief approves a report through the API. */
export async function approve(chief: BrowserContext, incidentId: string) {
  const answer = await chief.request.post('/api/review/decide', {
    data: { incident_id: incidentId, revision: 1, action: { action: 'approve' } },
    headers: { Origin: BASE },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

/** RFC 4180 CSV to rows of cells (quoted cells, doubled quotes, CRLF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; }
    else if (ch === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; }
    else cell += ch;
  }
  if (cell !== '' || row.length > 0) { row.push(cell); rows.push(row); }
  return rows;
}
