//! Times as the Town reads them (ssr only): stored in UTC, shown and printed in the
//! Town's zone (America/New_York unless configured), daylight saving included.

use jiff::tz::TimeZone;
use jiff::Timestamp;

use crate::ordinance::Moment;

#[derive(Debug, Clone)]
pub struct TownZone {
    name: String,
    zone: TimeZone,
}

impl TownZone {
    /// The zone named `name` (IANA, e.g. `America/New_York`).
    pub fn named(name: &str) -> Result<TownZone, String> {
        TimeZone::get(name)
            .map(|zone| TownZone {
                name: name.to_owned(),
                zone,
            })
            .map_err(|e| format!("unknown time zone {name}: {e}"))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn zoned(&self, moment: Moment) -> Option<jiff::Zoned> {
        Timestamp::from_millisecond(moment.0)
            .ok()
            .map(|t| t.to_zoned(self.zone.clone()))
    }

    /// `2026-07-04 01:30 EDT`: date, 24-hour time and the zone's abbreviation, so a
    /// reader can tell the two 1:30s of the November change apart.
    pub fn date_time(&self, moment: Moment) -> String {
        self.zoned(moment)
            .map(|z| z.strftime("%Y-%m-%d %H:%M %Z").to_string())
            .unwrap_or_else(|| "invalid time".to_owned())
    }

    /// `2026-07-04`
    pub fn date(&self, moment: Moment) -> String {
        self.zoned(moment)
            .map(|z| z.strftime("%Y-%m-%d").to_string())
            .unwrap_or_else(|| "invalid date".to_owned())
    }

    /// The Town's calendar date `days` after the date of `moment`, as `YYYY-MM-DD`.
    pub fn date_after(&self, moment: Moment, days: u32) -> String {
        self.zoned(moment)
            .and_then(|z| {
                z.date()
                    .checked_add(jiff::Span::new().days(i64::from(days)))
                    .ok()
            })
            .map(|d| d.strftime("%Y-%m-%d").to_string())
            .unwrap_or_else(|| "invalid date".to_owned())
    }

    /// The calendar year in the Town's zone (citation numbers run per year).
    pub fn year(&self, moment: Moment) -> i16 {
        self.zoned(moment).map(|z| z.year()).unwrap_or(1970)
    }

    /// Date (`YYYY-MM-DD`), hour (0–23) and weekday (0 = Monday) in the Town's
    /// zone: stored beside each incident so the dashboard can group in SQL.
    pub fn local_parts(&self, moment: Moment) -> (String, i64, i64) {
        self.zoned(moment)
            .map(|z| {
                (
                    z.strftime("%Y-%m-%d").to_string(),
                    i64::from(z.hour()),
                    i64::from(z.weekday().to_monday_zero_offset()),
                )
            })
            .unwrap_or_else(|| ("1970-01-01".to_owned(), 0, 3))
    }

    /// The last minute (23:59) of the Town's calendar date `YYYY-MM-DD`.
    pub fn end_of_day(&self, date: &str) -> Option<Moment> {
        let day: jiff::civil::Date = date.trim().parse().ok()?;
        let zoned = day.at(23, 59, 0, 0).to_zoned(self.zone.clone()).ok()?;
        Some(Moment(zoned.timestamp().as_millisecond()))
    }

    /// The first instant of the Town's calendar date `YYYY-MM-DD` (midnight, or
    /// the first moment after a daylight-saving gap).
    pub fn start_of_day(&self, date: &str) -> Option<Moment> {
        let day: jiff::civil::Date = date.trim().parse().ok()?;
        let zoned = day.to_zoned(self.zone.clone()).ok()?;
        Some(Moment(zoned.timestamp().as_millisecond()))
    }

    /// The first instant after the Town's calendar date `YYYY-MM-DD`.
    pub fn start_of_next_day(&self, date: &str) -> Option<Moment> {
        let day: jiff::civil::Date = date.trim().parse().ok()?;
        let zoned = day.tomorrow().ok()?.to_zoned(self.zone.clone()).ok()?;
        Some(Moment(zoned.timestamp().as_millisecond()))
    }

    /// The offset from UTC in minutes at `moment` (−240 in summer, −300 in winter).
    pub fn offset_minutes(&self, moment: Moment) -> i32 {
        self.zoned(moment)
            .map(|z| z.offset().seconds() / 60)
            .unwrap_or(0)
    }
}

impl crate::model::wording::TimeWords for TownZone {
    fn date_time(&self, moment: Moment) -> String {
        TownZone::date_time(self, moment)
    }
    fn date_after(&self, moment: Moment, days: u32) -> String {
        TownZone::date_after(self, moment, days)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ny() -> TownZone {
        TownZone::named("America/New_York").expect("bundled zone")
    }

    #[test]
    fn the_end_of_a_day_is_its_last_minute_in_town() {
        let end = ny().end_of_day("2020-12-31").expect("date");
        assert_eq!(ny().date_time(end), "2020-12-31 23:59 EST");
        assert_eq!(ny().end_of_day("2020-02-30"), None);
    }

    #[test]
    fn a_day_runs_from_town_midnight_to_the_next_even_when_the_clocks_change() {
        // 2026-11-01 is 25 hours long in Wells: EDT midnight to EST midnight.
        let start = ny().start_of_day("2026-11-01").expect("date");
        let next = ny().start_of_next_day("2026-11-01").expect("date");
        assert_eq!(ny().date_time(start), "2026-11-01 00:00 EDT");
        assert_eq!(ny().date_time(next), "2026-11-02 00:00 EST");
        assert_eq!(next.0 - start.0, 25 * 3_600_000);
        assert_eq!(ny().local_parts(Moment(next.0 - 1)).0, "2026-11-01");
        assert_eq!(ny().start_of_day("2026-13-01"), None);
    }

    #[test]
    fn local_parts_follow_the_towns_clock_not_utc() {
        // 2026-07-04 02:30Z is 22:30 EDT on Friday 3 July.
        let moment = Moment(1_783_132_200_000);
        assert_eq!(ny().local_parts(moment), ("2026-07-03".to_owned(), 22, 4));
    }

    #[test]
    fn the_two_one_thirties_of_the_november_change_read_differently() {
        // 2026-11-01: clocks go back at 02:00 EDT. 05:30Z is 01:30 EDT, 06:30Z is 01:30 EST.
        let first = Moment(1_793_511_000_000);
        let second = Moment(first.0 + 3_600_000);
        assert_eq!(ny().date_time(first), "2026-11-01 01:30 EDT");
        assert_eq!(ny().date_time(second), "2026-11-01 01:30 EST");
    }

    #[test]
    fn a_citation_written_after_local_midnight_on_new_years_eve_belongs_to_the_new_year() {
        // 2027-01-01 04:30Z is 2026-12-31 23:30 EST; 05:30Z is 00:30 on 1 January.
        let before = Moment(1_798_777_800_000);
        assert_eq!(ny().year(before), 2026);
        assert_eq!(ny().year(Moment(before.0 + 3_600_000)), 2027);
    }

    #[test]
    fn unknown_zones_are_refused() {
        assert!(TownZone::named("America/Wells").is_err());
    }
}
