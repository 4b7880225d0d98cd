// The Town's open days, for the specs whose story needs a Board of Selectmen's
// meeting "today". Since issue #37 the Town Clerk schedules a meeting only on a
// day the Town's offices are open and not before today, and the Board's decision
// is dated at that meeting and not after today: on a weekend or a Maine legal
// holiday no meeting can be both. So those specs talk to a second server, on a
// database of its own, whose clock is moved back to the Town's most recent open
// day (`WELLS_TEST_CLOCK_OFFSET_DAYS`, a debug-build option; started by
// global-setup.ts). On an open day the offset is 0.
//
// The calendar below duplicates `maine_holidays`, `town_closed` and
// `town_open_on_or_before` in app/domain/src/model/court_calendar.rs (the server
// exposes no calendar); keep the two alike. town-days.spec.ts tests it.

const DAY_MS = 86_400_000;

/** The day number (days since 1970-01-01) of `YYYY-MM-DD`. */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

/** `YYYY-MM-DD` of a day number. */
export function dateText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday, as the Rust `civil::weekday`. */
function weekday(day: number): number {
  return (new Date(day * DAY_MS).getUTCDay() + 6) % 7;
}

/** Maine's legal holidays in `year`, as observed (Sunday → Monday after, Saturday → Friday before). */
export function maineHolidays(year: number): string[] {
  const fixed = (m: number, d: number) => Date.UTC(year, m - 1, d) / DAY_MS;
  // The n-th `wd` (0 = Monday) of a month; n = 5 means the last.
  const nth = (m: number, wd: number, n: number) => {
    const first = fixed(m, 1);
    const firstWd = first + (((wd - weekday(first)) % 7) + 7) % 7;
    if (n < 5) return firstWd + 7 * (n - 1);
    const nextMonth = Date.UTC(year, m, 1) / DAY_MS;
    let day = firstWd;
    while (day + 7 < nextMonth) day += 7;
    return day;
  };
  const observed = (day: number) => (weekday(day) === 5 ? day - 1 : weekday(day) === 6 ? day + 1 : day);
  return [
    observed(fixed(1, 1)), // New Year's Day
    nth(1, 0, 3), // Martin Luther King Jr. Day
    nth(2, 0, 3), // Washington's Birthday
    nth(4, 0, 3), // Patriots' Day
    nth(5, 0, 5), // Memorial Day
    observed(fixed(6, 19)), // Juneteenth
    observed(fixed(7, 4)), // Independence Day
    nth(9, 0, 1), // Labor Day
    nth(10, 0, 2), // Indigenous Peoples' Day
    observed(fixed(11, 11)), // Veterans Day
    nth(11, 3, 4), // Thanksgiving Day
    observed(fixed(12, 25)), // Christmas Day
  ].map(dateText);
}

/** Whether the Town's offices are closed on `date`: a weekend or a Maine legal holiday as observed. */
export function townClosed(date: string): boolean {
  const day = dayNumber(date);
  if (weekday(day) >= 5) return true;
  const year = Number(date.slice(0, 4));
  // A January 1 on a Saturday is observed the December 31 before.
  return [...maineHolidays(year), ...maineHolidays(year + 1)].includes(date);
}

/** The last day on or before `date` that the Town's offices are open. */
export function townOpenOnOrBefore(date: string): string {
  let day = dayNumber(date);
  while (townClosed(dateText(day))) day -= 1;
  return dateText(day);
}

/**
 * Days the suite's server clock is moved (`WELLS_TEST_CLOCK_OFFSET_DAYS`, which
 * run-suite.sh's server inherits): set, it runs the suite as on another day, as
 * a Saturday or Christmas, and the specs count days from that day too.
 */
export const SUITE_OFFSET_DAYS = Number(process.env.WELLS_TEST_CLOCK_OFFSET_DAYS ?? 0);

/** The Town's date (America/New_York, as the server counts days) `days` from the suite's today. */
export function townDate(days = 0): string {
  return new Date(Date.now() + (SUITE_OFFSET_DAYS + days) * DAY_MS).toLocaleDateString('en-CA', {
    timeZone: 'America/New_York',
  });
}

/** Days from `today` back to the Town's most recent open day (0 or less). */
export function openDayOffset(today = townDate()): number {
  return dayNumber(townOpenOnOrBefore(today)) - dayNumber(today);
}

/** `WELLS_TEST_CLOCK_OFFSET_DAYS` for a server whose today is the Town's most recent open day. */
export function openDayClockOffset(): number {
  return SUITE_OFFSET_DAYS + openDayOffset();
}

/**
 * The server global-setup.ts started for the Board's meetings: its URL, and its
 * "today", the Town's most recent open day.
 */
export function openDayServer(): { url: string; day: string } {
  const url = process.env.WELLS_OPEN_DAY_URL;
  const day = process.env.WELLS_OPEN_DAY;
  if (!url || !day) throw new Error('WELLS_OPEN_DAY_URL is not set: run the suite through end2end/run-suite.sh');
  return { url, day };
}
