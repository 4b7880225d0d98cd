//! The dashboard: its SQL aggregates against a naive count of the same seeded
//! rows, its links against the register, its CSV, and the seed command's rules.

mod support;

use std::collections::BTreeMap;

use app::model::account::Role;
use app::model::dashboard::Dashboard;
use app::model::review::GpsCell;
use app::model::text::grouped;
use app::ordinance::Moment;
use app::store::seed::{seed, SeedPlan};
use axum::http::StatusCode;
use serde_json::json;
use support::{refusal_report, TestApp, START};

const DAY: i64 = 86_400_000;

async fn seeded(incidents: u64, seed_value: u64) -> TestApp {
    let app = TestApp::new().await;
    let plan = SeedPlan {
        incidents,
        seed: seed_value,
        force: false,
    };
    seed(&app.state.store, &app.state.settings.town_zone, plan, START)
        .await
        .expect("seed");
    app
}

/// The whole seeded year as the dashboard's period.
fn whole_year(app: &TestApp) -> (String, String) {
    let zone = &app.state.settings.town_zone;
    (zone.date(Moment(START.0 - 366 * DAY)), zone.date(START))
}

async fn dashboard(app: &TestApp, chief: &str, from: &str, to: &str) -> Dashboard {
    let reply = app
        .post(
            "/api/dashboard",
            json!({ "period": { "from": from, "to": to } }),
            Some(chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    serde_json::from_str(&reply.body).expect("dashboard json")
}

/// A figure as label → counts.
fn table(d: &Dashboard, key: &str) -> BTreeMap<String, Vec<i64>> {
    d.figure(key)
        .unwrap_or_else(|| panic!("figure {key}"))
        .rows
        .iter()
        .map(|r| (r.label.clone(), r.counts.iter().map(|c| c.value).collect()))
        .collect()
}

#[derive(sqlx::FromRow)]
struct Incident {
    incident_id: String,
    officer: String,
    local_date: String,
    local_hour: i64,
    local_weekday: i64,
    protected_activity: String,
    location_text: String,
    gps_lat: Option<f64>,
    gps_lon: Option<f64>,
}

#[derive(sqlx::FromRow)]
struct Person {
    incident_id: String,
    offence: Option<String>,
    outcome: String,
    response: String,
    perceived_race: String,
}

fn bump(map: &mut BTreeMap<String, Vec<i64>>, key: String, column: usize, width: usize) {
    map.entry(key).or_insert_with(|| vec![0; width])[column] += 1;
}

#[tokio::test]
async fn the_dashboards_figures_equal_a_naive_count_of_the_seeded_rows_over_any_period() {
    let app = seeded(1_500, 42).await;
    app.user("carla", &[Role::Chief]).await;
    let chief = app.session("carla").await;
    let (from, to) = whole_year(&app);
    // The counts are added up per day, month and year; these periods read every
    // grain and every kind of edge (part months on both sides, a whole year, one day).
    let busiest: String = sqlx::query_scalar(
        "SELECT local_date FROM incident GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT 1",
    )
    .fetch_one(&app.state.store.reader)
    .await
    .expect("a day");
    let year_before = format!("{}-12-15", &from[..4].parse::<i32>().expect("year") - 1);
    for (first, last) in [
        (from.clone(), to.clone()),
        (year_before, to.clone()),
        (from.clone(), format!("{}-12-31", &from[..4])),
        (format!("{}-15", &from[..7]), format!("{}-14", &to[..7])),
        (busiest.clone(), busiest),
    ] {
        assert_equals_a_naive_count(&app, &chief, &first, &last).await;
    }
    // The seed makes every kind of record these figures count.
    for (table, filter) in [
        ("subject", "offence = '52-2'"),
        ("review_decision", "action = 'return'"),
        ("review_decision", "action = 'void'"),
        ("citation", "paid_cents > 0"),
        ("citation", "status = 'filed'"),
    ] {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {filter}"))
            .fetch_one(&app.state.store.reader)
            .await
            .expect("count");
        assert!(n > 0, "the seed makes {table} where {filter}");
    }
}

#[tokio::test]
async fn the_dashboard_follows_records_changed_after_it_was_read() {
    let app = seeded(300, 7).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("olga", &[Role::Officer]).await;
    let chief = app.session("carla").await;
    let officer = app.session("olga").await;
    let (from, to) = whole_year(&app);
    assert_equals_a_naive_count(&app, &chief, &from, &to).await;

    // A new report, a voided citation, and a report moved to another day (an edit
    // made behind the store's back, so the triggers alone must notice it).
    let reply = app.submit(&officer, &refusal_report(app.clock_now())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let number: String = sqlx::query_scalar(
        "SELECT number FROM citation WHERE status IN ('issued', 'approved') ORDER BY seq LIMIT 1",
    )
    .fetch_one(&app.state.store.reader)
    .await
    .expect("a citation to void");
    let reply = app
        .post(
            "/api/review/void",
            json!({ "number": number, "reason": "Wrong person identified" }),
            Some(&chief),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    sqlx::query(
        "UPDATE incident SET local_date = $1 WHERE incident_id = \
         (SELECT incident_id FROM incident WHERE local_date > $2 ORDER BY local_date LIMIT 1)",
    )
    .bind(&from)
    .bind(&from)
    .execute(&app.state.store.writer)
    .await
    .expect("move a report");
    // And one moved to another named area (the summary's map and place table).
    sqlx::query(
        "UPDATE incident SET gps_lat = 43.3361, gps_lon = -70.5525 WHERE incident_id = \
         (SELECT incident_id FROM incident WHERE gps_lat IS NULL OR gps_lat < 43.33 \
          ORDER BY local_date DESC LIMIT 1)",
    )
    .execute(&app.state.store.writer)
    .await
    .expect("move a fix");

    assert_equals_a_naive_count(&app, &chief, &from, &to).await;
    let stale: i64 = app.count("dashboard_stale").await;
    assert_eq!(stale, 0, "the read recounted every changed day");
}

/// Reads the dashboard of `from..=to` and checks every figure against the
/// records counted here, one by one.
async fn assert_equals_a_naive_count(app: &TestApp, chief: &str, from: &str, to: &str) {
    let (from, to) = (from.to_owned(), to.to_owned());
    let d = dashboard(app, chief, &from, &to).await;

    // Every row, read plainly, then counted here.
    let pool = &app.state.store.reader;
    let incidents: Vec<Incident> = sqlx::query_as(
        "SELECT i.incident_id, u.full_name || ' (badge ' || u.badge_number || ')' AS officer, i.local_date, \
         i.local_hour, i.local_weekday, i.protected_activity, i.location_text, i.gps_lat, i.gps_lon \
         FROM incident i JOIN app_user u ON u.user_id = i.officer_id",
    )
    .fetch_all(pool)
    .await
    .expect("incidents");
    let in_period: BTreeMap<String, &Incident> = incidents
        .iter()
        .filter(|i| i.local_date >= from && i.local_date <= to)
        .map(|i| (i.incident_id.clone(), i))
        .collect();
    assert!(!in_period.is_empty(), "{from}..{to} holds seeded incidents");
    let persons: Vec<Person> = sqlx::query_as(
        "SELECT incident_id, offence, outcome, response, perceived_race FROM subject WHERE withdrawn_at IS NULL",
    )
    .fetch_all(pool)
    .await
    .expect("persons");
    let persons: Vec<&Person> = persons
        .iter()
        .filter(|p| in_period.contains_key(&p.incident_id))
        .collect();
    let citations: Vec<(String, String)> =
        sqlx::query_as("SELECT incident_id, status FROM citation")
            .fetch_all(pool)
            .await
            .expect("citations");
    let citations: Vec<&(String, String)> = citations
        .iter()
        .filter(|(i, _)| in_period.contains_key(i))
        .collect();

    // By hour and weekday.
    let mut hours = BTreeMap::new();
    let mut days = BTreeMap::new();
    for i in in_period.values() {
        bump(&mut hours, format!("{:02}:00", i.local_hour), 0, 1);
        bump(
            &mut days,
            app::model::dashboard::WEEKDAYS[i.local_weekday as usize].to_owned(),
            0,
            1,
        );
    }
    let nonzero = |t: BTreeMap<String, Vec<i64>>| -> BTreeMap<String, Vec<i64>> {
        t.into_iter()
            .filter(|(_, v)| v.iter().any(|n| *n > 0))
            .collect()
    };
    assert_eq!(nonzero(table(&d, "by_hour")), hours);
    assert_eq!(nonzero(table(&d, "by_weekday")), days);

    // §52-1 E screening.
    let mut screened = BTreeMap::new();
    for i in in_period.values() {
        let p = app::ordinance::ProtectedActivity::ALL
            .into_iter()
            .find(|p| p.code() == i.protected_activity)
            .expect("known answer");
        bump(&mut screened, p.label().to_owned(), 0, 1);
    }
    assert_eq!(nonzero(table(&d, "protected")), screened);

    // Persons charged by offence: charged, cited, arrested.
    let mut offences = BTreeMap::new();
    for p in &persons {
        if let Some(code) = &p.offence {
            let o = app::ordinance::Offence::from_code(code).expect("offence");
            let label = format!("{} {}", o.reference(), o.title());
            bump(&mut offences, label.clone(), 0, 3);
            match p.outcome.as_str() {
                "cited" => bump(&mut offences, label, 1, 3),
                "arrested" => bump(&mut offences, label, 2, 3),
                _ => {}
            }
        }
    }
    assert_eq!(nonzero(table(&d, "by_offence")), offences);

    // Outcomes, and the compliance rate's parts.
    let mut outcomes = BTreeMap::new();
    for p in &persons {
        let o = app::ordinance::Outcome::ALL
            .into_iter()
            .find(|o| o.code() == p.outcome)
            .expect("outcome");
        bump(&mut outcomes, o.label().to_owned(), 0, 1);
    }
    assert_eq!(nonzero(table(&d, "outcomes")), outcomes);
    let complied = persons.iter().filter(|p| p.response == "complied").count() as i64;
    let refused = persons.iter().filter(|p| p.response == "refused").count() as i64;
    let after = table(&d, "after_order");
    assert_eq!(after["Complied"], vec![complied]);
    assert_eq!(after["Failed or refused to obey"], vec![refused]);
    let rate = d
        .totals
        .iter()
        .find(|t| t.label.starts_with("Complied"))
        .expect("rate");
    assert_eq!(
        rate.value,
        app::model::dashboard::percent(complied, complied + refused)
    );

    // By officer: incidents and citations not void.
    let mut officers = BTreeMap::new();
    for i in in_period.values() {
        bump(&mut officers, i.officer.clone(), 0, 2);
    }
    for (incident, status) in &citations {
        if status != "void" {
            bump(&mut officers, in_period[incident].officer.clone(), 1, 2);
        }
    }
    assert_eq!(table(&d, "by_officer"), officers);

    // Citations over time, by day up to 62 days, else by month.
    let day = |d: &str| app::model::dashboard::day_number(d).expect("date");
    let width = if day(&to) - day(&from) < 62 { 10 } else { 7 };
    let mut months = BTreeMap::new();
    for i in in_period.values() {
        bump(&mut months, i.local_date[..width].to_owned(), 0, 2);
    }
    for (incident, status) in &citations {
        if status != "void" {
            bump(
                &mut months,
                in_period[incident].local_date[..width].to_owned(),
                1,
                2,
            );
        }
    }
    assert_eq!(nonzero(table(&d, "over_time")), months);

    // Top ten locations and GPS cells, ties by name / cell.
    let top = |counts: BTreeMap<String, i64>| -> Vec<(String, i64)> {
        let mut v: Vec<_> = counts.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v.truncate(10);
        v
    };
    let mut places = BTreeMap::new();
    for i in in_period.values() {
        *places.entry(i.location_text.clone()).or_insert(0) += 1;
    }
    let shown: Vec<(String, i64)> = d
        .figure("top_locations")
        .expect("locations")
        .rows
        .iter()
        .map(|r| (r.label.clone(), r.counts[0].value))
        .collect();
    assert_eq!(shown, top(places));
    let mut cells: BTreeMap<GpsCell, i64> = BTreeMap::new();
    for i in in_period.values() {
        if let (Some(lat), Some(lon)) = (i.gps_lat, i.gps_lon) {
            *cells.entry(GpsCell::of(lat, lon)).or_insert(0) += 1;
        }
    }
    let mut cells: Vec<(GpsCell, i64)> = cells.into_iter().collect();
    cells.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    cells.truncate(10);
    let shown: Vec<(Option<GpsCell>, i64)> = d
        .figure("gps_cells")
        .expect("cells")
        .rows
        .iter()
        .map(|r| {
            (
                r.counts[0].filter.as_ref().and_then(|f| f.cell),
                r.counts[0].value,
            )
        })
        .collect();
    assert_eq!(
        shown,
        cells
            .into_iter()
            .map(|(c, n)| (Some(c), n))
            .collect::<Vec<_>>()
    );

    // Bias audit: perceived race, cited / arrested / warned / complied.
    let mut races = BTreeMap::new();
    for p in &persons {
        let label = app::model::incident::PerceivedRace::from_code(&p.perceived_race)
            .expect("race")
            .label()
            .to_owned();
        let column = match p.outcome.as_str() {
            "cited" => 0,
            "arrested" => 1,
            "warned" => 2,
            "complied" => 3,
            _ => {
                races.entry(label).or_insert_with(|| vec![0; 4]);
                continue;
            }
        };
        bump(&mut races, label, column, 4);
    }
    assert_eq!(table(&d, "perceived_race"), races);

    // Returns and voids, from the decisions.
    let decisions: Vec<(String, String)> =
        sqlx::query_as("SELECT incident_id, action FROM review_decision")
            .fetch_all(pool)
            .await
            .expect("decisions");
    let count = |action: &str| {
        decisions
            .iter()
            .filter(|(i, a)| a == action && in_period.contains_key(i))
            .count() as i64
    };
    let decided = table(&d, "returns_voids");
    assert_eq!(decided["Returned to the officer"], vec![count("return")]);
    assert_eq!(decided["Citation voided"], vec![count("void")]);

    // Money at court (§52-4: $100 plus costs): paid, and assessed but unpaid or
    // the fine of a filed citation the court has not decided.
    type Money = (
        String,
        String,
        Option<String>,
        Option<i64>,
        Option<i64>,
        Option<i64>,
    );
    let money: Vec<Money> = sqlx::query_as(
        "SELECT incident_id, status, disposition, fine_assessed_cents, costs_assessed_cents, paid_cents \
         FROM citation",
    )
    .fetch_all(pool)
    .await
    .expect("money");
    let (mut collected, mut outstanding) = (0, 0);
    for (incident, status, disposition, fine, costs, paid) in &money {
        if !in_period.contains_key(incident) {
            continue;
        }
        collected += paid.unwrap_or(0);
        outstanding += match disposition.as_deref() {
            Some("admitted" | "guilty" | "defaulted") => {
                (fine.unwrap_or(0) + costs.unwrap_or(0) - paid.unwrap_or(0)).max(0)
            }
            _ if status == "filed" => 10_000,
            _ => 0,
        };
    }
    let total = |label: &str| {
        d.totals
            .iter()
            .find(|t| t.label.starts_with(label))
            .map(|t| t.value.clone())
            .unwrap_or_else(|| panic!("total {label}"))
    };
    assert_eq!(total("Collected"), app::model::court::dollars(collected));
    assert_eq!(
        total("Outstanding"),
        app::model::court::dollars(outstanding)
    );
    assert_eq!(total("Incidents"), grouped(in_period.len() as i64));
    assert_eq!(total("Persons"), grouped(persons.len() as i64));

    assert_summary_equals_a_naive_count(app, &d, &in_period).await;
}

/// The summary (issue #37) against the rows: the month of `to` against the
/// month before, every named area by offence and outcome, and the order's
/// outcome by perceived group.
async fn assert_summary_equals_a_naive_count(
    app: &TestApp,
    d: &Dashboard,
    in_period: &BTreeMap<String, &Incident>,
) {
    use app::model::dashboard::Outcomes;
    use app::model::transparency::area::NamedArea;
    let pool = &app.state.store.reader;
    type Row = (
        String,
        String,
        Option<String>,
        String,
        String,
        String,
        String,
        String,
        i64,
    );
    // One row per charge (a person without one: offence NULL).
    let charges: Vec<Row> = sqlx::query_as(
        "SELECT s.incident_id, s.subject_id, ch.offence, s.outcome, s.response, s.perceived_age, \
         s.perceived_sex, s.perceived_race, CAST(s.organisation AS BIGINT) FROM subject s \
         LEFT JOIN charge ch ON ch.subject_id = s.subject_id WHERE s.withdrawn_at IS NULL",
    )
    .fetch_all(pool)
    .await
    .expect("charges");
    let area = |incident: &Incident| {
        NamedArea::of(incident.gps_lat.zip(incident.gps_lon))
            .code()
            .to_owned()
    };
    let mut persons: BTreeMap<String, Outcomes> = BTreeMap::new();
    let mut cells: BTreeMap<(String, String), Outcomes> = BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    // (dimension, label) → (ordered, complied, cited)
    let mut groups: BTreeMap<(String, String), (i64, i64, i64)> = BTreeMap::new();
    for (incident, subject, offence, outcome, response, age, sex, race, organisation) in &charges {
        let Some(i) = in_period.get(incident) else {
            continue;
        };
        let a = area(i);
        cells
            .entry((a.clone(), offence.clone().unwrap_or_default()))
            .or_default()
            .add(outcome, 1);
        if !seen.insert(subject.clone()) {
            continue;
        }
        persons.entry(a).or_default().add(outcome, 1);
        if *organisation == 1 || !(response == "complied" || response == "refused") {
            continue;
        }
        let cited = response == "refused"
            && app::ordinance::Outcome::from_code(outcome).is_some_and(|o| o.is_citation());
        for (dimension, label) in [
            (
                "Perceived age",
                app::model::incident::AgeRange::from_code(age).map(|a| a.label()),
            ),
            (
                "Perceived sex",
                app::model::incident::PerceivedSex::from_code(sex).map(|a| a.label()),
            ),
            (
                "Perceived race",
                app::model::incident::PerceivedRace::from_code(race).map(|a| a.label()),
            ),
        ] {
            let g = groups
                .entry((dimension.to_owned(), label.expect("known").to_owned()))
                .or_default();
            g.0 += 1;
            g.1 += i64::from(response == "complied");
            g.2 += i64::from(cited);
        }
    }
    let places = &d.summary.places;
    assert_eq!(places.rows.len(), NamedArea::ALL.len(), "every named area");
    let offences = app::ordinance::Offence::ALL;
    for row in &places.rows {
        assert_eq!(
            row.persons,
            persons.get(&row.area).copied().unwrap_or_default(),
            "{}",
            row.label
        );
        for (column, cell) in row.cells.iter().enumerate() {
            let offence = offences.get(column).map_or("", |o| o.code());
            assert_eq!(
                *cell,
                cells
                    .get(&(row.area.clone(), offence.to_owned()))
                    .copied()
                    .unwrap_or_default(),
                "{} × {offence}",
                row.label
            );
        }
    }
    let shown: BTreeMap<(String, String), (i64, i64, i64)> = d
        .summary
        .groups
        .iter()
        .map(|g| {
            (
                (g.dimension.clone(), g.label.clone()),
                (g.ordered, g.complied, g.cited),
            )
        })
        .collect();
    assert_eq!(shown, groups);

    // The month of the period's last day (today at the latest), and the same
    // days of the month before.
    let today: jiff::civil::Date = app
        .state
        .settings
        .town_zone
        .date(app.clock_now())
        .parse()
        .expect("today");
    let to: jiff::civil::Date = d
        .period
        .to
        .parse::<jiff::civil::Date>()
        .expect("to")
        .min(today);
    let first = to.first_of_month();
    let before_first = first.yesterday().expect("a day before").first_of_month();
    let before = before_first
        .with()
        .day(to.day().min(before_first.days_in_month()))
        .build()
        .expect("the same day of last month");
    let month = |from: jiff::civil::Date, to: jiff::civil::Date| async move {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT s.outcome, s.response FROM subject s JOIN incident i ON i.incident_id = s.incident_id \
             WHERE s.withdrawn_at IS NULL AND i.local_date BETWEEN $1 AND $2",
        )
        .bind(from.to_string())
        .bind(to.to_string())
        .fetch_all(pool)
        .await
        .expect("month");
        let n = |pick: &dyn Fn(&str, &str) -> bool| {
            rows.iter().filter(|(o, r)| pick(o, r)).count() as i64
        };
        vec![
            n(&|_, r| r == "complied" || r == "refused"),
            n(&|_, r| r == "complied"),
            n(&|o, _| matches!(o, "cited" | "arrested" | "cited_gathering")),
            n(&|o, _| o == "protected_activity"),
            n(&|o, _| matches!(o, "warned" | "departed")),
        ]
    };
    let this = month(first, to).await;
    let last = month(before_first, before).await;
    let rows = &d.summary.months.rows;
    assert_eq!(
        rows.iter().map(|r| r.this_month).collect::<Vec<_>>(),
        this,
        "this month"
    );
    assert_eq!(
        rows.iter().map(|r| r.last_month).collect::<Vec<_>>(),
        last,
        "last month"
    );
}

/// Pages through the register with `filter` and counts the incidents.
async fn register_count(app: &TestApp, chief: &str, filter: &serde_json::Value) -> i64 {
    register_ids(app, chief, filter).await.len() as i64
}

#[tokio::test]
async fn every_incident_count_links_to_exactly_the_register_rows_behind_it() {
    let app = seeded(600, 9).await;
    app.user("carla", &[Role::Chief]).await;
    let chief = app.session("carla").await;
    let (from, to) = whole_year(&app);
    let d = dashboard(&app, &chief, &from, &to).await;
    let mut checked = 0;
    for key in [
        "by_weekday",
        "protected",
        "by_officer",
        "top_locations",
        "gps_cells",
        "over_time",
    ] {
        for row in &d.figure(key).expect("figure").rows {
            for count in &row.counts {
                let Some(filter) = &count.filter else {
                    assert_eq!(
                        count.value, 0,
                        "{key} {}: a count without a link",
                        row.label
                    );
                    continue;
                };
                let filter = serde_json::to_value(filter).expect("filter");
                let listed = register_count(&app, &chief, &filter).await;
                // Incident counts match exactly; citation counts are of
                // citations, and the register lists their incidents.
                if key == "by_officer" || key == "over_time" {
                    assert!(
                        listed >= 1 && listed <= count.value,
                        "{key} {}: {listed} vs {}",
                        row.label,
                        count.value
                    );
                } else {
                    assert_eq!(listed, count.value, "{key} {}", row.label);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 30, "checked {checked} links");
    // Person counts: the register lists at most as many incidents as persons.
    for row in &d.figure("perceived_race").expect("race").rows {
        for count in row.counts.iter().filter(|c| c.value > 0) {
            let filter =
                serde_json::to_value(count.filter.as_ref().expect("link")).expect("filter");
            let listed = register_count(&app, &chief, &filter).await;
            assert!(
                listed >= 1 && listed <= count.value,
                "{}: {listed} vs {}",
                row.label,
                count.value
            );
        }
    }
}

#[tokio::test]
async fn the_csv_is_the_chiefs_and_neutralises_formulas_in_typed_locations() {
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    let officer = app.session("oscar").await;
    let chief = app.session("carla").await;
    let mut report = refusal_report(app.clock_now());
    report.location.text = "=HYPERLINK(\"http://evil.example\",\"Mile Road\")".into();
    let sent = app.submit(&officer, &report).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    let zone = &app.state.settings.town_zone;
    let day = zone.date(app.clock_now());
    let path = format!("/dashboard/top_locations.csv?from={day}&to={day}");

    let denied = app.get(&path, Some(&officer)).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    let csv = app.get(&path, Some(&chief)).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    assert!(csv.headers["content-type"]
        .to_str()
        .unwrap_or_default()
        .starts_with("text/csv"));
    let mut reader = csv::Reader::from_reader(csv.body.as_bytes());
    assert_eq!(
        reader.headers().expect("header").iter().collect::<Vec<_>>(),
        ["Location", "Incidents"]
    );
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.expect("record").iter().map(str::to_owned).collect())
        .collect();
    assert_eq!(
        rows,
        vec![vec![format!("'{}", report.location.text), "1".to_owned()]]
    );

    let unknown = app
        .get(
            &format!("/dashboard/nothing.csv?from={day}&to={day}"),
            Some(&chief),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let backwards = app
        .get(
            "/dashboard/by_hour.csv?from=2026-12-31&to=2026-01-01",
            Some(&chief),
        )
        .await;
    assert_eq!(backwards.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn seeding_is_deterministic_and_refuses_a_database_with_real_records() {
    let digest = |app: &TestApp| {
        let pool = app.state.store.reader.clone();
        async move {
            let rows: Vec<(i64, String, String, String)> = sqlx::query_as(
                "SELECT i.occurred_at, i.location_text, s.outcome, COALESCE(c.number, '') \
                 FROM incident i JOIN subject s ON s.incident_id = i.incident_id \
                 LEFT JOIN citation c ON c.subject_id = s.subject_id \
                 ORDER BY i.occurred_at, i.incident_id, s.position, c.number",
            )
            .fetch_all(&pool)
            .await
            .expect("digest");
            format!("{rows:?}")
        }
    };
    let a = seeded(300, 5).await;
    let b = seeded(300, 5).await;
    let c = seeded(300, 6).await;
    assert_eq!(digest(&a).await, digest(&b).await);
    assert_ne!(digest(&a).await, digest(&c).await);
    assert_eq!(a.count("incident").await, 300);

    // A real report makes the database off limits without --force.
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    let officer = app.session("oscar").await;
    let sent = app.submit(&officer, &refusal_report(app.clock_now())).await;
    assert_eq!(sent.status, StatusCode::OK);
    let zone = &app.state.settings.town_zone;
    let plan = SeedPlan {
        incidents: 10,
        seed: 1,
        force: false,
    };
    let refused = seed(&app.state.store, zone, plan, START).await;
    assert!(matches!(
        refused,
        Err(app::error::AppError::Conflict { .. })
    ));
    assert_eq!(app.count("incident").await, 1);
    let forced = seed(
        &app.state.store,
        zone,
        SeedPlan {
            force: true,
            ..plan
        },
        START,
    )
    .await
    .expect("forced");
    assert_eq!(forced.incidents, 10);
    assert_eq!(app.count("incident").await, 11);
    assert_eq!(app.audit_actions("seed.run").await.len(), 1);
}

/// Every incident of the register for `filter`, in the register's order.
async fn register_ids(app: &TestApp, chief: &str, filter: &serde_json::Value) -> Vec<String> {
    let mut after = serde_json::Value::Null;
    let mut ids = Vec::new();
    loop {
        let reply = app
            .post(
                "/api/register/search",
                json!({ "filter": filter, "after": after }),
                Some(chief),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        let page = reply.json();
        for row in page["rows"].as_array().expect("rows") {
            ids.push(row["incident_id"].as_str().expect("id").to_owned());
        }
        if page["next"].is_null() {
            return ids;
        }
        after = page["next"].clone();
    }
}

#[tokio::test]
async fn a_common_text_and_a_rare_one_each_find_exactly_what_a_plain_search_finds() {
    let app = seeded(2_000, 11).await;
    app.user("carla", &[Role::Chief]).await;
    let chief = app.session("carla").await;
    let pool = &app.state.store.reader;
    let rare: String = sqlx::query_scalar(
        "SELECT full_name FROM subject WHERE full_name IS NOT NULL GROUP BY 1 ORDER BY COUNT(*), 1 LIMIT 1",
    )
    .fetch_one(pool)
    .await
    .expect("a rare name");
    let surname = rare.rsplit(' ').next().unwrap_or_default().to_owned();
    let number: String =
        sqlx::query_scalar("SELECT number FROM citation ORDER BY seq LIMIT 1 OFFSET 40")
            .fetch_one(pool)
            .await
            .expect("a number");
    let number_part = number[number.len() - 6..].to_owned();
    let incidents = app.count("incident").await;
    let dense = app::store::register::dense_from(incidents);
    // Any part of a place, a name or description, or a citation number, any
    // case (ASCII): issue #16's "Goodwin", "Marketplace", "000083".
    for (text, common) in [
        ("Wells", true),
        ("wells harbor", false),
        ("arbor", false),
        (rare.as_str(), false),
        (surname.as_str(), false),
        (number_part.as_str(), false),
    ] {
        // LIKE as SQLite reads it: ASCII case folded (ILIKE on PostgreSQL).
        let like = app.state.store.backend.like();
        let plain = format!(
            "SELECT incident_id FROM incident i WHERE i.location_text {like} '%' || $1 || '%' \
             OR EXISTS (SELECT 1 FROM subject s WHERE s.incident_id = i.incident_id AND s.withdrawn_at IS NULL \
                        AND COALESCE(s.full_name, s.description) {like} '%' || $1 || '%') \
             OR EXISTS (SELECT 1 FROM citation c WHERE c.incident_id = i.incident_id AND c.number {like} '%' || $1 || '%') \
             ORDER BY occurred_at DESC, incident_id DESC"
        );
        let expected: Vec<String> = sqlx::query_scalar(&plain)
            .bind(text)
            .fetch_all(pool)
            .await
            .expect("plain search");
        assert!(!expected.is_empty(), "{text} is in the seed");
        if common {
            assert!(
                expected.len() as i64 >= dense,
                "{text}: {} of {incidents}",
                expected.len()
            );
        }
        assert_eq!(
            register_ids(&app, &chief, &json!({ "text": text })).await,
            expected,
            "{text}"
        );
    }
    // Two characters find the start of a name or place (the index needs three).
    let expected: Vec<String> = sqlx::query_scalar(
        "SELECT incident_id FROM incident i WHERE i.location_text LIKE 'Mi%' \
         OR EXISTS (SELECT 1 FROM subject s WHERE s.incident_id = i.incident_id AND s.full_name LIKE 'Mi%') \
         ORDER BY occurred_at DESC, incident_id DESC",
    )
    .fetch_all(pool)
    .await
    .expect("prefix search");
    assert_eq!(
        register_ids(&app, &chief, &json!({ "text": "Mi" })).await,
        expected
    );
}

/// Issue #33, finding 16: "Citations issued (§52-4)" counted §52-7 citations
/// (fined under §52-12). Each article's citations count under its own section;
/// and a filed citation the Town withdrew is no longer owed.
#[tokio::test]
async fn each_articles_citations_count_under_their_own_penalty_section() {
    use app::ordinance::article_ii::enforcement::{
        Count, CountMethod, GatheringRole, GatheringScene, PermitCheck,
    };
    use app::ordinance::{Charge, Conduct, Offence, Response};
    let app = TestApp::new().await;
    app.user("oscar", &[Role::Officer]).await;
    app.user("carla", &[Role::Chief]).await;
    app.user("dana", &[Role::Clerk]).await;
    let (officer, chief, clerk) = (
        app.session("oscar").await,
        app.session("carla").await,
        app.session("dana").await,
    );
    let loitering = refusal_report(app.clock_now());
    let mut gathering = refusal_report(app.clock_now());
    gathering.orders.clear();
    let promoter = &mut gathering.subjects[0];
    promoter.facts.conduct = Conduct {
        gathering: Some(GatheringRole::Promoter),
        ..Conduct::default()
    };
    promoter.facts.order = None;
    promoter.facts.response = Response::NoOrder;
    promoter.charges = vec![Charge {
        offence: Offence::UnpermittedMassGathering,
        issue_citation: true,
    }];
    // Counted twice, three hours apart: §52-7's continued attendance.
    let began = Moment(app.clock_now().0 - 200 * 60_000);
    gathering.occurred_at = began;
    let count = |minutes: u32, persons: u32| Count {
        at: began.plus_minutes(minutes),
        persons,
        method: CountMethod::GateCount,
    };
    gathering.gathering = Some(GatheringScene {
        outdoor: true,
        counted: 0,
        count_method: None,
        minutes: 0,
        venue: app::ordinance::article_ii::Venue::Open,
        permit: PermitCheck::none_found(),
        counts: vec![count(0, 2_400), count(180, 2_350)],
        intended: None,
    });
    let mut numbers = Vec::new();
    for report in [&loitering, &gathering] {
        let receipt = app.submit(&officer, report).await;
        assert_eq!(receipt.status, StatusCode::OK, "{}", receipt.body);
        numbers.push(receipt.json()["citations"][0]["number"].clone());
        let decided = app
            .post(
                "/api/review/decide",
                json!({ "incident_id": report.incident_id, "revision": 1, "action": { "action": "approve" } }),
                Some(&chief),
            )
            .await;
        assert_eq!(decided.status, StatusCode::OK, "{}", decided.body);
    }
    let today = app.state.settings.town_zone.date(app.clock_now());
    let totals = |d: &Dashboard| -> BTreeMap<String, String> {
        d.totals
            .iter()
            .map(|t| (t.label.clone(), t.value.clone()))
            .collect()
    };
    let d = totals(&dashboard(&app, &chief, &today, &today).await);
    assert_eq!(d["Citations issued — Article I (§52-4)"], "1", "{d:?}");
    assert_eq!(d["Citations issued — Article II (§52-12)"], "1", "{d:?}");

    // Filed, the §52-4 fine is owed; withdrawn by the chief's amendment, not.
    let filed = app
        .post(
            "/api/court/file",
            json!({ "filing": { "numbers": [numbers[0]], "filed_on": today, "reference": "R-1" } }),
            Some(&clerk),
        )
        .await;
    assert_eq!(filed.status, StatusCode::OK, "{}", filed.body);
    let d = totals(&dashboard(&app, &chief, &today, &today).await);
    let owed = |d: &BTreeMap<String, String>| {
        d.iter()
            .find(|(l, _)| l.starts_with("Outstanding"))
            .map(|(_, v)| v.clone())
            .expect("outstanding")
    };
    assert_eq!(owed(&d), "$100.00");
    let mut withdrawn = loitering.clone();
    withdrawn.subjects[0].charges[0].issue_citation = false;
    let amended = app
        .post(
            "/api/review/amend",
            json!({ "report": withdrawn, "reason": "No citation should have issued." }),
            Some(&chief),
        )
        .await;
    assert_eq!(amended.status, StatusCode::OK, "{}", amended.body);
    let d = totals(&dashboard(&app, &chief, &today, &today).await);
    assert_eq!(owed(&d), "$0.00", "{d:?}");
}

/// Issue #37, finding 17: the summary above the detail answers what, where and
/// to whom from known reports — this month against the last, by named area ×
/// offence × outcome, and the order's outcome by perceived group.
#[tokio::test]
async fn the_summary_counts_known_reports_by_month_area_offence_and_group() {
    use app::model::dashboard::Outcomes;
    use app::model::incident::{AgeRange, PerceivedSex};
    use app::ordinance::Response;
    let support::Desk {
        app,
        officer,
        chief,
        ..
    } = support::desk().await;
    let now = app.clock_now();
    // Refused and cited at the Town centre (the report's fix), this month.
    let cited = refusal_report(now);
    // Complied at Wells Beach, nothing charged.
    let mut complied = refusal_report(now);
    let person = &mut complied.subjects[0];
    person.facts.response = Response::Complied {
        at: Moment(now.0 - 18 * 60_000),
    };
    person.charges.clear();
    person.perceived.sex = PerceivedSex::Female;
    person.perceived.age_range = AgeRange::From18To24;
    if let Some(gps) = complied.location.gps.as_mut() {
        gps.latitude = 43.3196;
        gps.longitude = -70.5660;
    }
    // Refused and cited at the Town centre, moved to last month below.
    let earlier = refusal_report(now);
    for report in [&cited, &complied, &earlier] {
        let reply = app.submit(&officer, report).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let zone = &app.state.settings.town_zone;
    let today: jiff::civil::Date = zone.date(now).parse().expect("today");
    // The first of last month: the summary sets this month's days against the
    // same days of the last (a part of a month against a whole one read as a fall).
    let last_month = today
        .first_of_month()
        .yesterday()
        .expect("last month")
        .first_of_month();
    sqlx::query("UPDATE incident SET local_date = $1 WHERE incident_id = $2")
        .bind(last_month.to_string())
        .bind(earlier.incident_id.to_string())
        .execute(&app.state.store.writer)
        .await
        .expect("move to last month");

    let d = dashboard(
        &app,
        &chief,
        &last_month.first_of_month().to_string(),
        &today.to_string(),
    )
    .await;
    let s = &d.summary;
    // The test clock's today is 2026-07-04.
    assert_eq!(
        (s.months.this_month.as_str(), s.months.last_month.as_str()),
        ("1–4 July 2026", "1–4 June 2026")
    );
    let months: Vec<(&str, i64, i64)> = s
        .months
        .rows
        .iter()
        .map(|r| (r.label.as_str(), r.this_month, r.last_month))
        .collect();
    assert_eq!(
        months,
        vec![
            ("Ordered (§52-1 D)", 2, 1),
            ("Complied", 1, 0),
            ("Cited", 1, 1),
            ("Protected (§52-1 E)", 0, 0),
            ("Warned, or left before an order", 0, 0),
        ]
    );
    assert_eq!(s.months.rows[0].change(), "+1 (+100 %)");
    assert_eq!(s.months.rows[1].change(), "+1");
    assert_eq!(s.months.rows[2].change(), "no change");

    let row = |area: &str| {
        s.places
            .rows
            .iter()
            .find(|r| r.area == area)
            .unwrap_or_else(|| panic!("{area}"))
    };
    let centre = row("town_centre");
    assert_eq!(
        centre.persons,
        Outcomes {
            cited: 2,
            ..Outcomes::default()
        }
    );
    // §52-1 A(1) is the first offence column; the last is none charged.
    assert_eq!(centre.cells[0].cited, 2);
    assert_eq!(centre.cells.iter().map(Outcomes::total).sum::<i64>(), 2);
    let beach = row("wells_beach");
    assert_eq!(beach.persons.no_action, 1);
    assert_eq!(beach.cells.last().map(|c| c.no_action), Some(1));
    for other in [
        "drakes_island",
        "moody_beach",
        "wells_harbor",
        "route_1",
        "elsewhere",
        "not_given",
    ] {
        assert_eq!(row(other).persons.total(), 0, "{other}");
    }

    let group = |dimension: &str, label: &str| {
        s.groups
            .iter()
            .find(|g| g.dimension == dimension && g.label == label)
            .map(|g| (g.ordered, g.complied, g.cited, g.small()))
    };
    assert_eq!(group("Perceived sex", "Male"), Some((2, 0, 2, true)));
    assert_eq!(group("Perceived sex", "Female"), Some((1, 1, 0, true)));
    assert_eq!(group("Perceived age", "35–49"), Some((2, 0, 2, true)));
    assert_eq!(group("Perceived age", "18–24"), Some((1, 1, 0, true)));
    assert_eq!(group("Perceived race", "White"), Some((3, 1, 2, true)));
    // In the form's order: ages before sexes before races, each in its order.
    let order: Vec<&str> = s.groups.iter().map(|g| g.label.as_str()).collect();
    assert_eq!(order, ["18–24", "35–49", "Male", "Female", "White"]);

    // A report moved to another named area moves in the summary.
    sqlx::query("UPDATE incident SET gps_lat = 43.2722, gps_lon = -70.5868 WHERE incident_id = $1")
        .bind(cited.incident_id.to_string())
        .execute(&app.state.store.writer)
        .await
        .expect("move the fix");
    let d = dashboard(
        &app,
        &chief,
        &last_month.first_of_month().to_string(),
        &today.to_string(),
    )
    .await;
    let moody = d
        .summary
        .places
        .rows
        .iter()
        .find(|r| r.area == "moody_beach")
        .expect("moody");
    assert_eq!(moody.persons.cited, 1);
}
