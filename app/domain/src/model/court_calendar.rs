//! The days the District Court sits: not weekends, not Maine's legal holidays
//! (4 M.R.S. §1051) — or, once an administrator has saved a list, not the days
//! on it. The answer date printed on a citation is moved to the next court day
//! (issue #16: a 21-day answer date landed on Christmas Day), and a hearing on
//! a day the court does not sit is refused with the day named (issue #37).
//! The Town's offices keep weekends and Maine's legal holidays: no Board of
//! Selectmen's meeting is scheduled or recorded on one, and the permit
//! calculator's filing date is the last day the Town Clerk's office is open.

use crate::model::civil::{
    date_text, day_number, days_from_civil, weekday, WEEKDAY_NAMES as WEEKDAYS,
};

/// Maine's legal holidays in `year`, as observed (one on a Sunday is kept the
/// Monday after, one on a Saturday the Friday before): (date, name).
pub fn maine_holidays(year: i32) -> Vec<(String, &'static str)> {
    let fixed = |m: u32, d: u32| days_from_civil(year, m, d);
    // The n-th `wd` (0 = Monday) of a month; n = 5 means the last.
    let nth = |m: u32, wd: u32, n: i64| {
        let first = days_from_civil(year, m, 1);
        let first_wd = (i64::from(wd) - i64::from(weekday(first))).rem_euclid(7) + first;
        if n == 5 {
            let next_month = if m == 12 {
                days_from_civil(year + 1, 1, 1)
            } else {
                days_from_civil(year, m + 1, 1)
            };
            let mut day = first_wd;
            while day + 7 < next_month {
                day += 7;
            }
            day
        } else {
            first_wd + 7 * (n - 1)
        }
    };
    let observed = |day: i64| match weekday(day) {
        5 => day - 1,
        6 => day + 1,
        _ => day,
    };
    [
        (observed(fixed(1, 1)), "New Year's Day"),
        (nth(1, 0, 3), "Martin Luther King Jr. Day"),
        (nth(2, 0, 3), "Washington's Birthday"),
        (nth(4, 0, 3), "Patriots' Day"),
        (nth(5, 0, 5), "Memorial Day"),
        (observed(fixed(6, 19)), "Juneteenth"),
        (observed(fixed(7, 4)), "Independence Day"),
        (nth(9, 0, 1), "Labor Day"),
        (nth(10, 0, 2), "Indigenous Peoples' Day"),
        (observed(fixed(11, 11)), "Veterans Day"),
        (nth(11, 3, 4), "Thanksgiving Day"),
        (observed(fixed(12, 25)), "Christmas Day"),
    ]
    .into_iter()
    .map(|(day, name)| (date_text(day), name))
    .collect()
}

/// Whether the court is closed on `day`: a weekend, or a day of `closed` (the
/// administrator's list), or — with no list saved — a Maine legal holiday.
pub fn is_closed(day: i64, closed: Option<&[String]>) -> bool {
    if weekday(day) >= 5 {
        return true;
    }
    let date = date_text(day);
    match closed {
        Some(list) => list.iter().any(|c| c.trim() == date),
        None => {
            let (year, _, _) = crate::model::civil::civil_from_days(day);
            // A January 1 on a Saturday is observed the December 31 before.
            [year, year + 1]
                .into_iter()
                .flat_map(maine_holidays)
                .any(|(d, _)| d == date)
        }
    }
}

/// The Maine legal holiday observed on `day`, if one is (the year before's
/// too: a January 1 on a Saturday is kept the December 31 before).
fn holiday(day: i64) -> Option<&'static str> {
    let date = date_text(day);
    let (year, _, _) = crate::model::civil::civil_from_days(day);
    [year, year + 1]
        .into_iter()
        .flat_map(maine_holidays)
        .find(|(d, _)| *d == date)
        .map(|(_, name)| name)
}

/// `2026-12-26 is a Saturday`, `2026-12-25 is Christmas Day`: why `day` is
/// closed, said with the day named.
fn said(day: i64, why: &str) -> String {
    format!("{} is {why}", date_text(day))
}

/// Why the District Court does not sit on `day`, with the day named; `None`
/// on a court day. `closed` as [`is_closed`] reads it.
pub fn court_closed(day: i64, closed: Option<&[String]>) -> Option<String> {
    if !is_closed(day, closed) {
        return None;
    }
    let weekday = weekday(day);
    Some(if weekday >= 5 {
        said(day, &format!("a {}", WEEKDAYS[weekday as usize]))
    } else if closed.is_some() {
        said(day, "a day the court is closed (Court settings)")
    } else {
        said(day, holiday(day).unwrap_or("a legal holiday"))
    })
}

/// Why the Town's offices — the Town Clerk's, and the Board of Selectmen's
/// meetings — are closed on `day`, with the day named: a weekend or a Maine
/// legal holiday as observed (issue #37; the department's reading: the Town
/// keeps the State's legal holidays). `None` on a day they are open.
pub fn town_closed(day: i64) -> Option<String> {
    let weekday = weekday(day);
    if weekday >= 5 {
        return Some(said(day, &format!("a {}", WEEKDAYS[weekday as usize])));
    }
    holiday(day).map(|name| said(day, name))
}

/// The last day on or before `day` that the Town's offices are open.
pub fn town_open_on_or_before(day: i64) -> i64 {
    let mut open = day;
    // Weekends and holidays never run a month together.
    for _ in 0..31 {
        if town_closed(open).is_none() {
            break;
        }
        open -= 1;
    }
    open
}

/// The first court day on or after `date` (`YYYY-MM-DD`); a date that does not
/// parse comes back as it is.
pub fn court_day_on_or_after(date: &str, closed: Option<&[String]>) -> String {
    let Some(mut day) = day_number(date) else {
        return date.to_owned();
    };
    // Weekends and holidays never run a month together.
    for _ in 0..31 {
        if !is_closed(day, closed) {
            break;
        }
        day += 1;
    }
    date_text(day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maine_holidays_of_2026_fall_where_the_calendar_puts_them() {
        let days: Vec<String> = maine_holidays(2026).into_iter().map(|(d, _)| d).collect();
        assert_eq!(
            days,
            [
                "2026-01-01",
                "2026-01-19",
                "2026-02-16",
                "2026-04-20",
                "2026-05-25",
                "2026-06-19",
                "2026-07-03",
                "2026-09-07",
                "2026-10-12",
                "2026-11-11",
                "2026-11-26",
                "2026-12-25",
            ]
        );
    }

    #[test]
    fn an_answer_date_on_christmas_moves_to_the_next_court_day() {
        // 2026-12-25 is a Friday: the next court day is Monday 28.
        assert_eq!(court_day_on_or_after("2026-12-25", None), "2026-12-28");
        assert_eq!(court_day_on_or_after("2026-12-26", None), "2026-12-28");
        assert_eq!(court_day_on_or_after("2026-12-23", None), "2026-12-23");
        // Independence Day 2026 is a Saturday, kept on Friday the 3rd.
        assert_eq!(court_day_on_or_after("2026-07-03", None), "2026-07-06");
    }

    #[test]
    fn closed_days_are_named() {
        let day = |d: &str| day_number(d).expect("a date");
        assert_eq!(
            court_closed(day("2026-12-25"), None).as_deref(),
            Some("2026-12-25 is Christmas Day")
        );
        assert_eq!(
            court_closed(day("2026-12-26"), None).as_deref(),
            Some("2026-12-26 is a Saturday")
        );
        assert_eq!(court_closed(day("2026-12-28"), None), None);
        assert_eq!(
            town_closed(day("2026-12-26")).as_deref(),
            Some("2026-12-26 is a Saturday")
        );
        assert_eq!(
            town_closed(day("2026-11-26")).as_deref(),
            Some("2026-11-26 is Thanksgiving Day")
        );
        assert_eq!(town_closed(day("2026-12-29")), None);
        // Sunday 2027-01-03 → Friday 2027-01-01 is New Year's Day → Thursday.
        assert_eq!(
            date_text(town_open_on_or_before(day("2027-01-03"))),
            "2026-12-31"
        );
    }

    #[test]
    fn a_saved_list_replaces_the_statutory_holidays() {
        let list = vec!["2026-12-24".to_owned()];
        assert_eq!(
            court_day_on_or_after("2026-12-24", Some(&list)),
            "2026-12-25"
        );
        assert_eq!(court_day_on_or_after("2026-12-25", Some(&[])), "2026-12-25");
    }
}
