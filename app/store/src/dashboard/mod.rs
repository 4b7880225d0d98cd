//! The dashboard's figures, built from counts added up ahead per day, month and
//! year (`rollup`, migration 0008): a period of years reads a few hundred rows,
//! never the incidents in it. The counts themselves are recounted from the
//! records a day at a time whenever a record of that day changes.

pub mod published;
pub mod rollup;

use crate::db::Conn;

use crate::register::officer_label;
use crate::Store;
use domain::error::AppError;
use domain::model::court::dollars;
use domain::model::dashboard::{
    percent, Chart, Count, Dashboard, Figure, FigureRow, GroupRow, MonthComparison, MonthRow,
    Outcomes, Period, PlaceRow, PlaceTable, Summary, Total, WEEKDAYS,
};
use domain::model::incident::{AgeRange, PerceivedRace, PerceivedSex};
use domain::model::review::{DecidedKind, GpsCell, ReportFilter, ResponseKind};
use domain::model::text::grouped;
use domain::model::transparency::area::NamedArea;
use domain::ordinance::{Offence, Outcome, Penalty, ProtectedActivity};
use rollup::Counts;

/// Top locations and GPS cells shown.
const TOP: usize = 10;

/// Days up to which the time figure counts by day; longer periods count by month.
const DAILY_UP_TO: i64 = 62;

/// `today`: the Town's date now; the summary's month ends there at the latest.
pub async fn dashboard(store: &Store, period: &Period, today: &str) -> Result<Dashboard, AppError> {
    rollup::fresh(store).await?;
    // One read transaction: every figure from the same snapshot of the counts.
    let mut tx = store.reader.begin().await?;
    let c = &mut *tx;
    let (from, to) = (rollup::date(&period.from)?, rollup::date(&period.to)?);
    let counts = rollup::counts(c, from, to).await?;
    let officers: Vec<(String, String, Option<String>)> =
        sqlx::query_as("SELECT user_id, full_name, badge_number FROM app_user")
            .fetch_all(&mut *c)
            .await?;
    let persons = Persons(&counts);
    let summary = summary(c, to.min(rollup::date(today)?), &counts).await?;
    let figures = vec![
        over_time(c, period).await?,
        by_offence(period, &persons),
        outcomes(period, &persons),
        after_order(period, &persons),
        protected(period, &counts),
        by_officer(period, &counts, &officers),
        by_hour(period, &counts),
        by_weekday(period, &counts),
        top_locations(period, &counts),
        gps_cells(period, &counts),
        perceived(
            period,
            &persons,
            "person_age_outcome",
            "perceived_age",
            "Perceived age",
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
            "person_sex_outcome",
            "perceived_sex",
            "Perceived sex",
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
            "person_race_outcome",
            "perceived_race",
            "Perceived race",
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
        returns_and_voids(period, &counts),
    ];
    let (collected, outstanding) = (counts.get("collected", ""), counts.get("outstanding", ""));
    let incidents = counts.get("incidents", "");
    let (citations, voids) = (
        counts.get("citations", "issued"),
        counts.get("citations", "void"),
    );
    let article_ii: i64 = Offence::ALL
        .into_iter()
        .filter(|o| o.is_article_ii())
        .map(|o| counts.get("citation_offence", o.code()))
        .sum();
    let complied = persons.response("complied");
    let refused = persons.response("refused");
    let whole = period.filter();
    let totals = vec![
        Total {
            label: "Incidents".into(),
            value: grouped(incidents),
            filter: Some(whole.clone()),
        },
        Total {
            label: "Persons".into(),
            value: grouped(persons.total()),
            filter: Some(whole.clone()),
        },
        // Each article's citations under its own penalty section (issue #33:
        // §52-7's were counted under §52-4).
        Total {
            label: format!(
                "Citations issued — Article I ({})",
                Penalty::ARTICLE_I.section
            ),
            value: grouped(citations - article_ii),
            filter: Some(ReportFilter {
                cited: Some(true),
                ..whole.clone()
            }),
        },
        Total {
            label: format!(
                "Citations issued — Article II ({})",
                Penalty::ARTICLE_II.section
            ),
            value: grouped(article_ii),
            filter: Some(ReportFilter {
                cited: Some(true),
                offence: Some(Offence::UnpermittedMassGathering),
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
            value: grouped(voids),
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
            label: "Outstanding at court (assessed and unpaid, and the fine of each citation awaiting the court)".into(),
            value: dollars(outstanding),
            filter: None,
        },
    ];
    Ok(Dashboard {
        period: period.clone(),
        summary,
        totals,
        figures,
    })
}

fn month_name(date: jiff::civil::Date) -> String {
    format!(
        "{} {}",
        domain::model::civil::MONTH_NAMES[date.month() as usize - 1],
        date.year()
    )
}

/// The summary above the detail (issue #37), from the same counts: the month
/// of `to` up to `to` against the same days of the month before (a part of a
/// month set against a whole one read as a fall), and the period's persons by
/// named area, offence and outcome and by perceived group.
async fn summary(
    c: &mut Conn,
    to: jiff::civil::Date,
    counts: &Counts,
) -> Result<Summary, AppError> {
    let first = to.first_of_month();
    let before = first
        .yesterday()
        .map_err(|_| AppError::Internal)?
        .first_of_month();
    // The same day number, or the month's last day when it has fewer.
    let before_to = before
        .with()
        .day(to.day().min(before.days_in_month()))
        .build()
        .map_err(|_| AppError::Internal)?;
    let measures = ["person_outcome", "person_response"];
    let this = rollup::counts_of(c, first, to, measures).await?;
    let last = rollup::counts_of(c, before, before_to, measures).await?;
    let days = |last: jiff::civil::Date| {
        if last.day() == 1 {
            format!("1 {}", month_name(last))
        } else {
            format!("1–{} {}", last.day(), month_name(last))
        }
    };
    Ok(Summary {
        months: MonthComparison {
            this_month: days(to),
            last_month: if before_to.day() == before_to.days_in_month() {
                month_name(before_to)
            } else {
                days(before_to)
            },
            rows: month_rows(&this)
                .into_iter()
                .zip(month_rows(&last))
                .map(|((label, this_month), (_, last_month))| MonthRow {
                    label,
                    this_month,
                    last_month,
                })
                .collect(),
        },
        places: places(counts),
        groups: groups(counts),
    })
}

/// The month's rows: persons given a §52-1 D order, complied, cited, whose
/// activity §52-1 E protects, and warned or gone before an order.
fn month_rows(counts: &Counts) -> Vec<(String, i64)> {
    let outcome = |pick: &dyn Fn(Outcome) -> bool| {
        counts.sum("person_outcome", |code| {
            Outcome::from_code(code).is_some_and(pick)
        })
    };
    let (complied, refused) = (
        counts.get("person_response", "complied"),
        counts.get("person_response", "refused"),
    );
    vec![
        ("Ordered (§52-1 D)".into(), complied + refused),
        ("Complied".into(), complied),
        ("Cited".into(), outcome(&|o| o.is_citation())),
        (
            "Protected (§52-1 E)".into(),
            outcome(&|o| o == Outcome::ProtectedActivity),
        ),
        // Not "no action": the place table's "no action" is complied, left
        // or protected, and a warning is an action.
        (
            "Warned, or left before an order".into(),
            outcome(&|o| matches!(o, Outcome::Warned | Outcome::Departed)),
        ),
    ]
}

/// Every named area, by offence charged and outcome.
fn places(counts: &Counts) -> PlaceTable {
    let mut rows: Vec<PlaceRow> = NamedArea::ALL
        .into_iter()
        .map(|a| PlaceRow {
            area: a.code().into(),
            label: a.label().into(),
            persons: Outcomes::default(),
            cells: vec![Outcomes::default(); Offence::ALL.len() + 1],
        })
        .collect();
    let row = |rows: &mut Vec<PlaceRow>, area: &str| rows.iter().position(|r| r.area == area);
    for (key, n, _) in counts.of("area_outcome") {
        if let Some((area, outcome)) = key.split_once('|') {
            if let Some(i) = row(&mut rows, area) {
                rows[i].persons.add(outcome, n);
            }
        }
    }
    for (key, n, _) in counts.of("area_offence_outcome") {
        let mut parts = key.splitn(3, '|');
        let (Some(area), Some(offence), Some(outcome)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let column = Offence::ALL
            .iter()
            .position(|o| o.code() == offence)
            .unwrap_or(Offence::ALL.len());
        if let Some(i) = row(&mut rows, area) {
            rows[i].cells[column].add(outcome, n);
        }
    }
    PlaceTable {
        offences: Offence::ALL
            .into_iter()
            .map(|o| (o.reference().to_string(), o.title().to_string()))
            .chain(std::iter::once((
                "None".to_owned(),
                "No offence charged".to_owned(),
            )))
            .collect(),
        rows,
    }
}

/// Persons given a §52-1 D order by each perception: how many complied, and
/// how many refused and were cited.
fn groups(counts: &Counts) -> Vec<GroupRow> {
    let mut out = Vec::new();
    // Each perception's label and its place in the form's order.
    type Describe = fn(&str) -> Option<(usize, &'static str)>;
    let dimensions: [(&str, &str, Describe); 3] = [
        ("person_age_response", "Perceived age", |c| {
            let i = AgeRange::ALL.iter().position(|a| a.code() == c)?;
            Some((i, AgeRange::ALL[i].label()))
        }),
        ("person_sex_response", "Perceived sex", |c| {
            let i = PerceivedSex::ALL.iter().position(|a| a.code() == c)?;
            Some((i, PerceivedSex::ALL[i].label()))
        }),
        ("person_race_response", "Perceived race", |c| {
            let i = PerceivedRace::ALL.iter().position(|a| a.code() == c)?;
            Some((i, PerceivedRace::ALL[i].label()))
        }),
    ];
    for (measure, dimension, describe) in dimensions {
        let mut rows: Vec<(usize, GroupRow)> = Vec::new();
        for (key, n, _) in counts.of(measure) {
            let mut parts = key.splitn(3, '|');
            let (Some(code), Some(response), Some(outcome)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let Some((order, label)) = describe(code) else {
                continue;
            };
            let (complied, refused) = (response == "complied", response == "refused");
            if !complied && !refused {
                continue;
            }
            let cited = refused && Outcome::from_code(outcome).is_some_and(|o| o.is_citation());
            let at = match rows.iter().position(|(o, _)| *o == order) {
                Some(at) => at,
                None => {
                    rows.push((
                        order,
                        GroupRow {
                            dimension: dimension.into(),
                            label: label.into(),
                            ordered: 0,
                            complied: 0,
                            cited: 0,
                        },
                    ));
                    rows.len() - 1
                }
            };
            let row = &mut rows[at].1;
            row.ordered += n;
            row.complied += if complied { n } else { 0 };
            row.cited += if cited { n } else { 0 };
        }
        rows.sort_by_key(|(order, _)| *order);
        out.extend(rows.into_iter().map(|(_, row)| row));
    }
    out
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

/// The period's persons (not withdrawn by a correction), counted by outcome, by
/// offence charged and outcome (`offence|outcome`: a person charged with two
/// offences counts under each), by §52-1 D response, and by each perception with
/// the outcome.
struct Persons<'a>(&'a Counts);

impl Persons<'_> {
    /// Charges whose offence and outcome `pick` accepts.
    fn sum(&self, pick: impl Fn(&str, &str) -> bool) -> i64 {
        self.0.sum("person_offence_outcome", |key| {
            let (offence, outcome) = key.split_once('|').unwrap_or((key, ""));
            pick(offence, outcome)
        })
    }

    /// Persons with this outcome.
    fn with_outcome(&self, code: &str) -> i64 {
        self.0.get("person_outcome", code)
    }

    /// Every person, once.
    fn total(&self) -> i64 {
        self.0.sum("person_outcome", |_| true)
    }

    fn response(&self, code: &str) -> i64 {
        self.0.get("person_response", code)
    }
}

/// Incidents and (not void) citations per day, or per month for a long period,
/// every bucket of the period present even when empty.
async fn over_time(c: &mut Conn, period: &Period) -> Result<Figure, AppError> {
    let (from, to) = (rollup::date(&period.from)?, rollup::date(&period.to)?);
    let days = i64::from(to.since(from).map_err(|_| AppError::Internal)?.get_days()) + 1;
    let daily = days <= DAILY_UP_TO;
    let incidents = rollup::series(c, from, to, !daily, "incidents", "").await?;
    let citations = rollup::series(c, from, to, !daily, "citations", "issued").await?;
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
        let code = offence.code();
        let narrow = |outcome: Option<Outcome>| ReportFilter {
            offence: Some(offence),
            outcome,
            ..ReportFilter::default()
        };
        f.rows.push(FigureRow {
            label: format!("{} {}", offence.reference(), offence.title()),
            counts: vec![
                count(period, persons.sum(|o, _| o == code), narrow(None)),
                count(
                    period,
                    persons.sum(|o, outcome| o == code && outcome == "cited"),
                    narrow(Some(Outcome::Cited)),
                ),
                count(
                    period,
                    persons.sum(|o, outcome| o == code && outcome == "arrested"),
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
            label: outcome.label(),
            counts: vec![count(
                period,
                persons.with_outcome(code),
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
    let complied = persons.response("complied");
    let refused = persons.response("refused");
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

fn protected(period: &Period, counts: &Counts) -> Figure {
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
        f.rows.push(FigureRow {
            label: p.label().into(),
            counts: vec![count(
                period,
                counts.get("protected", p.code()),
                ReportFilter {
                    protected: Some(p),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    f
}

fn by_officer(
    period: &Period,
    counts: &Counts,
    officers: &[(String, String, Option<String>)],
) -> Figure {
    let mut rows: Vec<(&str, &str, Option<&str>, i64, i64)> = counts
        .of("officer")
        .into_iter()
        .filter_map(|(id, incidents, _)| {
            let (_, name, badge) = officers.iter().find(|(user, _, _)| user == id)?;
            Some((
                id,
                name.as_str(),
                badge.as_deref(),
                incidents,
                counts.get("officer_citations", id),
            ))
        })
        .collect();
    rows.sort_by(|a, b| b.3.cmp(&a.3).then_with(|| a.1.cmp(b.1)));
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
            label: officer_label(name, badge),
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
    f
}

fn by_hour(period: &Period, counts: &Counts) -> Figure {
    let mut f = figure(
        "by_hour",
        "By hour of the day (Town time)",
        "Hour",
        &["Incidents"],
        Chart::Columns,
    );
    for hour in 0..24u8 {
        f.rows.push(FigureRow {
            label: format!("{hour:02}:00"),
            counts: vec![count(
                period,
                counts.get("hour", &hour.to_string()),
                ReportFilter {
                    hour: Some(hour),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    f
}

fn by_weekday(period: &Period, counts: &Counts) -> Figure {
    let mut f = figure(
        "by_weekday",
        "By day of the week",
        "Day",
        &["Incidents"],
        Chart::Columns,
    );
    for (day, name) in WEEKDAYS.iter().enumerate() {
        f.rows.push(FigureRow {
            label: (*name).into(),
            counts: vec![count(
                period,
                counts.get("weekday", &day.to_string()),
                ReportFilter {
                    weekday: Some(day as u8),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    f
}

/// The `TOP` keys of `measure` by count, most first; ties in the order of
/// `tie` (the label shown), as `ORDER BY n DESC, label` would give.
fn top<'c>(
    counts: &'c Counts,
    measure: &str,
    tie: impl Fn(&'c str, Option<&'c str>) -> String,
) -> Vec<(String, i64, &'c str)> {
    let mut rows: Vec<(String, i64, &str)> = counts
        .of(measure)
        .into_iter()
        .map(|(key, n, label)| (tie(key, label), n, key))
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows.truncate(TOP);
    rows
}

fn top_locations(period: &Period, counts: &Counts) -> Figure {
    let mut f = figure(
        "top_locations",
        "Top locations, by typed address",
        "Location",
        &["Incidents"],
        Chart::Bars,
    );
    for (location, n, _) in top(counts, "location", |key, label| {
        label.unwrap_or(key).to_owned()
    }) {
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
    f
}

fn gps_cells(period: &Period, counts: &Counts) -> Figure {
    let mut f = figure(
        "gps_cells",
        "Top locations, by GPS fix",
        "Area (centre)",
        &["Incidents"],
        Chart::Bars,
    );
    f.note = Some("Fixes grouped in cells of 1/200° (about 550 m by 400 m).".into());
    let cell = |key: &str| {
        let (lat, lon) = key.split_once(' ')?;
        Some(GpsCell {
            lat_index: lat.parse().ok()?,
            lon_index: lon.parse().ok()?,
        })
    };
    // A cell is named by a place typed in it (the first in the alphabet, as
    // the counts keep), with its centre: coordinates alone name nothing.
    let names: std::collections::HashMap<&str, &str> = counts
        .of("gps_cell")
        .into_iter()
        .filter_map(|(key, _, label)| label.map(|l| (key, l)))
        .collect();
    // Ties in the order of the cell's indexes, as numbers.
    for (_, n, key) in top(counts, "gps_cell", |key, _| {
        cell(key).map_or_else(String::new, |c| {
            format!("{:012}{:012}", c.lat_index, c.lon_index)
        })
    }) {
        let Some(cell) = cell(key) else {
            continue;
        };
        let (la, lo) = cell.centre();
        let centre = format!("{la:.4}, {lo:.4}");
        f.rows.push(FigureRow {
            label: names.get(key).map_or_else(
                || centre.clone(),
                |place| format!("Near {place} ({centre})"),
            ),
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
    f
}

/// A bias-audit figure: persons by the officer's perception, cited or arrested
/// beside warned or complied. `measure` counts `perception|outcome`.
fn perceived(
    period: &Period,
    persons: &Persons,
    measure: &str,
    key: &str,
    title: &str,
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
    let rows = persons.0.of(measure);
    let split = |k: &str| k.split_once('|').map(|(p, o)| (p.to_owned(), o.to_owned()));
    let mut codes: Vec<String> = rows
        .iter()
        .filter_map(|(k, _, _)| split(k))
        .map(|(p, _)| p)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    for code in codes {
        let Some((label, narrow)) = describe(&code) else {
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
            count(
                period,
                persons
                    .0
                    .get(measure, &format!("{code}|{}", outcome.code())),
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

fn returns_and_voids(period: &Period, counts: &Counts) -> Figure {
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
        f.rows.push(FigureRow {
            label: label.into(),
            counts: vec![count(
                period,
                counts.get("decision", kind.code()),
                ReportFilter {
                    decided: Some(kind),
                    ..ReportFilter::default()
                },
            )],
        });
    }
    f
}

/// The default period: the 365 days up to today, in the Town's calendar.
pub fn last_365_days(zone: &domain::town_time::TownZone, now: domain::ordinance::Moment) -> Period {
    Period {
        from: zone.date(domain::ordinance::Moment(now.0 - 364 * 86_400_000)),
        to: zone.date(now),
    }
}
