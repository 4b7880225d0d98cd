//! Files the browser downloads (not pages, not JSON): the citation and report
//! PDFs, and the dashboard's tables as CSV.

use app::access::{Decision, Permission};
use app::auth::Actor;
use app::error::AppError;
use app::model::audit::AuditOutcome;
use app::state::AppState;
use app::store::{audit, dashboard, incidents, register};
use axum::extract::{Form, Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{Extensions, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;

use crate::heavy::Heavy;

/// Checks `permission` for a download: not signed in → to the sign-in page and
/// back; wrong role → 403, audited.
pub async fn require(
    state: &AppState,
    extensions: &Extensions,
    uri: &Uri,
    permission: Permission,
) -> Result<Actor, Response> {
    let actor = extensions.get::<Actor>().cloned();
    match permission.allows(actor.as_ref().map(|a| a.roles.as_slice())) {
        Decision::Allow => actor.ok_or_else(|| AppError::Unauthenticated.into_response_json()),
        Decision::SignInFirst => {
            let next =
                app::components::session::encode(uri.path_and_query().map_or("/", |p| p.as_str()));
            Err(Redirect::to(&format!("/sign-in?next={next}")).into_response())
        }
        Decision::Deny => {
            let event = audit::Event::new("access.denied", AuditOutcome::Denied)
                .by(
                    actor.as_ref(),
                    app::auth::session::client_address(extensions).as_deref(),
                )
                .on("permission", permission.code())
                .after(serde_json::json!({ "path": uri.path() }));
            if let Err(error) = audit::record(&state.store, state.clock.now(), &event).await {
                tracing::error!(?error, "could not audit a denied download");
            }
            Err(AppError::Forbidden.into_response_json())
        }
    }
}

/// Audits a download of one record refused as "not found" (not the caller's to
/// see, or not there).
pub(crate) async fn refused_read(
    state: &AppState,
    actor: &Actor,
    extensions: &Extensions,
    uri: &Uri,
    entity: (&'static str, &str),
    error: &AppError,
) {
    if *error != AppError::NotFound {
        return;
    }
    let source = app::auth::session::client_address(extensions);
    if let Err(error) = audit::refused_read(
        &state.store,
        state.clock.now(),
        actor,
        source.as_deref(),
        uri.path(),
        entity,
    )
    .await
    {
        tracing::error!(?error, "could not audit a refused download");
    }
}

pub(crate) trait JsonError {
    fn into_response_json(self) -> Response;
}

impl JsonError for AppError {
    fn into_response_json(self) -> Response {
        (self.status(), Json(self)).into_response()
    }
}

pub fn pdf_response(bytes: Vec<u8>, filename: &str) -> Response {
    (
        [
            (CONTENT_TYPE, "application/pdf".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("inline; filename=\"{filename}\""),
            ),
            (CACHE_CONTROL, "no-store".to_owned()),
        ],
        bytes,
    )
        .into_response()
}

/// `GET /citations/{number}/pdf`: the subject's copy, for those who may read it.
pub async fn citation_pdf(
    State(state): State<AppState>,
    Path(number): Path<String>,
    uri: Uri,
    extensions: Extensions,
) -> Response {
    let actor = match require(&state, &extensions, &uri, Permission::ViewCitations).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    match incidents::citation_document(
        &state.store.reader,
        &number,
        &actor,
        &state.settings.town_zone,
    )
    .await
    {
        Ok(doc) => {
            let filename = format!("{}.pdf", doc.number);
            match Heavy::get()
                .run(move || app::documents::summons::pdf(&doc))
                .await
            {
                Ok(bytes) => pdf_response(bytes, &filename),
                Err(error) => error.into_response_json(),
            }
        }
        Err(error) => {
            refused_read(
                &state,
                &actor,
                &extensions,
                &uri,
                ("citation", &number),
                &error,
            )
            .await;
            error.into_response_json()
        }
    }
}

/// `GET /reports/{id}/pdf`: the full report, for the chief or its officer.
pub async fn report_pdf(
    State(state): State<AppState>,
    Path(id): Path<String>,
    uri: Uri,
    extensions: Extensions,
) -> Response {
    let actor = match require(&state, &extensions, &uri, Permission::ReadReports).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    let found = match id.parse::<uuid::Uuid>() {
        Ok(id) => {
            register::report(&state.store.reader, id, &actor, &state.settings.town_zone).await
        }
        Err(_) => Err(AppError::NotFound),
    };
    let found = match found {
        Ok(view) => photos_of(&state, &actor, &view)
            .await
            .map(|photos| (view, photos)),
        Err(error) => Err(error),
    };
    let drawn = match found {
        // Cleaning the photos and drawing the pages are the heavy part.
        Ok((view, photos)) => {
            Heavy::get()
                .run(move || {
                    let photos = photos
                        .iter()
                        .map(|jpeg| app::model::photo::clean(jpeg))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| AppError::Internal)?;
                    Ok(app::documents::report::pdf(&view, &photos))
                })
                .await
        }
        Err(error) => Err(error),
    };
    match drawn.and_then(|pdf| pdf) {
        Ok(bytes) => pdf_response(bytes, &format!("report-{id}.pdf")),
        Err(error) => {
            refused_read(&state, &actor, &extensions, &uri, ("incident", &id), &error).await;
            error.into_response_json()
        }
    }
}

/// The report's photos as stored (cleaned for drawing with the pages).
async fn photos_of(
    state: &AppState,
    actor: &Actor,
    view: &app::model::review::ReportView,
) -> Result<Vec<Vec<u8>>, AppError> {
    let incident = view.incident_id.to_string();
    let mut photos = Vec::with_capacity(view.photos.len());
    for photo in &view.photos {
        // Read as the report was: whoever may read it may read its photos.
        let jpeg = app::store::photos::jpeg(
            &state.store.reader,
            actor,
            &incident,
            &photo.photo_id.to_string(),
        )
        .await?;
        photos.push(jpeg);
    }
    Ok(photos)
}

/// `GET /dashboard/{figure}.csv?from=&to=`: one of the dashboard's tables, as the
/// page shows it (RFC 4180, UTF-8, a header row).
pub async fn dashboard_csv(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(period): Query<app::model::dashboard::Period>,
    uri: Uri,
    extensions: Extensions,
) -> Response {
    if let Err(response) = require(&state, &extensions, &uri, Permission::Oversee).await {
        return response;
    }
    if let Err(error) = AppError::unless_any(period.problems()) {
        return error.into_response_json();
    }
    let Some(key) = file.strip_suffix(".csv") else {
        return AppError::NotFound.into_response_json();
    };
    let today = state.settings.town_zone.date(state.clock.now());
    let figures = match dashboard::dashboard(&state.store, &period, &today).await {
        Ok(d) => d,
        Err(error) => return error.into_response_json(),
    };
    let Some(figure) = figures.figure(key) else {
        return AppError::NotFound.into_response_json();
    };
    // Labels are the Town's own words (locations typed by officers among them),
    // so cells a spreadsheet would run as formulas are neutralised.
    let Ok(bytes) = app::documents::export::csv_of(figure.records()) else {
        return AppError::Internal.into_response_json();
    };
    (
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"{key}-{}-{}.csv\"",
                    period.from, period.to
                ),
            ),
            (CACHE_CONTROL, "no-store".to_owned()),
        ],
        bytes,
    )
        .into_response()
}

/// The clerk's export form: a format, and comma-separated numbers or a range.
#[derive(serde::Deserialize)]
pub struct ExportForm {
    format: app::model::court::ExportFormat,
    #[serde(default)]
    numbers: String,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
    /// CSV only: begin with a byte-order mark, for Excel.
    #[serde(default)]
    bom: Option<String>,
}

/// `POST /court/export`: a CSV or PDF (or JSON) file of the chosen citations,
/// recorded as an export batch. A POST, because it writes the batch; the
/// same-origin check covers it like every other write.
pub async fn court_export(
    State(state): State<AppState>,
    uri: Uri,
    extensions: Extensions,
    Form(form): Form<ExportForm>,
) -> Response {
    // Signed out (the session ended while the page was open): sign in and come
    // back to the court page. Coming back to this address would be a GET of a
    // form's target (405), and the choice of citations is on that page anyway.
    if extensions.get::<Actor>().is_none() {
        let next = app::components::session::encode("/court");
        return Redirect::to(&format!("/sign-in?next={next}")).into_response();
    }
    let actor = match require(&state, &extensions, &uri, Permission::Court).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    let empty = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
    let selection = app::model::court::ExportSelection {
        numbers: form
            .numbers
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect(),
        from: empty(form.from),
        to: empty(form.to),
    };
    if let Err(error) = AppError::unless_any(selection.problems()) {
        return error.into_response_json();
    }
    let source = app::auth::session::client_address(&extensions);
    let (store, zone, now) = (
        state.store.clone(),
        state.settings.town_zone.clone(),
        state.clock.now(),
    );
    let (format, bom, clerk_id) = (form.format, form.bom.is_some(), actor.user_id);
    // A task of its own behind the heavy-work gate, two at a time per clerk
    // (`server::heavy`): a 100 000-line export holds up no one else's request.
    let exported = Heavy::get()
        .export(clerk_id, async move {
            let clerk = app::store::court::Clerk {
                actor: &actor,
                source: source.as_deref(),
                now,
            };
            app::store::court::export(&store, clerk, &zone, &selection, format, bom).await
        })
        .await;
    match exported {
        Ok(file) => (
            [
                (CONTENT_TYPE, file.format.content_type().to_owned()),
                (
                    CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}\"", file.filename),
                ),
                (CACHE_CONTROL, "no-store".to_owned()),
                (
                    axum::http::HeaderName::from_static("x-export-batch"),
                    file.batch_id.to_string(),
                ),
                (
                    axum::http::HeaderName::from_static("x-export-sha256"),
                    file.sha256.clone(),
                ),
            ],
            file.bytes,
        )
            .into_response(),
        Err(error) => error.into_response_json(),
    }
}

/// The Town day of now: the §52-9 calendar (deemed denial) counts the Town's days.
fn town_today(state: &AppState) -> i64 {
    app::model::civil::day_number(&state.settings.town_zone.date(state.clock.now())).unwrap_or(0)
}

/// The permit or written denial of an application, or 404 while undecided.
async fn decision_pdf(record: app::model::permit::PermitRecord) -> Response {
    let filename = format!("{}.pdf", record.number);
    match Heavy::get()
        .run(move || app::documents::permit::pdf(&record))
        .await
    {
        Ok(Some(bytes)) => pdf_response(bytes, &filename),
        Ok(None) => AppError::NotFound.into_response_json(),
        Err(error) => error.into_response_json(),
    }
}

/// `GET /permits/{id}/pdf`: the Selectmen's decision on an application, for the Town's staff.
pub async fn permit_pdf(
    State(state): State<AppState>,
    Path(id): Path<String>,
    uri: Uri,
    extensions: Extensions,
) -> Response {
    let actor = match require(&state, &extensions, &uri, Permission::ReadPermits).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    let found = match id.parse::<uuid::Uuid>() {
        Ok(id) => {
            app::store::permits::record(
                &state.store.reader,
                id,
                town_today(&state),
                &state.settings.town_zone,
            )
            .await
        }
        Err(_) => Err(AppError::NotFound),
    };
    match found {
        Ok(record) => decision_pdf(record).await,
        Err(error) => {
            refused_read(&state, &actor, &extensions, &uri, ("permit", &id), &error).await;
            error.into_response_json()
        }
    }
}

#[derive(serde::Deserialize)]
pub struct StatusToken {
    token: String,
}

/// `GET /permits/status/pdf?token=…`: the same document, for the operator's
/// private link (counted per address like the status page).
pub async fn permit_status_pdf(
    State(state): State<AppState>,
    Query(query): Query<StatusToken>,
    extensions: Extensions,
) -> Response {
    let source = app::auth::session::client_address(&extensions);
    let key = format!("permit-status:{}", source.as_deref().unwrap_or("unknown"));
    if !state.sign_in_limiter.allow(&key, state.clock.now()) {
        return AppError::RateLimited.into_response_json();
    }
    let token = query.token.trim();
    if !app::model::permit::plausible_token(token) {
        return AppError::NotFound.into_response_json();
    }
    match app::store::permits::by_token(
        &state.store.reader,
        token,
        town_today(&state),
        &state.settings.town_zone,
    )
    .await
    {
        Ok(record) => decision_pdf(record).await,
        Err(error) => error.into_response_json(),
    }
}
