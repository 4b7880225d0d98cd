//! Incidents, their persons and citations: storing a submitted report (once, however
//! often it is sent), the officer's list, and the printed citation.

use crate::db::{Backend, Conn, OptionalReal, Pool, Sql};
use std::sync::Arc;

use serde::Deserialize;
use sha2::{Digest, Sha256};
use sqlx::FromRow;
use uuid::Uuid;

use crate::audit::{self, Event};
use crate::group_commit::Batch;
use crate::numbers;
use crate::Store;
use domain::actor::Actor;
use domain::error::AppError;
use domain::model::account::Role;
use domain::model::audit::AuditOutcome;
use domain::model::citation::{CitationDocument, Defendant, Parts, WithdrawalNote};
use domain::model::first_version::StoredReport;
use domain::model::incident::{
    CitationBrief, CitationStatus, IdType, Identity, IncidentReport, Receipt, ReportStatus,
    ReportSummary, SubjectEntry, SubjectVerdict,
};
use domain::model::numbers::HandedNumber;
use domain::model::review::{distance_m, CautionKind, GPS_FAR_METRES};
use domain::ordinance::{Moment, Offence, Outcome, Response};
use domain::town_time::TownZone;

use crate::numbers::Issuing;

fn content_hash(report: &IncidentReport) -> String {
    hex::encode(Sha256::digest(
        serde_json::to_vec(report).unwrap_or_default(),
    ))
}

pub use domain::model::numbers::citation_number;

/// Stores a submitted report: the incident, its persons, a citation (with its
/// number) for each person cited, the first revision and the audit entries — in
/// one transaction, committed together with the other submissions of the moment
/// (`group_commit`). A retry of a report already stored returns the first receipt.
pub async fn submit(
    store: &Store,
    issuing: Issuing<'_>,
    report: &IncidentReport,
    verdicts: &[SubjectVerdict],
) -> Result<Receipt, AppError> {
    let (officer, source, now, zone) = (
        issuing.officer.clone(),
        issuing.source.map(str::to_owned),
        issuing.now,
        issuing.zone.clone(),
    );
    // The GPS check reads earlier reports; done on a reader, it keeps its round
    // trips off the one writer every officer's submission waits for. A report
    // committed meanwhile at the same place moves a median of 20 by little.
    let mut reader = store.reader.acquire().await?;
    // An Article II report's permit answer, against the register for its day (§52-7).
    crate::permits::check_register_answer(&mut reader, report, &zone, now).await?;
    let cautions = caution_codes(&mut reader, report, verdicts).await?;
    drop(reader);
    let (report, verdicts) = (Arc::new(report.clone()), Arc::new(verdicts.to_vec()));
    store
        .group
        .write(move |batch| {
            let (officer, source, zone, cautions) = (
                officer.clone(),
                source.clone(),
                zone.clone(),
                cautions.clone(),
            );
            let (report, verdicts) = (report.clone(), verdicts.clone());
            Box::pin(async move {
                let issuing = Issuing {
                    officer: &officer,
                    source: source.as_deref(),
                    now,
                    zone: &zone,
                };
                submit_in(batch, issuing, &report, &verdicts, &cautions).await
            })
        })
        .await
}

async fn submit_in(
    batch: Batch<'_>,
    issuing: Issuing<'_>,
    report: &IncidentReport,
    verdicts: &[SubjectVerdict],
    cautions: &str,
) -> Result<Receipt, AppError> {
    let Batch {
        conn: tx,
        audit: head,
    } = batch;
    let id = report.incident_id.to_string();
    let now = issuing.now;
    let written = write_version(
        &mut *tx,
        Version {
            report,
            verdicts,
            officer_id: &issuing.officer.user_id.to_string(),
            status: ReportStatus::Submitted,
            revision: 1,
            kind: "submitted",
            reason: None,
            actor: issuing.officer,
            now,
            zone: issuing.zone,
            cautions: Some(cautions),
        },
    )
    .await?;
    if !written {
        return already_stored(tx, issuing, report).await;
    }
    let mut handed = handed_numbers(&mut *tx, issuing, report).await?;
    // What the receipt tells the officer, as written (not read back), and the
    // audit entries, written together at the end (one statement).
    let mut told = Told {
        receipt: Receipt {
            incident_id: report.incident_id,
            status: ReportStatus::Submitted,
            outcomes: Vec::with_capacity(report.subjects.len()),
            citations: Vec::new(),
            already_stored: false,
            number_notes: Vec::new(),
            persons: Vec::with_capacity(report.subjects.len()),
        },
        events: Vec::new(),
    };
    for (position, (subject, verdict)) in report.subjects.iter().zip(verdicts).enumerate() {
        let outcome = verdict.outcome.clone().map_err(|_| AppError::Internal)?;
        write_subject(&mut *tx, report.incident_id, position, subject, outcome).await?;
        told.receipt.outcomes.push((subject.subject_id, outcome));
        // Named as the file names them when the receipt is read back.
        let c = SubjectColumns::of(subject);
        told.receipt.persons.push((
            subject.subject_id,
            subject_label(c.identified, c.name, c.description),
        ));
        let cited = Cited {
            report,
            subject,
            outcome,
        };
        issue_cited(&mut *tx, issuing, cited, &mut handed, &mut told).await?;
    }
    void_unused(&mut *tx, issuing, report, handed, &mut told).await?;
    let event = Event::new("incident.submit", AuditOutcome::Success)
        .by(Some(issuing.officer), issuing.source)
        .on("incident", &id)
        .after(serde_json::json!({
            "occurred_at": report.occurred_at,
            "location": report.location.text,
            "protected_activity": report.protected_activity().code(),
            "outcomes": verdicts.iter().filter_map(|v| v.outcome.as_ref().ok().map(|o| o.code())).collect::<Vec<_>>(),
        }));
    told.events.push(event);
    audit::append_all(&mut *tx, head, now, &told.events).await?;
    Ok(told.receipt)
}

/// What a submission tells the officer and the audit log, gathered as it is
/// written.
struct Told {
    receipt: Receipt,
    events: Vec<Event>,
}

/// A person of the report and the outcome the rules gave them.
#[derive(Clone, Copy)]
struct Cited<'a> {
    report: &'a IncidentReport,
    subject: &'a SubjectEntry,
    outcome: Outcome,
}

/// The numbers the phone gave out on scene (issue #17), each checked before
/// any is used, with what becomes of it.
async fn handed_numbers<'r>(
    tx: &mut Conn,
    issuing: Issuing<'_>,
    report: &'r IncidentReport,
) -> Result<Vec<(&'r HandedNumber, Option<numbers::Handed>)>, AppError> {
    // At most one per person and offence: a body of thousands would hold the
    // one writer every officer's submission waits for.
    let most = report.subjects.len() * domain::ordinance::Offence::ALL.len();
    if report.numbers.len() > most {
        return Err(AppError::invalid(
            "numbers",
            "The report gives more citation numbers than its persons could be cited for (one per person and offence).",
        ));
    }
    let mut handed = Vec::with_capacity(report.numbers.len());
    for h in &report.numbers {
        if report
            .numbers
            .iter()
            .filter(|o| o.number.trim() == h.number.trim())
            .count()
            > 1
        {
            return Err(AppError::invalid(
                "numbers",
                format!(
                    "Citation number {} is given twice in this report.",
                    h.number.trim()
                ),
            ));
        }
        handed.push((
            h,
            Some(numbers::handed(&mut *tx, issuing.officer, h).await?),
        ));
    }
    Ok(handed)
}

/// The citations of one person: one per offence they are cited for (§52-4 or
/// §52-12 for each), taking the number handed out on scene where there is one.
async fn issue_cited(
    tx: &mut Conn,
    issuing: Issuing<'_>,
    cited: Cited<'_>,
    handed: &mut [(&HandedNumber, Option<numbers::Handed>)],
    told: &mut Told,
) -> Result<(), AppError> {
    let Cited {
        report,
        subject,
        outcome,
    } = cited;
    let id = report.incident_id.to_string();
    for offence in subject.cited_offences(outcome) {
        let arrest = subject.arrest_for(offence);
        let given = handed
            .iter_mut()
            .find(|(h, _)| h.subject_id == subject.subject_id && h.offence == offence)
            .map(|(h, fate)| (h.number.trim().to_owned(), fate.take()));
        let take = match &given {
            Some((_, Some(numbers::Handed::Take { year, seq, .. }))) => Some((*year, *seq)),
            _ => None,
        };
        let number = issue_citation(
            &mut *tx,
            issuing,
            report.incident_id,
            subject,
            offence,
            take,
        )
        .await?;
        if let Some((on_scene, Some(numbers::Handed::Renumber { why }))) = &given {
            // The subject's copy carries `on_scene`; the court's papers carry
            // `number`. The audit ties the two together.
            told.events.push(
                Event::new("citation.renumber", AuditOutcome::Success)
                    .by(Some(issuing.officer), issuing.source)
                    .on("citation", &number)
                    .after(serde_json::json!({ "given_on_scene": on_scene, "why": why })),
            );
            told.receipt.number_notes.push(format!(
                "{on_scene}, given on scene, could not be used ({why}); the citation is {number}. \
                 Tell the person their citation's number."
            ));
        }
        let event = Event::new("citation.issue", AuditOutcome::Success)
            .by(Some(issuing.officer), issuing.source)
            .on("citation", &number)
            .after(serde_json::json!({
                "incident_id": id,
                "subject_id": subject.subject_id,
                "offence": offence.code(),
                "fine": offence.penalty().fine_text(),
                "arrest": arrest,
            }));
        told.events.push(event);
        let c = SubjectColumns::of(subject);
        told.receipt.citations.push(CitationBrief {
            number,
            subject: subject_label(c.identified, c.name, c.description),
            offence,
            status: CitationStatus::Issued,
            arrest,
        });
    }
    Ok(())
}

/// A number handed out for a person (or an offence) the server's rules did not
/// cite is void, with that reason: never reused (issue #17).
async fn void_unused(
    tx: &mut Conn,
    issuing: Issuing<'_>,
    report: &IncidentReport,
    handed: Vec<(&HandedNumber, Option<numbers::Handed>)>,
    told: &mut Told,
) -> Result<(), AppError> {
    for (h, fate) in handed {
        if !matches!(fate, Some(numbers::Handed::Take { .. })) {
            continue;
        }
        let reason = "Not a citation: the server's rules did not cite this person for this offence";
        if let Some(event) = numbers::void_in(&mut *tx, issuing, report, h, reason).await? {
            told.events.push(event);
            told.receipt.number_notes.push(format!(
                "{} is void: the server's rules did not cite this person for {}. Tell the person the citation does not stand.",
                h.number.trim(),
                h.offence.reference()
            ));
        }
    }
    Ok(())
}

/// A submission whose id is already stored: the same report sent again (its
/// first receipt, read back), or a clash, refused.
async fn already_stored(
    conn: &mut Conn,
    issuing: Issuing<'_>,
    report: &IncidentReport,
) -> Result<Receipt, AppError> {
    let (officer_id, stored_hash): (String, String) =
        sqlx::query_as("SELECT officer_id, content_hash FROM incident WHERE incident_id = $1")
            .bind(report.incident_id.to_string())
            .fetch_one(&mut *conn)
            .await?;
    if officer_id != issuing.officer.user_id.to_string() {
        return Err(AppError::conflict(
            "Another report already has this id. Start a new report.",
        ));
    }
    if stored_hash != content_hash(report) {
        return Err(AppError::conflict(
            "This report was already submitted, with other content. Open it from My reports to see what was stored.",
        ));
    }
    let mut receipt = receipt(conn, report.incident_id).await?;
    receipt.already_stored = true;
    Ok(receipt)
}

/// One version of a report to store: the `incident` row's current values and
/// the `incident_revision` row that keeps this version for good.
pub(crate) struct Version<'a> {
    pub report: &'a IncidentReport,
    pub verdicts: &'a [SubjectVerdict],
    /// Kept from the first version on later ones.
    pub officer_id: &'a str,
    pub status: ReportStatus,
    pub revision: i64,
    /// submitted, resubmitted (officer's correction) or amended (chief).
    pub kind: &'static str,
    pub reason: Option<&'a str>,
    pub actor: &'a Actor,
    pub now: Moment,
    pub zone: &'a TownZone,
    /// The cautions' codes when the caller worked them out beforehand (off the
    /// writer); `None` works them out here.
    pub cautions: Option<&'a str>,
}

/// Writes a version: inserts the incident, or rewrites its current values (the
/// first submission's officer, content hash and time stay), and appends the
/// revision. A return reason is cleared once the report is submitted again.
pub(crate) async fn write_version(conn: &mut Conn, v: Version<'_>) -> Result<bool, AppError> {
    let report = v.report;
    let id = report.incident_id.to_string();
    let report_json = serde_json::to_string(report).map_err(|_| AppError::Internal)?;
    let gps = report.location.gps;
    let cautions = match v.cautions {
        Some(codes) => codes.to_owned(),
        None => caution_codes(conn, report, v.verdicts).await?,
    };
    let (local_date, local_hour, local_weekday) = v.zone.local_parts(report.occurred_at);
    let written = sqlx::query(
        "INSERT INTO incident (incident_id, officer_id, status, occurred_at, location_text, place_type, \
         gps_lat, gps_lon, gps_accuracy_m, protected_activity, narrative, report_json, content_hash, \
         revision, submitted_at, updated_at, cautions, local_date, local_hour, local_weekday) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) \
         ON CONFLICT (incident_id) DO UPDATE SET status = excluded.status, occurred_at = excluded.occurred_at, \
         location_text = excluded.location_text, place_type = excluded.place_type, gps_lat = excluded.gps_lat, \
         gps_lon = excluded.gps_lon, gps_accuracy_m = excluded.gps_accuracy_m, \
         protected_activity = excluded.protected_activity, narrative = excluded.narrative, \
         report_json = excluded.report_json, revision = excluded.revision, updated_at = excluded.updated_at, \
         cautions = excluded.cautions, local_date = excluded.local_date, local_hour = excluded.local_hour, \
         local_weekday = excluded.local_weekday, \
         return_reason = CASE WHEN excluded.status = 'submitted' THEN NULL ELSE incident.return_reason END \
         WHERE excluded.revision > 1",
    )
    .bind(&id)
    .bind(v.officer_id)
    .bind(v.status.code())
    .bind(report.occurred_at.0)
    .bind(report.location.text.trim())
    .bind(report.location.place.code())
    .bind(OptionalReal(gps.map(|g| g.latitude)))
    .bind(OptionalReal(gps.map(|g| g.longitude)))
    .bind(OptionalReal(gps.map(|g| g.accuracy_m)))
    .bind(report.protected_activity().code())
    .bind(&report.narrative)
    .bind(&report_json)
    .bind(content_hash(report))
    .bind(v.revision)
    .bind(v.now.0)
    .bind(v.now.0)
    .bind(&cautions)
    .bind(local_date)
    .bind(local_hour)
    .bind(local_weekday)
    .execute(&mut *conn)
    .await?;
    // A first version whose id is taken wrote nothing: the caller looks at what
    // is stored (a retry, or a clash).
    if written.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO incident_revision (incident_id, revision, at, actor_id, kind, reason, report_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(v.revision)
    .bind(v.now.0)
    .bind(v.actor.user_id.to_string())
    .bind(v.kind)
    .bind(v.reason)
    .bind(&report_json)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

/// Where earlier reports typed with the same location were made: the median of
/// their last 20 GPS fixes (a median, so one wrong fix does not move it).
pub(crate) async fn usual_fix(
    conn: &mut Conn,
    location_text: &str,
    except: &str,
) -> Result<Option<(f64, f64)>, sqlx::Error> {
    let fixes: Vec<(f64, f64)> = sqlx::query_as(
        "SELECT gps_lat, gps_lon FROM incident \
         WHERE location_text = $1 COLLATE NOCASE AND gps_lat IS NOT NULL AND incident_id <> $2 \
         ORDER BY submitted_at DESC LIMIT 20",
    )
    .bind(location_text.trim())
    .bind(except)
    .fetch_all(&mut *conn)
    .await?;
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    };
    Ok((!fixes.is_empty()).then(|| {
        (
            median(fixes.iter().map(|f| f.0).collect()),
            median(fixes.iter().map(|f| f.1).collect()),
        )
    }))
}

/// How far (metres) the report's GPS fix is from the usual fix at its typed
/// location, when that is beyond the fix's own accuracy plus `GPS_FAR_METRES`.
pub(crate) async fn gps_far(
    conn: &mut Conn,
    report: &IncidentReport,
) -> Result<Option<f64>, sqlx::Error> {
    let Some(fix) = report.location.gps else {
        return Ok(None);
    };
    let usual = usual_fix(conn, &report.location.text, &report.incident_id.to_string()).await?;
    Ok(usual
        .map(|u| distance_m((fix.latitude, fix.longitude), u))
        .filter(|d| *d > GPS_FAR_METRES + fix.accuracy_m))
}

/// The cautions the chief's queue shows and filters on, as stored codes.
async fn caution_codes(
    conn: &mut Conn,
    report: &IncidentReport,
    verdicts: &[SubjectVerdict],
) -> Result<String, sqlx::Error> {
    // The narrative and every person's description are screened, charged or not.
    let mut kinds: Vec<CautionKind> = domain::model::incident::cautions(report, verdicts)
        .iter()
        .map(CautionKind::of)
        .collect();
    // What the record itself shows (issue #37): expression under §52-1 E, a
    // refusal before the time allowed.
    kinds.extend(
        domain::model::review::record_cautions(report)
            .into_iter()
            .map(|(kind, _)| kind),
    );
    if gps_far(conn, report).await?.is_some() {
        kinds.push(CautionKind::GpsFar);
    }
    let mut codes: Vec<&str> = kinds.into_iter().map(CautionKind::code).collect();
    codes.sort_unstable();
    codes.dedup();
    Ok(codes.join(" "))
}

/// How the court's papers name a person (`model::citation::Defendant`), from
/// the values the `subject` row holds, so the printed summons (from the stored
/// report) and the court's CSV (from the row) say the same.
fn defendant_of(c: SubjectColumns) -> Defendant {
    let identity = if c.organisation == 1 {
        Identity::Organisation {
            name: c.name.unwrap_or_default(),
            address: c.address.unwrap_or_default(),
            representative: c.representative,
        }
    } else if c.identified == 1 {
        Identity::Identified {
            full_name: c.name.unwrap_or_default(),
            date_of_birth: c.dob.unwrap_or_default(),
            address: c.address.unwrap_or_default(),
            id_type: c.id_type.and_then(IdType::from_code),
            id_number: c.id_number,
        }
    } else {
        Identity::Described {
            description: c.description.unwrap_or_default(),
        }
    };
    Defendant::of(&identity)
}

/// A person's identity and response as the `subject` table holds them.
struct SubjectColumns {
    identified: i64,
    /// An organisation (§52-12's "party"): identified, named, no date of birth.
    organisation: i64,
    representative: Option<String>,
    name: Option<String>,
    dob: Option<String>,
    address: Option<String>,
    id_type: Option<&'static str>,
    id_number: Option<String>,
    description: Option<String>,
    response_at: Option<i64>,
    manner: Option<&'static str>,
}

impl SubjectColumns {
    fn of(subject: &SubjectEntry) -> SubjectColumns {
        let (response_at, manner) = match subject.facts.response {
            Response::Refused { at, manner } => (Some(at.0), Some(manner.code())),
            Response::Complied { at } => (Some(at.0), None),
            Response::NoOrder | Response::LeftBeforeOrder => (None, None),
        };
        SubjectColumns {
            response_at,
            manner,
            ..SubjectColumns::of_identity(&subject.identity)
        }
    }

    /// The identity columns alone.
    fn of_identity(identity: &Identity) -> SubjectColumns {
        let blank = SubjectColumns {
            identified: 0,
            organisation: 0,
            representative: None,
            name: None,
            dob: None,
            address: None,
            id_type: None,
            id_number: None,
            description: None,
            response_at: None,
            manner: None,
        };
        match identity {
            Identity::Identified {
                full_name,
                date_of_birth,
                address,
                id_type,
                id_number,
            } => SubjectColumns {
                identified: 1,
                name: Some(full_name.trim().to_owned()),
                dob: Some(date_of_birth.trim().to_owned()),
                address: Some(address.trim().to_owned()),
                id_type: id_type.map(|t| t.code()),
                id_number: id_number.clone().filter(|n| !n.trim().is_empty()),
                ..blank
            },
            Identity::Described { description } => SubjectColumns {
                description: Some(description.trim().to_owned()),
                ..blank
            },
            Identity::Organisation {
                name,
                address,
                representative,
            } => SubjectColumns {
                identified: 1,
                organisation: 1,
                name: Some(name.trim().to_owned()),
                address: Some(address.trim().to_owned()),
                representative: representative
                    .as_deref()
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .map(str::to_owned),
                ..blank
            },
        }
    }
}

/// Whether `subject`'s identity differs from the one their row holds — the
/// person a citation with the court prints (issue #33). A person with no row
/// yet has nothing to differ from.
pub(crate) async fn identity_changed(
    conn: &mut Conn,
    subject: &SubjectEntry,
) -> Result<bool, AppError> {
    type Row = (
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let stored: Option<Row> = sqlx::query_as(
        "SELECT identified, full_name, date_of_birth, address, id_type, id_number, description \
         FROM subject WHERE subject_id = $1",
    )
    .bind(subject.subject_id.to_string())
    .fetch_optional(&mut *conn)
    .await?;
    let Some((identified, name, dob, address, id_type, id_number, description)) = stored else {
        return Ok(false);
    };
    let now = SubjectColumns::of_identity(&subject.identity);
    Ok((
        identified,
        name,
        dob,
        address,
        id_type,
        id_number,
        description,
    ) != (
        now.identified,
        now.name,
        now.dob,
        now.address,
        now.id_type.map(str::to_owned),
        now.id_number,
        now.description,
    ))
}

/// Stores a person's current values: a new row, or — after a correction — the
/// same row rewritten (earlier values stay in `incident_revision`; the row stays
/// because a citation may name it). A `subject_id` that belongs to another
/// report is refused.
pub(crate) async fn write_subject(
    conn: &mut Conn,
    incident_id: Uuid,
    position: usize,
    subject: &SubjectEntry,
    outcome: Outcome,
) -> Result<(), AppError> {
    let c = SubjectColumns::of(subject);
    let written = sqlx::query(
        "INSERT INTO subject (subject_id, incident_id, position, identified, full_name, date_of_birth, \
         address, id_type, id_number, description, perceived_age, perceived_sex, perceived_race, response, \
         response_at, refusal_manner, offence, outcome, organisation, representative) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) \
         ON CONFLICT (subject_id) DO UPDATE SET position = excluded.position, identified = excluded.identified, \
         full_name = excluded.full_name, date_of_birth = excluded.date_of_birth, address = excluded.address, \
         id_type = excluded.id_type, id_number = excluded.id_number, description = excluded.description, \
         perceived_age = excluded.perceived_age, perceived_sex = excluded.perceived_sex, \
         perceived_race = excluded.perceived_race, response = excluded.response, \
         response_at = excluded.response_at, refusal_manner = excluded.refusal_manner, \
         offence = excluded.offence, outcome = excluded.outcome, organisation = excluded.organisation, \
         representative = excluded.representative, withdrawn_at = NULL \
         WHERE subject.incident_id = excluded.incident_id",
    )
    .bind(subject.subject_id.to_string())
    .bind(incident_id.to_string())
    .bind(position as i64)
    .bind(c.identified)
    .bind(c.name)
    .bind(c.dob)
    .bind(c.address)
    .bind(c.id_type)
    .bind(c.id_number)
    .bind(c.description)
    .bind(subject.perceived.age_range.code())
    .bind(subject.perceived.sex.code())
    .bind(subject.perceived.race.code())
    .bind(subject.facts.response.code())
    .bind(c.response_at)
    .bind(c.manner)
    .bind(subject.offences().next().map(Offence::code))
    .bind(outcome.code())
    .bind(c.organisation)
    .bind(c.representative)
    .execute(&mut *conn)
    .await?;
    if written.rows_affected() == 0 {
        return Err(AppError::invalid(
            format!("subjects.{position}"),
            "This person's id belongs to another report. Start a new report.",
        ));
    }
    // Every offence charged (subject.offence keeps the first, for the lists).
    let sid = subject.subject_id.to_string();
    sqlx::query("DELETE FROM charge WHERE subject_id = $1")
        .bind(&sid)
        .execute(&mut *conn)
        .await?;
    if !subject.charges.is_empty() {
        let mut insert = Sql::new(
            Backend::of(conn),
            "INSERT INTO charge (subject_id, offence) ",
        );
        insert.push_values(&subject.charges, |mut row, c| {
            row.push_bind(&sid).push_bind(c.offence.code());
        });
        insert.build()?.execute(&mut *conn).await?;
    }
    Ok(())
}

/// A citation's number in SQL, from the year and sequence expressions:
/// `citation_number`'s form, WPD-YYYY-NNNNNN.
fn citation_number_sql(backend: Backend, year: &str, seq: &str) -> String {
    match backend {
        Backend::Sqlite => format!("printf('WPD-%04d-%06d', {year}, {seq})"),
        Backend::Postgres => format!(
            "'WPD-' || {} || '-' || {}",
            backend.zero_padded(year, 4),
            backend.zero_padded(seq, 6)
        ),
    }
}

pub(crate) async fn issue_citation(
    conn: &mut Conn,
    issuing: Issuing<'_>,
    incident_id: Uuid,
    subject: &SubjectEntry,
    offence: Offence,
    handed: Option<(i16, i64)>,
) -> Result<String, sqlx::Error> {
    // Read in the same transaction, so the court printed is the one in force
    // when the citation was stored.
    let court = crate::settings::court_in(&mut *conn).await?;
    // A number the phone handed out on scene keeps its year and sequence
    // (`numbers::handed` checked it is the officer's and unused).
    let (year, seq) = match handed {
        Some((year, seq)) => (year, Some(seq)),
        None => (issuing.zone.year(issuing.now), None),
    };
    // Otherwise the number is the year's next after every citation and every
    // phone's block, taken in the same statement that stores the citation (and
    // so in the issuing transaction): the numbers of a year are 1…n with no
    // gap, since a rolled-back issue takes its number back and nothing is ever
    // deleted (DESIGN §3; `store::numbers` accounts for blocks).
    // `citation_number_sql` writes `citation_number`'s form; a test holds the two
    // together.
    // The officer's signature (issue #20): a number from the phone's block keeps
    // the signature the block was reserved with, which the phone's copy printed.
    let number: String = sqlx::query_scalar(&format!(
        "INSERT INTO citation (citation_id, number, year, seq, incident_id, subject_id, offence, fine_cents, \
         arrest, court_name, court_address, appearance_date, issued_at, issued_by, status, updated_at, \
         officer_signature_id) \
         SELECT $1, {}, $2, next.seq, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, 'issued', $11, \
         CASE WHEN $13 IS NULL THEN ({}) ELSE (SELECT b.officer_signature_id FROM number_block b \
           WHERE b.officer_id = $12 AND b.year = $2 AND $13 BETWEEN b.first_seq AND b.last_seq) END \
         FROM (SELECT COALESCE($13, {}) AS seq) AS next \
         RETURNING number",
        citation_number_sql(Backend::of(conn), "$2", "next.seq"),
        crate::signatures::in_force_id("$12", "$11"),
        crate::numbers::next_seq(Backend::of(conn))
    ))
    .bind(Uuid::now_v7().to_string())
    .bind(i64::from(year))
    .bind(incident_id.to_string())
    .bind(subject.subject_id.to_string())
    .bind(offence.code())
    .bind(i64::from(offence.penalty().fine_cents))
    .bind(i64::from(subject.arrest_for(offence)))
    .bind(&court.court_name)
    .bind(&court.court_address)
    .bind(court.answer_date(&issuing.zone.date_after(issuing.now, court.answer_days)))
    .bind(issuing.now.0)
    .bind(issuing.officer.user_id.to_string())
    .bind(seq)
    .fetch_one(&mut *conn)
    .await?;
    Ok(number)
}

pub(crate) fn parse_uuid(text: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(text).map_err(|_| AppError::Internal)
}

pub(crate) fn subject_label(
    identified: i64,
    name: Option<String>,
    description: Option<String>,
) -> String {
    if identified == 1 {
        name.unwrap_or_default()
    } else {
        format!("Unidentified: {}", description.unwrap_or_default())
    }
}

#[derive(FromRow)]
pub(crate) struct BriefRow {
    number: String,
    offence: String,
    status: String,
    arrest: i64,
    identified: i64,
    full_name: Option<String>,
    description: Option<String>,
}

impl BriefRow {
    pub(crate) fn brief(self) -> Result<CitationBrief, AppError> {
        Ok(CitationBrief {
            number: self.number,
            subject: subject_label(self.identified, self.full_name, self.description),
            offence: Offence::from_code(&self.offence).ok_or(AppError::Internal)?,
            status: CitationStatus::from_code(&self.status).ok_or(AppError::Internal)?,
            arrest: self.arrest == 1,
        })
    }
}

pub(crate) async fn citations_of(
    conn: &mut Conn,
    incident_id: &str,
) -> Result<Vec<CitationBrief>, AppError> {
    let rows: Vec<BriefRow> = sqlx::query_as(
        "SELECT c.number, c.offence, c.status, c.arrest, s.identified, s.full_name, s.description \
         FROM citation c JOIN subject s USING (subject_id) WHERE c.incident_id = $1 ORDER BY c.seq",
    )
    .bind(incident_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter().map(BriefRow::brief).collect()
}

pub(crate) async fn receipt(conn: &mut Conn, incident_id: Uuid) -> Result<Receipt, AppError> {
    let id = incident_id.to_string();
    let status: String = sqlx::query_scalar("SELECT status FROM incident WHERE incident_id = $1")
        .bind(&id)
        .fetch_one(&mut *conn)
        .await?;
    type Row = (String, String, i64, Option<String>, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT subject_id, outcome, identified, full_name, description FROM subject \
         WHERE incident_id = $1 AND withdrawn_at IS NULL ORDER BY position",
    )
    .bind(&id)
    .fetch_all(&mut *conn)
    .await?;
    let mut outcomes = Vec::with_capacity(rows.len());
    let mut persons = Vec::with_capacity(rows.len());
    for (subject, outcome, identified, name, description) in rows {
        let subject = parse_uuid(&subject)?;
        outcomes.push((
            subject,
            Outcome::from_code(&outcome).ok_or(AppError::Internal)?,
        ));
        persons.push((subject, subject_label(identified, name, description)));
    }
    Ok(Receipt {
        incident_id,
        status: ReportStatus::from_code(&status).ok_or(AppError::Internal)?,
        outcomes,
        citations: citations_of(conn, &id).await?,
        already_stored: false,
        number_notes: Vec::new(),
        persons,
    })
}

/// "My reports": an officer's incidents, newest submitted first, walking
/// `incident_officer` whatever SQLite's statistics say (issue #22). Binds: officer
/// id, submitted before, limit.
pub fn mine_sql(backend: Backend) -> String {
    format!(
        "SELECT incident_id, occurred_at, location_text, status, return_reason FROM incident{} \
         WHERE officer_id = $1 AND submitted_at < $2 ORDER BY submitted_at DESC LIMIT $3",
        backend.indexed_by("incident_officer")
    )
}

/// The officer's own reports, newest first; `before` pages back in time.
pub async fn mine(
    pool: &Pool,
    officer: &Actor,
    zone: &TownZone,
    before: Option<Moment>,
    limit: i64,
) -> Result<Vec<ReportSummary>, AppError> {
    let mut conn = pool.acquire().await?;
    let rows: Vec<(String, i64, String, String, Option<String>)> =
        sqlx::query_as(&mine_sql(Backend::of(&conn)))
            .bind(officer.user_id.to_string())
            .bind(before.map_or(i64::MAX, |b| b.0))
            .bind(limit.clamp(1, 200))
            .fetch_all(&mut *conn)
            .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, occurred, location, status, return_reason) in rows {
        let subjects: Vec<(i64, Option<String>, Option<String>, String)> = sqlx::query_as(
            "SELECT identified, full_name, description, outcome FROM subject \
             WHERE incident_id = $1 AND withdrawn_at IS NULL ORDER BY position",
        )
        .bind(&id)
        .fetch_all(&mut *conn)
        .await?;
        out.push(ReportSummary {
            incident_id: parse_uuid(&id)?,
            occurred_at: Moment(occurred),
            occurred_text: zone.date_time(Moment(occurred)),
            location,
            status: ReportStatus::from_code(&status).ok_or(AppError::Internal)?,
            return_reason,
            subjects: subjects
                .into_iter()
                .map(|(i, n, d, o)| {
                    Ok((
                        subject_label(i, n, d),
                        Outcome::from_code(&o).ok_or(AppError::Internal)?,
                    ))
                })
                .collect::<Result<_, AppError>>()?,
            citations: citations_of(&mut conn, &id).await?,
        });
    }
    Ok(out)
}

#[derive(FromRow)]
struct CitationRow {
    number: String,
    incident_id: String,
    subject_id: String,
    offence: String,
    fine_cents: i64,
    arrest: i64,
    court_name: String,
    court_address: String,
    appearance_date: String,
    issued_at: i64,
    issued_by: String,
    status: String,
    void_reason: Option<String>,
    officer_name: String,
    officer_badge: Option<String>,
    /// The officer's signature in force when the citation was issued (issue #20).
    officer_signature: Option<String>,
    report_json: String,
    /// Withdrawn from the court (issue #33): the reason, when, and the citation
    /// that replaces it.
    withdrawal_reason: Option<String>,
    withdrawn_at: Option<i64>,
    replaced_by: Option<String>,
    /// The withdrawn citation this one replaces.
    replaces: Option<String>,
}

/// Whether `viewer` may read a citation: the issuing officer, the chief, and the
/// clerk once the chief has approved it. Others are told it does not exist.
fn may_read(viewer: &Actor, issued_by: &str, status: CitationStatus) -> bool {
    viewer.has(Role::Chief)
        || (viewer.has(Role::Officer) && issued_by == viewer.user_id.to_string())
        || (viewer.has(Role::Clerk)
            && matches!(
                status,
                CitationStatus::Approved | CitationStatus::Filed | CitationStatus::Disposed
            ))
}

/// What a printed citation is made from: the citation, its officer and the
/// signature the officer had on file when issuing it, and the report's current
/// revision as it was stored (a report stored in the first version's shape
/// prints from that shape, word for word). A citation withdrawn from the court
/// prints from the last revision it stood on, as the court was given it, with
/// its withdrawal.
const DOCUMENT_SELECT: &str =
    "SELECT c.number, c.incident_id, c.subject_id, c.offence, c.fine_cents, c.arrest, c.court_name, \
     c.court_address, c.appearance_date, c.issued_at, c.issued_by, c.status, c.void_reason, \
     u.full_name AS officer_name, u.badge_number AS officer_badge, \
     (SELECT s.strokes FROM officer_signature s WHERE s.signature_id = c.officer_signature_id) \
       AS officer_signature, \
     r.report_json, w.reason AS withdrawal_reason, w.at AS withdrawn_at, \
     (SELECT n.number FROM citation n WHERE n.replaces = c.number) AS replaced_by, c.replaces \
     FROM citation c JOIN app_user u ON u.user_id = c.issued_by \
     JOIN incident i ON i.incident_id = c.incident_id \
     LEFT JOIN citation_withdrawal w ON w.number = c.number \
     JOIN incident_revision r ON r.incident_id = i.incident_id \
       AND r.revision = COALESCE(w.revision, i.revision)";

/// The citation as printed, for a viewer allowed to read it.
pub async fn citation_document(
    pool: &Pool,
    number: &str,
    viewer: &Actor,
    zone: &TownZone,
) -> Result<CitationDocument, AppError> {
    let row: CitationRow = sqlx::query_as(&format!("{DOCUMENT_SELECT} WHERE c.number = $1"))
        .bind(number.trim())
        .fetch_optional(pool)
        .await?
        .ok_or(AppError::NotFound)?;
    document_of(&row, viewer, zone)?.ok_or(AppError::NotFound)
}

/// Many citations as printed, in the order given, in one query (a court export
/// of a hundred thousand must not make a hundred thousand round trips). A
/// number the viewer may not read, or that does not exist, is NotFound.
pub async fn citation_documents(
    pool: &Pool,
    numbers: &[String],
    viewer: &Actor,
    zone: &TownZone,
) -> Result<Vec<CitationDocument>, AppError> {
    let wanted = serde_json::to_string(numbers).map_err(|_| AppError::Internal)?;
    let rows: Vec<CitationRow> = sqlx::query_as(&format!(
        "{DOCUMENT_SELECT} WHERE c.number IN (SELECT value FROM {})",
        Backend::of_pool(pool).json_rows("$1")
    ))
    .bind(wanted)
    .fetch_all(pool)
    .await?;
    let mut by_number = std::collections::HashMap::with_capacity(rows.len());
    for row in &rows {
        let doc = document_of(row, viewer, zone)?.ok_or(AppError::NotFound)?;
        by_number.insert(row.number.as_str(), doc);
    }
    numbers
        .iter()
        .map(|n| by_number.remove(n.as_str()).ok_or(AppError::NotFound))
        .collect()
}

/// A citation's line in the court's CSV and JSON, read from its rows: one JSON
/// array a row, its items in this order (`court_line_select`).
#[derive(Deserialize)]
struct CourtLineRow {
    number: String,
    status: String,
    issued_at: i64,
    issued_by: String,
    offence: String,
    fine_cents: i64,
    arrest: i64,
    court_name: String,
    court_address: String,
    appearance_date: String,
    officer_name: String,
    officer_badge: Option<String>,
    identified: i64,
    full_name: Option<String>,
    date_of_birth: Option<String>,
    address: Option<String>,
    id_type: Option<String>,
    id_number: Option<String>,
    description: Option<String>,
    organisation: i64,
    representative: Option<String>,
    occurred_at: i64,
    location_text: String,
    place_type: String,
    amended: i64,
    /// Withdrawn from the court (issue #33): the amendment's reason.
    withdrawal_reason: Option<String>,
    replaces: Option<String>,
}

/// The rows a court line is made from (`CourtLineRow`), for a `WHERE` on `c`.
/// Each row is one JSON array, not 22 columns: sqlx copies every column of
/// every row on SQLite's thread and hands it over, and for 100 000 citations
/// that per-column copying cost more than SQLite's own reading.
fn court_line_select(backend: Backend) -> String {
    let columns = format!(
        "c.number, c.status, c.issued_at, c.issued_by, c.offence, c.fine_cents, c.arrest, c.court_name, \
         c.court_address, c.appearance_date, u.full_name, u.badge_number, \
         s.identified, s.full_name, s.date_of_birth, s.address, s.id_type, s.id_number, s.description, \
         s.organisation, s.representative, i.occurred_at, i.location_text, i.place_type, {}, \
         w.reason, c.replaces",
        crate::court_sql::AMENDED_SINCE_EXPORT
    );
    format!(
        "SELECT {} \
         FROM citation c JOIN app_user u ON u.user_id = c.issued_by JOIN incident i USING (incident_id) \
         JOIN subject s ON s.subject_id = c.subject_id \
         LEFT JOIN citation_withdrawal w ON w.number = c.number",
        backend.json_array(&columns)
    )
}

/// The court's lines (CSV and JSON) of `numbers`, in their order. The same
/// words as `ExportedCitation::of` the printed citation — a test holds them
/// equal — but from the citation, person, incident and officer rows, without
/// parsing each stored report: for 100 000 citations that parse and its 200 MB
/// of report text were most of an export's time.
pub async fn court_lines(
    pool: &Pool,
    numbers: &[String],
    viewer: &Actor,
    zone: &TownZone,
) -> Result<Vec<domain::model::court::ExportedCitation>, AppError> {
    let wanted = serde_json::to_string(numbers).map_err(|_| AppError::Internal)?;
    let rows: Vec<String> = sqlx::query_scalar(&format!(
        "{} WHERE c.number IN (SELECT value FROM {})",
        court_line_select(Backend::of_pool(pool)),
        Backend::of_pool(pool).json_rows("$1")
    ))
    .bind(wanted)
    .fetch_all(pool)
    .await?;
    let mut by_number = std::collections::HashMap::with_capacity(rows.len());
    for row in rows {
        let r = court_line_row(&row)?;
        by_number.insert(r.number.clone(), r);
    }
    numbers
        .iter()
        .map(|number| {
            let r = by_number.remove(number).ok_or(AppError::NotFound)?;
            court_line(r, viewer, zone)
        })
        .collect()
}

/// The court's lines of every citation at court (approved, filed, disposed;
/// none held until its person is identified) issued from `start` up to, not
/// including, `end`, in number order, each
/// handed to `each` as its row arrives. One query: for a large range (issue #8's
/// 100 000) reading the rows is most of the work, and SQLite steps on its own
/// thread while this one builds lines.
pub async fn court_lines_issued(
    pool: &Pool,
    (start, end): (Moment, Moment),
    viewer: &Actor,
    zone: &TownZone,
    mut each: impl FnMut(domain::model::court::ExportedCitation) -> Result<(), AppError>,
) -> Result<(), AppError> {
    use futures_util::TryStreamExt;
    let sql = format!(
        "{} WHERE {} AND NOT {} AND c.issued_at >= $1 AND c.issued_at < $2 ORDER BY c.year, c.seq",
        court_line_select(Backend::of_pool(pool)),
        crate::court_sql::AT_COURT,
        crate::court_sql::HELD_UNIDENTIFIED
    );
    let mut rows = sqlx::query_scalar::<_, String>(&sql)
        .bind(start.0)
        .bind(end.0)
        .fetch(pool);
    while let Some(row) = rows.try_next().await? {
        each(court_line(court_line_row(&row)?, viewer, zone)?)?;
    }
    Ok(())
}

fn court_line_row(json: &str) -> Result<CourtLineRow, AppError> {
    serde_json::from_str(json).map_err(|_| AppError::Internal)
}

fn court_line(
    r: CourtLineRow,
    viewer: &Actor,
    zone: &TownZone,
) -> Result<domain::model::court::ExportedCitation, AppError> {
    let status = CitationStatus::from_code(&r.status).ok_or(AppError::Internal)?;
    if !may_read(viewer, &r.issued_by, status) {
        return Err(AppError::NotFound);
    }
    let offence = Offence::from_code(&r.offence).ok_or(AppError::Internal)?;
    let place = domain::ordinance::PlaceType::from_code(&r.place_type).ok_or(AppError::Internal)?;
    let defendant = defendant_of(SubjectColumns {
        identified: r.identified,
        organisation: r.organisation,
        representative: r.representative,
        name: r.full_name,
        dob: r.date_of_birth,
        address: r.address,
        id_type: r
            .id_type
            .as_deref()
            .and_then(IdType::from_code)
            .map(IdType::code),
        id_number: r.id_number,
        description: r.description,
        response_at: None,
        manner: None,
    });
    Ok(domain::model::court::ExportedCitation {
        number: r.number,
        status,
        amended: r.amended == 1,
        issued_at: zone.date_time(Moment(r.issued_at)),
        officer_name: r.officer_name,
        officer_badge: r.officer_badge.unwrap_or_default(),
        subject_name: defendant.name,
        subject_date_of_birth: defendant.date_of_birth,
        subject_address: defendant.address,
        subject_identification: defendant.id_document,
        offence_code: offence.code().to_owned(),
        offence_section: domain::model::court::offence_section(
            &offence.reference(),
            offence.title(),
        ),
        occurred_at: zone.date_time(Moment(r.occurred_at)),
        place: format!("{} ({})", r.location_text, place.label()),
        fine: domain::ordinance::Penalty {
            fine_cents: u32::try_from(r.fine_cents).map_err(|_| AppError::Internal)?,
            ..offence.penalty()
        }
        .fine_text(),
        costs: domain::model::court::costs_text(offence.penalty()),
        arrest: r.arrest == 1,
        court_name: r.court_name,
        court_address: r.court_address,
        appearance_date: r.appearance_date,
        filing_deadline: zone.date_after(Moment(r.issued_at), domain::ordinance::FILING_DAYS),
        withdrawn: r.withdrawal_reason.is_some(),
        withdrawal_reason: r.withdrawal_reason,
        replaces: r.replaces,
    })
}

/// `None` when the viewer may not read it.
fn document_of(
    row: &CitationRow,
    viewer: &Actor,
    zone: &TownZone,
) -> Result<Option<CitationDocument>, AppError> {
    let status = CitationStatus::from_code(&row.status).ok_or(AppError::Internal)?;
    if !may_read(viewer, &row.issued_by, status) {
        return Ok(None);
    }
    let stored = StoredReport::parse(&row.report_json).map_err(|e| {
        tracing::error!(error = %e, incident = row.incident_id, "stored report does not parse");
        AppError::Internal
    })?;
    let offence = Offence::from_code(&row.offence).ok_or(AppError::Internal)?;
    let subject_id = parse_uuid(&row.subject_id)?;
    let text = documents::record::violation_text(&stored, subject_id, offence, zone)
        .ok_or(AppError::Internal)?;
    let (identity, person_signature) = match &stored {
        StoredReport::First(first) => first
            .subjects
            .iter()
            .find(|s| s.subject_id == subject_id)
            .map(|s| (s.identity.clone(), None)),
        StoredReport::Current(report) => report
            .subjects
            .iter()
            .find(|s| s.subject_id == subject_id)
            .map(|s| (s.identity.clone(), s.signature.clone())),
    }
    .ok_or(AppError::Internal)?;
    let officer_signature = row
        .officer_signature
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|_| AppError::Internal)?;
    let penalty = domain::ordinance::Penalty {
        fine_cents: u32::try_from(row.fine_cents).map_err(|_| AppError::Internal)?,
        ..offence.penalty()
    };
    Ok(Some(CitationDocument::compose(
        Parts {
            number: &row.number,
            status,
            issued_at: Moment(row.issued_at),
            officer_name: &row.officer_name,
            officer_badge: row.officer_badge.as_deref().unwrap_or_default(),
            defendant: Defendant::of(&identity),
            offence,
            text,
            penalty,
            arrest: row.arrest == 1,
            court_name: &row.court_name,
            court_address: &row.court_address,
            appearance_date: row.appearance_date.clone(),
            void_reason: row.void_reason.clone(),
            officer_signature,
            person_signature,
            withdrawal: row.withdrawal_reason.clone().map(|reason| WithdrawalNote {
                reason,
                at_text: zone.date_time(Moment(row.withdrawn_at.unwrap_or_default())),
                replaced_by: row.replaced_by.clone(),
            }),
            replaces: row.replaces.clone(),
        },
        zone,
    )))
}
