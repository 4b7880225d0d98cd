import { expect, test } from '@playwright/test';
import { maineHolidays, openDayOffset, townClosed, townOpenOnOrBefore } from './town-days';

// town-days.ts copies the Town's calendar from app/domain/src/model/court_calendar.rs:
// the same cases as its tests, and the days a run of the suite must survive.

test('Maine legal holidays of 2026 fall where the Rust calendar puts them', () => {
  expect(maineHolidays(2026)).toEqual([
    '2026-01-01', '2026-01-19', '2026-02-16', '2026-04-20', '2026-05-25', '2026-06-19',
    '2026-07-03', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25',
  ]);
});

test("a run on a weekend or a holiday meets on the Town's last open day before it", () => {
  expect(townOpenOnOrBefore('2026-12-07')).toBe('2026-12-07'); // a Monday
  expect(townOpenOnOrBefore('2026-12-12')).toBe('2026-12-11'); // a Saturday
  expect(townOpenOnOrBefore('2026-12-13')).toBe('2026-12-11'); // a Sunday
  expect(townOpenOnOrBefore('2026-12-25')).toBe('2026-12-24'); // Christmas, a Friday
  expect(townOpenOnOrBefore('2027-01-01')).toBe('2026-12-31'); // New Year's Day, a Friday
  expect(townOpenOnOrBefore('2026-11-26')).toBe('2026-11-25'); // Thanksgiving
  // Independence Day 2026 is a Saturday, kept on Friday the 3rd.
  expect(townOpenOnOrBefore('2026-07-05')).toBe('2026-07-02');
  expect(openDayOffset('2026-12-13')).toBe(-2);
  expect(openDayOffset('2026-12-07')).toBe(0);
});

test('a January 1 on a Saturday is kept the Friday before, in the year before', () => {
  // 2028-01-01 is a Saturday.
  expect(townClosed('2027-12-31')).toBe(true);
  expect(townOpenOnOrBefore('2028-01-02')).toBe('2027-12-30');
});
