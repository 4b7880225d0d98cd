//! Civil (proleptic Gregorian) dates as day numbers, without a date library, so
//! the browser and the server count days the same way. Day 0 is 1970-01-01.

use crate::ordinance::Moment;

/// The months' names, January first.
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A `YYYY-MM-DD` date that exists; returns (year, month, day).
pub fn parse_date(text: &str) -> Option<(i32, u32, u32)> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i32 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    (text.trim().len() == 10 && (1..=days_in_month(y, m)?).contains(&d)).then_some((y, m, d))
}

fn days_in_month(y: i32, m: u32) -> Option<u32> {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    Some(match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    })
}

/// Days since 1970-01-01 of a civil date.
pub fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = i64::from(if m <= 2 { y - 1 } else { y });
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number: (year, month, day).
pub fn civil_from_days(z: i64) -> (i32, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        (yoe + era * 400 + i64::from(m <= 2)) as i32,
        m as u32,
        d as u32,
    )
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` text.
pub fn day_number(date: &str) -> Option<i64> {
    let (y, m, d) = parse_date(date)?;
    Some(days_from_civil(y, m, d))
}

/// `YYYY-MM-DD` of a day number.
pub fn date_text(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Whole years from `born` to the day number `day` (negative when born after
/// it): a person's age on that day, a birthday counting on the day itself (29
/// February birthdays count on 1 March in other years).
pub fn years_on(born: (i32, u32, u32), day: i64) -> i64 {
    let (y, m, d) = civil_from_days(day);
    let years = i64::from(y) - i64::from(born.0);
    if (m, d) < (born.1, born.2) {
        years - 1
    } else {
        years
    }
}

/// The days' names by [`weekday`] (0 = Monday).
pub const WEEKDAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// 0 = Monday … 6 = Sunday.
pub fn weekday(day: i64) -> u32 {
    // 1970-01-01 was a Thursday (3).
    (day + 3).rem_euclid(7) as u32
}

/// `YYYY-MM-DDTHH:MM` read as UTC: the conversion tests use (the phone uses its
/// own zone through the browser).
pub fn parse_utc_local(text: &str) -> Option<Moment> {
    let (date, time) = text.trim().split_once('T')?;
    let (y, m, d) = parse_date(date)?;
    let (h, min) = time.split_once(':')?;
    let (h, min): (i64, i64) = (h.parse().ok()?, min.get(..2)?.parse().ok()?);
    if !(0..24).contains(&h) || !(0..60).contains(&min) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    Some(Moment((days * 86_400 + h * 3600 + min * 60) * 1000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers_round_trip_across_centuries_and_leap_days() {
        for day in [-300_000, -1, 0, 1, 11_016, 19_782, 20_638, 2_932_896] {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day, "{y}-{m}-{d}");
            assert_eq!(day_number(&date_text(day)), Some(day));
        }
        assert_eq!(day_number("2024-02-29"), Some(19_782));
        assert_eq!(day_number("2023-02-29"), None);
        assert_eq!(date_text(0), "1970-01-01");
    }

    #[test]
    fn an_age_turns_on_the_birthday() {
        let day = |t: &str| day_number(t).unwrap_or_default();
        assert_eq!(years_on((2008, 7, 4), day("2026-07-03")), 17);
        assert_eq!(years_on((2008, 7, 4), day("2026-07-04")), 18);
        assert_eq!(years_on((2008, 2, 29), day("2026-02-28")), 17);
        assert_eq!(years_on((2008, 2, 29), day("2026-03-01")), 18);
        assert_eq!(years_on((2026, 7, 5), day("2026-07-04")), -1);
    }

    #[test]
    fn weekdays_count_from_monday() {
        assert_eq!(weekday(0), 3, "1970-01-01 was a Thursday");
        assert_eq!(
            weekday(day_number("2026-12-25").unwrap_or_default()),
            4,
            "a Friday"
        );
        assert_eq!(
            weekday(day_number("2026-07-04").unwrap_or_default()),
            5,
            "a Saturday"
        );
    }
}
