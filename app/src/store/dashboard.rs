//! The dashboard's figures, each one SQL aggregate (`GROUP BY` over an index
//! range of the period, see migration 0005) — rows are never loaded to be counted
//! here. Persons are grouped once on every person-level field and the small
//! grouped result is summed per figure.

use std::collections::BTreeMap;

use sqlx::{SqliteConnection, SqlitePool};

use crate::error::AppError;
use crate::model::court::dollars;
use crate::model::dashboard::{
    percent, Chart, Count, Dashboard, Figure, FigureRow, Period, Total, WEEKDAYS,
};
use crate::model::incident::{AgeRange, PerceivedRace, PerceivedSex};
use crate::model::review::{DecidedKind, GpsCell, ReportFilter, ResponseKind};
use crate::ordinance::{Offence, Outcome, ProtectedActivity};
use crate::store::register::{cell_sql, officer_label};

/// Top locations and GPS cells shown.
const TOP: i64 = 10;

/// Days up to which the time figure counts by day; longer periods count by month.
const DAILY_UP_TO: i64 = 62;

const IN_PERIOD: &str = "i.local_date BETWEEN ?1 AND ?2";

pub async fn dashboard(pool: &SqlitePool, period: &Period) -> Result<Dashboard, AppError> {
    let mut conn = pool.acquire().await?;
    let c = &mut *conn;
    let persons = person_groups(c, period).await?;
    let incidents: i64 = scalar(
        c,
        period,
        &format!("SELECT COUNT(*) FROM incident i WHERE {IN_PERIOD}"),
    )
    .await?;
    let (citations, voids) = citation_counts(c, period).await?;
    let figures = vec![
        over_time(c, period).await?,
        by_offence(period, &persons),
        outcomes(period, &persons),
        after_order(period, &persons),
        protected(c, period).await?,
        by_officer(c, period).await?,
        by_hour(c, period).await?,
        by_weekday(c, period).await?,
        top_locations(c, period).await?,
        gps_cells(c, period).await?,
        perceived(
            period,
            &persons,
            "perceived_age",
            "Perceived age",
            |p| &p.age,
            |code| {
                AgeRange::from_code(code).map(|a| {
                    (
                        a.label(),
                        ReportFilter {
                            age: Some(a),
                            ..ReportFilter::default()
                        },
                    )
                })
            },
        ),
        perceived(
            period,
            &persons,
            "perceived_sex",
            "Perceived sex",
            |p| &p.sex,
            |code| {
                PerceivedSex::from_code(code).map(|a| {
                    (
                        a.label(),
                        ReportFilter {
                            sex: Some(a),
                            ..ReportFilter::default()
                        },
                    )
                })
            },
        ),
        perceived(
            period,
            &persons,
            "perceived_race",
            "Perceived race",
            |p| &p.race,
            |code| {
                PerceivedRace::from_code(code).map(|a| {
                    (
                        a.label(),
                        ReportFilter {
                            race: Some(a),
                            ..ReportFilter::default()
                        },
                    )
                })
            },
        ),
        returns_and_voids(c, period).await?,
    ];
    let (collected, outstanding) = money(c, period).await?;
    let complied = persons.sum(|p| p.response == "complied");
    let refused = persons.sum(|p| p.response == "refused");
    let whole = period.filter();
    let totals = vec![
        Total {
            label: "Incidents".into(),
            value: incidents.to_string(),
            filter: Some(whole.clone()),
        },
        Total {
            label: "Persons".into(),
            value: persons.sum(|_| true).to_string(),
            filter: Some(whole.clone()),
        },
        Total {
            label: "Citations issued (§52-4)".into(),
            value: citations.to_string(),
            filter: Some(ReportFilter {
                cited: Some(true),
                ..whole.clone()
            }),
        },
        Total {
            label: "Complied after an order (§52-1 D)".into(),
            value: percent(complied, complied + refused),
            filter: Some(ReportFilter {
                response: Some(ResponseKind::Complied),
                ..whole.clone()
            }),
        },
        Total {
            label: "Citations voided".into(),
            value: voids.to_string(),
            filter: Some(ReportFilter {
                decided: Some(DecidedKind::Void),
                ..whole
            }),
        },
        Total {
            label: "Collected (payments the clerk recorded)".into(),
            value: dollars(collected),
            filter: None,
        },
        Total {
            label: "Outstanding at court (assessed and unpaid; $100.00 per citation awaiting the court)".into(),
            value: dollars(outstanding),
            filter: None,
        },
    ];
    Ok(Dashboard {
        period: period.clone(),
        totals,
        figures,
    })
}

/// Money of the period's citations at court, in cents: collected (payments
/// recorded) and outstanding (assessed and unpaid, plus the §52-4 fine of each
/// filed citation the court has not decided yet).
async fn money(c: &mut SqliteConnection, period: &Period) -> Result<(i64, i64), AppError> {
    let fine = i64::from(crate::ordinance::Penalty::ARTICLE_I.fine_cents);
    let (collected, outstanding): (i64, i64) = sqlx::query_as(&format!(
        "SELECT COALESCE(SUM(c.paid_cents), 0), \
         COALESCE(SUM(CASE \
           WHEN c.disposition IN ('admitted', 'guilty', 'defaulted') \
             THEN MAX(COALESCE(c.fine_assessed_cents, 0) + COALESCE(c.costs_assessed_cents, 0) - COALESCE(c.paid_cents, 0), 0) \
           WHEN c.status = 'filed' THEN {fine} ELSE 0 END), 0) \
         FROM incident i INDEXED BY incident_dashboard JOIN citation c ON c.incident_id = i.incident_id \
         WHERE {IN_PERIOD}"
    ))
    .bind(&period.from)
    .bind(&period.to)
    .fetch_one(c)
    .await?;
    Ok((collected, outstanding))
}

async fn scalar(c: &mut SqliteConnection, period: &Period, sql: &str) -> Result<i64, AppError> {
    Ok(sqlx::query_scalar(sql)
        .bind(&period.from)
        .bind(&period.to)
        .fetch_one(c)
        .await?)
}

/// `(key, count)` rows of a grouped query over the period.
async fn grouped(
    c: &mut SqliteConnection,
    period: &Period,
    sql: &str,
) -> Result<Vec<(String, i64)>, AppError> {
    Ok(sqlx::query_as(sql)
        .bind(&period.from)
        .bind(&period.to)
        .fetch_all(c)
        .await?)
}

/// A count linked to the period's register narrowed by `narrow`; zero links
/// nowhere (there is nothing to list).
fn count(period: &Period, value: i64, narrow: ReportFilter) -> Count {
    let filter = (value > 0).then(|| ReportFilter {
        from: Some(period.from.clone()),
        to: Some(period.to.clone()),
        ..narrow
    });
    Count { value, filter }
}

fn figure(key: &str, title: &str, label_heading: &str, columns: &[&str], chart: Chart) -> Figure {
    Figure {
        key: key.into(),
        title: title.into(),
        note: None,
        label_heading: label_heading.into(),
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        rows: Vec::new(),
        chart,
    }
}

/// Every person of the period's incidents (not withdrawn by a correction),
/// grouped on all the fields the person figures use.
#[derive(sqlx::FromRow)]
struct PersonGroup {
    offence: Option<String>,
    outcome: String,
    response: String,
    age: String,
    sex: String,
    race: String,
    n: i64,
}

struct Persons(Vec<PersonGroup>);

impl Persons {
    fn sum(&self, pick: impl Fn(&PersonGroup) -> bool) -> i64 {
        self.0.iter().filter(|p| pick(p)).map(|p| p.n).sum()
    }
}

async fn person_groups(c: &mut SqliteConnection, period: &Period) -> Result<Persons, AppError> {
    let rows = sqlx::query_as(&format!(
        "SELECT s.offence, s.outcome, s.response, s.perceived_age AS age, s.perceived_sex AS sex, \
         s.perceived_race AS race, COUNT(*) AS n \
         FROM incident i INDEXED BY incident_dashboard JOIN subject s ON s.incident_id = i.incident_id \
         WHERE {IN_PERIOD} AND s.withdrawn_at IS NULL GROUP BY 1, 2, 3, 4, 5, 6"
    ))
    .bind(&period.from)
    .bind(&period.to)
    .fetch_all(c)
    .await?;
    Ok(Persons(rows))
}

async fn citation_counts(
    c: &mut SqliteConnection,
    period: &Period,
) -> Result<(i64, i64), AppError> {
    let rows = grouped(
        c,
        period,
        &format!(
            "SELECT CASE c.status WHEN 'void' THEN 'void' ELSE 'issued' END, COUNT(*) \
             FROM incident i INDEXED BY incident_dashboard JOIN citation c ON c.incident_id = i.incident_id \
             WHERE {IN_PERIOD} GROUP BY 1"
        ),
    )
    .await?;
    let get = |k: &str| rows.iter().find(|(key, _)| key == k).map_or(0, |(_, n)| *n);
    Ok((get("issued"), get("void")))
}

/// Incidents and (not void) citations per day, or per month for a long period,
/// every bucket of the period present even when empty.
async fn over_time(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let from: jiff::civil::Date = period.from.parse().map_err(|_| AppError::Internal)?;
    let to: jiff::civil::Date = period.to.parse().map_err(|_| AppError::Internal)?;
    let days = i64::from(to.since(from).map_err(|_| AppError::Internal)?.get_days()) + 1;
    let daily = days <= DAILY_UP_TO;
    let width = if daily { 10 } else { 7 };
    let incidents: BTreeMap<String, i64> = grouped(
        c,
        period,
        &format!("SELECT substr(i.local_date, 1, {width}), COUNT(*) FROM incident i WHERE {IN_PERIOD} GROUP BY 1"),
    )
    .await?
    .into_iter()
    .collect();
    let citations: BTreeMap<String, i64> = grouped(
        c,
        period,
        &format!(
            "SELECT substr(i.local_date, 1, {width}), COUNT(*) FROM incident i INDEXED BY incident_dashboard \
             JOIN citation c ON c.incident_id = i.incident_id \
             WHERE {IN_PERIOD} AND c.status <> 'void' GROUP BY 1"
        ),
    )
    .await?
    .into_iter()
    .collect();
    let mut f = figure(
        "over_time",
        "Incidents and citations over time",
        if daily { "Day" } else { "Month" },
        &["Incidents", "Citations"],
        Chart::Columns,
    );
    let mut day = from;
    while day <= to {
        let (bucket, first, last) = if daily {
            let d = day.to_string();
            (d.clone(), d.clone(), d)
        } else {
            let start = day.first_of_month();
            let end = day.last_of_month().min(to);
            (
                day.to_string()[..7].to_owned(),
                day.max(start).to_string(),
                end.to_string(),
            )
        };
        let range = ReportFilter {
            from: Some(first.clone()),
            to: Some(last.clone()),
            ..ReportFilter::default()
        };
        let n = incidents.get(&bucket).copied().unwrap_or(0);
        let k = citations.get(&bucket).copied().unwrap_or(0);
        f.rows.push(FigureRow {
            label: bucket,
            counts: vec![
                Count {
                    value: n,
                    filter: (n > 0).then(|| range.clone()),
                },
                Count {
                    value: k,
                    filter: (k > 0).then_some(ReportFilter {
                        cited: Some(true),
                        ..range
                    }),
                },
            ],
        });
        let next = if daily {
            day.tomorrow()
        } else {
            day.last_of_month().tomorrow()
        };
        day = next.map_err(|_| AppError::Internal)?;
    }
    Ok(f)
}

fn by_offence(period: &Period, persons: &Persons) -> Figure {
    let mut f = figure(
        "by_offence",
        "Persons charged, by offence",
        "Offence",
        &["Charged", "Cited", "Arrested (§52-2)"],
        Chart::Bars,
    );
    f.note = Some("Counts are persons; the register lists their incidents.".into());
    for offence in Offence::ALL {
        let is = |p: &PersonGroup| p.offence.as_deref() == Some(offence.code());
        let narrow = |outcome: Option<Outcome>| ReportFilter {
            offence: Some(offence),
            outcome,
            ..ReportFilter::default()
        };
        f.rows.push(FigureRow {
            label: format!("{} {}", offence.reference(), offence.title()),
            counts: vec![
                count(period, persons.sum(is), narrow(None)),
                count(
                    period,
                    persons.sum(|p| is(p) && p.outcome == "cited"),
                    narrow(Some(Outcome::Cited)),
                ),
                count(
                    period,
                    persons.sum(|p| is(p) && p.outcome == "arrested"),
                    narrow(Some(Outcome::Arrested)),
                ),
            ],
        });
    }
    f
}

fn outcomes(period: &Period, persons: &Persons) -> Figure {
    let mut f = figure(
        "outcomes",
        "Outcomes, per person",
        "Outcome",
        &["Persons"],
        Chart::Bars,
    );
    for outcome in Outcome::ALL {
        let code = outcome.code();
        f.rows.push(FigureRow {
            label: outcome.label().into(),
            counts: vec![count(
                period,
                persons.sum(|p| p.outcome == code),
                ReportFilter {
                    outcome: Some(outcome),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    f
}

/// The compliance rate's parts: of those given an order, who complied.
fn after_order(period: &Period, persons: &Persons) -> Figure {
    let complied = persons.sum(|p| p.response == "complied");
    let refused = persons.sum(|p| p.response == "refused");
    let mut f = figure(
        "after_order",
        "After an order (§52-1 D): complied or refused",
        "Response",
        &["Persons"],
        Chart::Bars,
    );
    f.note = Some(format!(
        "Compliance rate: {} of persons given an order complied.",
        percent(complied, complied + refused)
    ));
    for (label, kind, n) in [
        ("Complied", ResponseKind::Complied, complied),
        ("Failed or refused to obey", ResponseKind::Refused, refused),
    ] {
        f.rows.push(FigureRow {
            label: label.into(),
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    response: Some(kind),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    f
}

async fn protected(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let rows: BTreeMap<String, i64> = grouped(
        c,
        period,
        &format!(
            "SELECT i.protected_activity, COUNT(*) FROM incident i INDEXED BY incident_dashboard \
             WHERE {IN_PERIOD} GROUP BY 1"
        ),
    )
    .await?
    .into_iter()
    .collect();
    let mut f = figure(
        "protected",
        "Protected-activity screening (§52-1 E)",
        "Answer",
        &["Incidents"],
        Chart::Bars,
    );
    f.note = Some(
        "Where anyone was picketing, speaking or expressing an opinion, §52-1 is never cited."
            .into(),
    );
    for p in ProtectedActivity::ALL {
        let n = rows.get(p.code()).copied().unwrap_or(0);
        f.rows.push(FigureRow {
            label: p.label().into(),
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    protected: Some(p),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    Ok(f)
}

async fn by_officer(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    type OfficerRow = (String, String, Option<String>, i64, i64);
    let rows: Vec<OfficerRow> = sqlx::query_as(&format!(
        "WITH n AS (SELECT i.officer_id, COUNT(*) AS incidents FROM incident i INDEXED BY incident_dashboard \
                    WHERE {IN_PERIOD} GROUP BY 1), \
              k AS (SELECT i.officer_id, COUNT(*) AS citations FROM incident i INDEXED BY incident_dashboard \
                    JOIN citation c ON c.incident_id = i.incident_id \
                    WHERE {IN_PERIOD} AND c.status <> 'void' GROUP BY 1) \
         SELECT n.officer_id, u.full_name, u.badge_number, n.incidents, COALESCE(k.citations, 0) \
         FROM n JOIN app_user u ON u.user_id = n.officer_id LEFT JOIN k ON k.officer_id = n.officer_id \
         ORDER BY n.incidents DESC, u.full_name"
    ))
    .bind(&period.from)
    .bind(&period.to)
    .fetch_all(c)
    .await?;
    let mut f = figure(
        "by_officer",
        "By officer",
        "Officer",
        &["Incidents", "Citations"],
        Chart::Bars,
    );
    for (id, name, badge, incidents, citations) in rows {
        let officer = id.parse().ok();
        f.rows.push(FigureRow {
            label: officer_label(&name, badge.as_deref()),
            counts: vec![
                count(
                    period,
                    incidents,
                    ReportFilter {
                        officer,
                        ..ReportFilter::default()
                    },
                ),
                count(
                    period,
                    citations,
                    ReportFilter {
                        officer,
                        cited: Some(true),
                        ..ReportFilter::default()
                    },
                ),
            ],
        });
    }
    Ok(f)
}

/// Incidents of the period per value of a whole-number column of the
/// dashboard index (`column` is one of this module's fixed names, never input).
async fn counts_by(
    c: &mut SqliteConnection,
    period: &Period,
    column: &str,
) -> Result<BTreeMap<i64, i64>, AppError> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(&format!(
        "SELECT i.{column}, COUNT(*) FROM incident i INDEXED BY incident_dashboard WHERE {IN_PERIOD} GROUP BY 1"
    ))
    .bind(&period.from)
    .bind(&period.to)
    .fetch_all(c)
    .await?;
    Ok(rows.into_iter().collect())
}

async fn by_hour(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let rows = counts_by(c, period, "local_hour").await?;
    let mut f = figure(
        "by_hour",
        "By hour of the day (Town time)",
        "Hour",
        &["Incidents"],
        Chart::Columns,
    );
    for hour in 0..24u8 {
        let n = rows.get(&i64::from(hour)).copied().unwrap_or(0);
        f.rows.push(FigureRow {
            label: format!("{hour:02}:00"),
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    hour: Some(hour),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    Ok(f)
}

async fn by_weekday(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let rows = counts_by(c, period, "local_weekday").await?;
    let mut f = figure(
        "by_weekday",
        "By day of the week",
        "Day",
        &["Incidents"],
        Chart::Columns,
    );
    for (day, name) in WEEKDAYS.iter().enumerate() {
        let n = rows.get(&(day as i64)).copied().unwrap_or(0);
        f.rows.push(FigureRow {
            label: (*name).into(),
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    weekday: Some(day as u8),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    Ok(f)
}

async fn top_locations(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let rows = grouped(
        c,
        period,
        &format!(
            "SELECT MIN(i.location_text), COUNT(*) AS n FROM incident i \
             WHERE {IN_PERIOD} GROUP BY i.location_text COLLATE NOCASE ORDER BY n DESC, 1 LIMIT {TOP}"
        ),
    )
    .await?;
    let mut f = figure(
        "top_locations",
        "Top locations, by typed address",
        "Location",
        &["Incidents"],
        Chart::Bars,
    );
    for (location, n) in rows {
        f.rows.push(FigureRow {
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    location: Some(location.clone()),
                    ..ReportFilter::default()
                },
            )],
            label: location,
        });
    }
    Ok(f)
}

async fn gps_cells(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let (lat, lon) = cell_sql();
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(&format!(
        "SELECT {lat}, {lon}, COUNT(*) AS n FROM incident i INDEXED BY incident_dashboard \
         WHERE {IN_PERIOD} AND i.gps_lat IS NOT NULL AND i.gps_lon IS NOT NULL \
         GROUP BY 1, 2 ORDER BY n DESC, 1, 2 LIMIT {TOP}"
    ))
    .bind(&period.from)
    .bind(&period.to)
    .fetch_all(c)
    .await?;
    let mut f = figure(
        "gps_cells",
        "Top locations, by GPS fix",
        "Area (centre)",
        &["Incidents"],
        Chart::Bars,
    );
    f.note = Some("Fixes grouped in cells of 1/200° (about 550 m by 400 m).".into());
    for (lat_index, lon_index, n) in rows {
        let cell = GpsCell {
            lat_index,
            lon_index,
        };
        let (la, lo) = cell.centre();
        f.rows.push(FigureRow {
            label: format!("{la:.4}, {lo:.4}"),
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    cell: Some(cell),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    Ok(f)
}

/// A bias-audit figure: persons by the officer's perception, cited or arrested
/// beside warned or complied.
fn perceived(
    period: &Period,
    persons: &Persons,
    key: &str,
    title: &str,
    field: fn(&PersonGroup) -> &str,
    describe: impl Fn(&str) -> Option<(&'static str, ReportFilter)>,
) -> Figure {
    let mut f = figure(
        key,
        &format!("{title} of persons: cited or arrested, warned or complied"),
        title,
        &["Cited", "Arrested", "Warned", "Complied"],
        Chart::Bars,
    );
    f.note = Some("The officer's perception, recorded apart from identity and never asked of the person (bias audit).".into());
    let mut codes: Vec<&str> = persons.0.iter().map(field).collect();
    codes.sort_unstable();
    codes.dedup();
    for code in codes {
        let Some((label, narrow)) = describe(code) else {
            continue;
        };
        let counts = [
            Outcome::Cited,
            Outcome::Arrested,
            Outcome::Warned,
            Outcome::Complied,
        ]
        .into_iter()
        .map(|outcome| {
            let oc = outcome.code();
            count(
                period,
                persons.sum(|p| field(p) == code && p.outcome == oc),
                ReportFilter {
                    outcome: Some(outcome),
                    ..narrow.clone()
                },
            )
        })
        .collect();
        f.rows.push(FigureRow {
            label: label.into(),
            counts,
        });
    }
    f
}

async fn returns_and_voids(c: &mut SqliteConnection, period: &Period) -> Result<Figure, AppError> {
    let rows: BTreeMap<String, i64> = grouped(
        c,
        period,
        &format!(
            "SELECT d.action, COUNT(*) FROM incident i INDEXED BY incident_dashboard \
             JOIN review_decision d ON d.incident_id = i.incident_id \
             WHERE {IN_PERIOD} AND d.action IN ('return', 'void') GROUP BY 1"
        ),
    )
    .await?
    .into_iter()
    .collect();
    let mut f = figure(
        "returns_voids",
        "The chief's returns and voids",
        "Decision",
        &["Decisions"],
        Chart::Bars,
    );
    f.note = Some("Of the period's incidents; a report returned twice counts twice.".into());
    for (label, kind) in [
        ("Returned to the officer", DecidedKind::Return),
        ("Citation voided", DecidedKind::Void),
    ] {
        let n = rows.get(kind.code()).copied().unwrap_or(0);
        f.rows.push(FigureRow {
            label: label.into(),
            counts: vec![count(
                period,
                n,
                ReportFilter {
                    decided: Some(kind),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    Ok(f)
}

/// The default period: the 365 days up to today, in the Town's calendar.
pub fn last_365_days(zone: &crate::town_time::TownZone, now: crate::ordinance::Moment) -> Period {
    Period {
        from: zone.date(crate::ordinance::Moment(now.0 - 364 * 86_400_000)),
        to: zone.date(now),
    }
}
