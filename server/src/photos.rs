//! Incident photos over HTTP (issue #20): the phone uploads each JPEG on its own
//! (a report stays small and is never held up by a photo), under the id it made
//! for the photo, so a retry after a lost answer stores nothing twice.

use app::access::Permission;
use app::auth::By;
use app::error::AppError;
use app::model::photo::{self, MAX_BYTES};
use app::state::AppState;
use app::store::photos;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{Extensions, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::downloads::{refused_read, require, JsonError};

/// `PUT /incidents/{incident_id}/photos/{photo_id}`, the body a JPEG of at most
/// [`MAX_BYTES`]: the officer's own incident, at most ten photos; metadata
/// removed before it is stored; audited with its SHA-256.
pub async fn put(
    State(state): State<AppState>,
    Path((incident_id, photo_id)): Path<(String, String)>,
    uri: Uri,
    extensions: Extensions,
    body: Bytes,
) -> Response {
    // The phone's outbox, not a person at a browser: signed out is a 401 to act
    // on, never a redirect to the sign-in page that would read as success.
    if extensions.get::<app::auth::Actor>().is_none() {
        return AppError::Unauthenticated.into_response_json();
    }
    let actor = match require(&state, &extensions, &uri, Permission::RecordIncidents).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    let (Ok(incident_id), Ok(photo_id)) = (incident_id.parse(), photo_id.parse()) else {
        return AppError::NotFound.into_response_json();
    };
    if body.len() > MAX_BYTES {
        return AppError::TooLarge {
            limit_bytes: MAX_BYTES as u64,
        }
        .into_response_json();
    }
    let clean = match photo::clean(&body) {
        Ok(clean) => clean,
        Err(problem) => {
            return AppError::invalid("photo", problem.to_string()).into_response_json()
        }
    };
    let source = app::auth::session::client_address(&extensions);
    let by = By {
        actor: Some(&actor),
        source: source.as_deref(),
        now: state.clock.now(),
    };
    match photos::add(&state.store, by, &actor, incident_id, photo_id, clean).await {
        Ok(stored) => Json(stored).into_response(),
        Err(error) => error.into_response_json(),
    }
}

/// `GET /incidents/{incident_id}/photos/{photo_id}`: the stored JPEG, for those
/// who may read the report; a refused read is audited as the PDFs' are.
pub async fn get(
    State(state): State<AppState>,
    Path((incident_id, photo_id)): Path<(String, String)>,
    uri: Uri,
    extensions: Extensions,
) -> Response {
    let actor = match require(&state, &extensions, &uri, Permission::ReadReports).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    match photos::jpeg(&state.store.reader, &actor, &incident_id, &photo_id).await {
        Ok(jpeg) => (
            [
                (CONTENT_TYPE, "image/jpeg"),
                (CACHE_CONTROL, "private, max-age=86400, immutable"),
            ],
            jpeg,
        )
            .into_response(),
        Err(error) => {
            refused_read(
                &state,
                &actor,
                &extensions,
                &uri,
                ("incident_photo", &photo_id),
                &error,
            )
            .await;
            error.into_response_json()
        }
    }
}
