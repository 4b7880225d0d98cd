//! The hot queries' plans do not depend on SQLite's statistics (issue #22): the
//! register under every filter, the review queue, "My reports", the clerk's
//! filing queue and the dashboard's counts walk an index, never scan or sort a
//! table — with no statistics, with statistics from `ANALYZE`, and with the
//! statistics that once made the register sort every incident for a page of 50.

mod support;

use app::model::review::{CautionKind, RegisterCursor, ReportFilter, ResponseKind};
use app::ordinance::{Offence, Outcome, ProtectedActivity};
use app::store::db::Pool;
use app::store::register::{plan, HotQuery};
use support::TestApp;

/// Statistics that say a dozen officers file about two thousand incidents each in
/// a million (what `sqlite_stat1` said of the benchmark's file in issue #22):
/// with them, SQLite planned the register from `app_user` and sorted every
/// incident of a dozen officers for a page of 50.
const MISLEADING: &[(&str, Option<&str>, &str)] = &[
    ("app_user", Some("sqlite_autoindex_app_user_1"), "14 1"),
    ("app_user", Some("sqlite_autoindex_app_user_2"), "14 1"),
    ("incident", None, "1000000"),
    ("incident", Some("incident_officer"), "1000000 2000 1"),
    (
        "incident",
        Some("incident_officer_occurred"),
        "1000000 2000 1 1",
    ),
    ("incident", Some("incident_occurred"), "1000000 1 1"),
    ("incident", Some("incident_status"), "1000000 330000 1"),
    ("subject", None, "1500000"),
    ("subject", Some("subject_incident"), "1500000 2 1"),
];

/// The register's first page as it was asked before issue #22: a join left for
/// SQLite to order. The control: under `MISLEADING` it sorts the table, so the
/// statistics do mislead, and a pinned plan is what keeps the register fast.
const UNPINNED_PAGE: &str = "SELECT i.incident_id, u.full_name FROM incident i \
     JOIN app_user u ON u.user_id = i.officer_id ORDER BY i.occurred_at DESC, i.incident_id DESC LIMIT 51";

#[derive(Clone, Copy, Debug)]
enum Statistics {
    None,
    Analyzed,
    Misleading,
}

/// A pool on the test's database, with `stats` in `sqlite_stat1` (each new
/// connection loads them).
async fn with_statistics(app: &TestApp, stats: Statistics) -> Pool {
    let writer = &app.state.store.writer;
    sqlx::query("ANALYZE")
        .execute(writer)
        .await
        .expect("analyze");
    match stats {
        Statistics::None => {
            sqlx::query("DELETE FROM sqlite_stat1")
                .execute(writer)
                .await
                .expect("no stats");
        }
        Statistics::Analyzed => {}
        Statistics::Misleading => {
            sqlx::query("DELETE FROM sqlite_stat1")
                .execute(writer)
                .await
                .expect("no stats");
            for (table, index, stat) in MISLEADING {
                sqlx::query("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ($1, $2, $3)")
                    .bind(table)
                    .bind(index)
                    .bind(stat)
                    .execute(writer)
                    .await
                    .expect("stats");
            }
        }
    }
    Pool::connect(&format!("sqlite://{}?mode=ro", app.db_path().display()))
        .await
        .expect("fresh connections")
}

/// Tables of records, by the names the hot queries give them.
const RECORDS: &[&str] = &[
    "incident", "i", "subject", "s", "t", "citation", "c", "charge", "ch",
];

/// What a good plan never does: scan a table of records, or sort one. A page of
/// the register walks a date-order index (`SCAN i USING INDEX …`), stopping after
/// its 51 rows (`walks`); the page's own rows, or a text search's few matches,
/// may be put in order (`sorts`).
fn bad_steps(plan: &[String], walks: bool, sorts: bool) -> Vec<String> {
    plan.iter()
        .filter(|line| {
            let step = line.trim();
            let scan = RECORDS
                .iter()
                .any(|t| step == format!("SCAN {t}") || step.starts_with(&format!("SCAN {t} ")));
            let walk = scan && step.contains(" USING ") && walks;
            let sort = step.starts_with("USE TEMP B-TREE FOR ORDER BY")
                && (line.starts_with("  ") || !walks)
                && !sorts;
            (scan && !walk) || sort
        })
        .cloned()
        .collect()
}

async fn seeded() -> TestApp {
    let app = TestApp::new().await;
    let now = app.clock_now();
    app::store::seed::seed(
        &app.state.store,
        &app.state.settings.town_zone,
        app::store::seed::SeedPlan {
            incidents: 1_500,
            seed: 22,
            force: false,
        },
        now,
    )
    .await
    .expect("seed");
    app
}

fn filters(officer: uuid::Uuid) -> Vec<(&'static str, ReportFilter, bool)> {
    let f = ReportFilter::default;
    vec![
        ("no filter", f(), false),
        (
            "officer",
            ReportFilter {
                officer: Some(officer),
                ..f()
            },
            false,
        ),
        (
            "offence",
            ReportFilter {
                offence: Some(Offence::GroupObstruction),
                ..f()
            },
            false,
        ),
        (
            "outcome",
            ReportFilter {
                outcome: Some(Outcome::Cited),
                ..f()
            },
            false,
        ),
        (
            "caution",
            ReportFilter {
                caution: Some(CautionKind::GpsFar),
                ..f()
            },
            false,
        ),
        (
            "speech",
            ReportFilter {
                caution: Some(CautionKind::Speech),
                ..f()
            },
            false,
        ),
        (
            "status",
            ReportFilter {
                status: Some(app::model::incident::ReportStatus::Returned),
                ..f()
            },
            false,
        ),
        (
            "dates",
            ReportFilter {
                from: Some("2026-05-01".into()),
                to: Some("2026-05-31".into()),
                ..f()
            },
            false,
        ),
        (
            "dates + officer + cited",
            ReportFilter {
                from: Some("2026-05-01".into()),
                to: Some("2026-05-31".into()),
                officer: Some(officer),
                outcome: Some(Outcome::Cited),
                ..f()
            },
            false,
        ),
        (
            "weekday + hour",
            ReportFilter {
                weekday: Some(5),
                hour: Some(15),
                ..f()
            },
            false,
        ),
        (
            "hour",
            ReportFilter {
                hour: Some(22),
                ..f()
            },
            false,
        ),
        (
            "protected",
            ReportFilter {
                protected: Some(ProtectedActivity::PeacefulPicketing),
                ..f()
            },
            false,
        ),
        (
            "response",
            ReportFilter {
                response: Some(ResponseKind::Refused),
                ..f()
            },
            false,
        ),
        (
            "cited",
            ReportFilter {
                cited: Some(true),
                ..f()
            },
            false,
        ),
        (
            "location",
            ReportFilter {
                location: Some("Mile Road at Post Road (Route 1)".into()),
                ..f()
            },
            false,
        ),
        // "M" starts more names and places than a walk needs to pass (the
        // register checks each row as the date order passes); "Mile" and
        // "Thibodeau" are found in the full-text index, newest first.
        (
            "common text",
            ReportFilter {
                text: Some("M".into()),
                ..f()
            },
            false,
        ),
        (
            "uncommon text",
            ReportFilter {
                text: Some("Mile".into()),
                ..f()
            },
            true,
        ),
        (
            "rare text",
            ReportFilter {
                text: Some("Thibodeau".into()),
                ..f()
            },
            true,
        ),
        (
            "citation number",
            ReportFilter {
                text: Some("WPD-2026-000007".into()),
                ..f()
            },
            true,
        ),
    ]
}

#[tokio::test]
async fn the_register_walks_an_index_whatever_the_statistics_say() {
    if support::postgres::sqlite_only("query planner") {
        return;
    }
    let app = seeded().await;
    let officer: String = sqlx::query_scalar("SELECT officer_id FROM incident LIMIT 1")
        .fetch_one(&app.state.store.reader)
        .await
        .expect("officer");
    let officer = officer.parse().expect("uuid");
    let zone = &app.state.settings.town_zone;
    let cursor = RegisterCursor {
        occurred_at: app.clock_now().0 - 30 * 86_400_000,
        incident_id: uuid::Uuid::now_v7(),
    };
    for stats in [
        Statistics::None,
        Statistics::Analyzed,
        Statistics::Misleading,
    ] {
        let pool = with_statistics(&app, stats).await;
        if matches!(stats, Statistics::Misleading) {
            let control = explain(&pool, UNPINNED_PAGE, &[]).await;
            assert!(
                !bad_steps(&control, false, false).is_empty(),
                "the control is misled: {control:?}"
            );
        }
        for (name, filter, sorts_matches) in filters(officer) {
            for after in [None, Some(cursor)] {
                let lines = plan(&pool, HotQuery::Register(&filter, after), zone)
                    .await
                    .expect("plan");
                assert_eq!(
                    bad_steps(&lines, true, sorts_matches),
                    Vec::<String>::new(),
                    "{name} with {stats:?} statistics:\n{}",
                    lines.join("\n")
                );
                if matches!(name, "uncommon text" | "rare text") {
                    // Any part of a text: the full-text index gives the matches
                    // in the register's order, and the walk stops at a page.
                    assert!(
                        lines[0].starts_with("SCAN m VIRTUAL TABLE")
                            && !lines.iter().any(|l| l.contains("TEMP B-TREE")),
                        "{name} with {stats:?}:\n{}",
                        lines.join("\n")
                    );
                } else {
                    // The page is chosen first; each row is then looked up by key.
                    assert!(
                        lines.iter().any(|l| l.trim() == "SCAN page"),
                        "{name} with {stats:?}:\n{}",
                        lines.join("\n")
                    );
                }
            }
            // Issue #37, finding 18: the way back and the counts walk the
            // same indexes (the count may gather a text's matches once).
            let back = plan(&pool, HotQuery::RegisterBack(&filter, cursor), zone)
                .await
                .expect("plan");
            assert_eq!(
                bad_steps(&back, true, sorts_matches),
                Vec::<String>::new(),
                "back, {name} with {stats:?}:\n{}",
                back.join("\n")
            );
            for newer_than in [None, Some(cursor)] {
                let count = plan(&pool, HotQuery::RegisterCount(&filter, newer_than), zone)
                    .await
                    .expect("plan");
                assert_eq!(
                    bad_steps(&count, true, true),
                    Vec::<String>::new(),
                    "count, {name} with {stats:?}:\n{}",
                    count.join("\n")
                );
            }
            let lines = plan(&pool, HotQuery::Queue(&filter), zone)
                .await
                .expect("plan");
            assert_eq!(
                bad_steps(&lines, false, true),
                Vec::<String>::new(),
                "queue, {name} with {stats:?}:\n{}",
                lines.join("\n")
            );
        }
        pool.close().await;
    }
}

async fn explain(pool: &Pool, sql: &str, binds: &[&str]) -> Vec<String> {
    let explain = format!("EXPLAIN QUERY PLAN {sql}");
    let mut q = sqlx::query_as::<_, (i64, i64, i64, String)>(&explain);
    for b in binds {
        q = q.bind(*b);
    }
    let rows = q.fetch_all(pool).await.expect("explain");
    rows.into_iter().map(|r| r.3).collect()
}

#[tokio::test]
async fn my_reports_the_filing_queue_and_the_dashboard_counts_walk_an_index_whatever_the_statistics_say(
) {
    if support::postgres::sqlite_only("query planner") {
        return;
    }
    let app = seeded().await;
    for stats in [
        Statistics::None,
        Statistics::Analyzed,
        Statistics::Misleading,
    ] {
        let pool = with_statistics(&app, stats).await;
        let mine = explain(
            &pool,
            &app::store::incidents::mine_sql(app::store::db::Backend::Sqlite),
            &["x", "1", "50"],
        )
        .await;
        assert_eq!(
            bad_steps(&mine, false, false),
            Vec::<String>::new(),
            "{stats:?}: {mine:?}"
        );
        assert!(
            mine.iter().any(|l| l.contains("incident_officer")),
            "{mine:?}"
        );
        let queue = explain(
            &pool,
            &app::store::court::filing_queue_sql(app::store::db::Backend::Sqlite),
            &["500"],
        )
        .await;
        assert_eq!(
            bad_steps(&queue, false, true),
            Vec::<String>::new(),
            "{stats:?}: {queue:?}"
        );
        for (measure, sql) in
            app::store::dashboard::rollup::day_counts(app::store::db::Backend::Sqlite)
        {
            let lines = explain(&pool, &sql, &[]).await;
            assert_eq!(
                bad_steps(&lines, false, false),
                Vec::<String>::new(),
                "{measure} with {stats:?}:\n{}",
                lines.join("\n")
            );
        }
        pool.close().await;
    }
}
