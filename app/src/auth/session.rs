//! Sessions: tower-sessions keeps the id (128 random bits) in an HttpOnly,
//! SameSite=Strict cookie with no Max-Age or Expires, and the record in SQLite. What
//! the record holds, and the idle and absolute timeouts (CJIS AC-11, IA-11), are
//! decided here, on the server, on every request.

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use tower_sessions::Session;
use uuid::Uuid;

use crate::auth::Actor;
use crate::model::audit::AuditOutcome;
use crate::ordinance::Moment;
use crate::state::{AppState, Settings};
use crate::store::{accounts, audit};

/// The one key this app stores in a session.
pub const SESSION_KEY: &str = "wells.session";

/// How often, at most, `last_seen_at` is written back: the idle timeout is 30
/// minutes, so minute precision is plenty and most requests write nothing.
const TOUCH_EVERY_MS: i64 = 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    pub user_id: Uuid,
    /// The user's `session_epoch` at sign-in; a different epoch now means the
    /// session was revoked (user disabled, password changed or reset).
    pub epoch: i64,
    pub signed_in_at: Moment,
    pub last_seen_at: Moment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expired {
    Idle,
    Absolute,
}

impl SessionRecord {
    /// Whether the session is still alive at `now`.
    pub fn check(&self, now: Moment, settings: &Settings) -> Result<(), Expired> {
        if now.0 - self.signed_in_at.0 >= settings.absolute_timeout_ms {
            Err(Expired::Absolute)
        } else if now.0 - self.last_seen_at.0 >= settings.idle_timeout_ms {
            Err(Expired::Idle)
        } else {
            Ok(())
        }
    }
}

/// The client's address, when the server was started with connection info.
pub fn client_address(extensions: &http::Extensions) -> Option<String> {
    extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_string())
}

/// Middleware: turns the session cookie into an [`Actor`] request extension, or
/// ends the session when it has timed out or been revoked.
pub async fn resolve_actor(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let session = request.extensions().get::<Session>().cloned();
    if let Some(session) = session {
        let source = client_address(request.extensions());
        if let Some(actor) = current_actor(&state, &session, source.as_deref()).await {
            request.extensions_mut().insert(actor);
        }
    }
    let signed_in = request.extensions().get::<Actor>().is_some();
    let mut response = next.run(request).await;
    if signed_in {
        response
            .headers_mut()
            .insert(SIGNED_IN_HEADER, axum::http::HeaderValue::from_static("1"));
    }
    response
}

/// Marks an answer made for a signed-in user. The service worker keeps a page
/// for use with no signal only with it (`public/sw.js`): a page asked for while
/// signed out answers 200 with "Sign in to continue", which is no use offline.
pub const SIGNED_IN_HEADER: &str = "x-wells-signed-in";

async fn current_actor(state: &AppState, session: &Session, source: Option<&str>) -> Option<Actor> {
    let record = match session.get::<SessionRecord>(SESSION_KEY).await {
        Ok(Some(record)) => record,
        Ok(None) => return None,
        Err(error) => {
            tracing::error!(%error, "session store read failed");
            return None;
        }
    };
    let now = state.clock.now();
    let ended = |action: &'static str, reason: &'static str| {
        audit::Event::new(action, AuditOutcome::Success)
            .by(None, source)
            .on("user", record.user_id)
            .after(serde_json::json!({ "reason": reason }))
    };
    if let Err(expired) = record.check(now, &state.settings) {
        end(
            state,
            session,
            now,
            ended(
                "session.expired",
                match expired {
                    Expired::Idle => "idle timeout",
                    Expired::Absolute => "absolute timeout",
                },
            ),
        )
        .await;
        return None;
    }
    let actor = match accounts::actor_for_session(&state.store.reader, record.user_id, record.epoch)
        .await
    {
        Ok(Some(actor)) => actor,
        Ok(None) => {
            end(
                state,
                session,
                now,
                ended("session.revoked", "account disabled or password changed"),
            )
            .await;
            return None;
        }
        Err(error) => {
            tracing::error!(%error, "loading the session's user failed");
            return None;
        }
    };
    if now.0 - record.last_seen_at.0 >= TOUCH_EVERY_MS {
        let touched = SessionRecord {
            last_seen_at: now,
            ..record
        };
        if let Err(error) = session.insert(SESSION_KEY, touched).await {
            tracing::error!(%error, "session store write failed");
        }
    }
    Some(actor)
}

/// Deletes the session from the store (the cookie then names nothing) and audits why.
async fn end(state: &AppState, session: &Session, now: Moment, event: audit::Event) {
    if let Err(error) = session.flush().await {
        tracing::error!(%error, "could not delete an ended session");
    }
    if let Err(error) = audit::record(&state.store, now, &event).await {
        tracing::error!(?error, "could not audit an ended session");
    }
}

/// Starts a fresh session for `actor`: a new id (no fixation), the record, and the
/// user's current epoch.
pub async fn begin(
    session: &Session,
    user_id: Uuid,
    epoch: i64,
    now: Moment,
) -> Result<(), tower_sessions::session::Error> {
    session.cycle_id().await?;
    continue_as(session, user_id, epoch, now).await
}

/// Signs `user_id` in on the session's current id: for a session whose id was
/// made fresh at the password step of the same sign-in (`auth::sign_in`).
pub async fn continue_as(
    session: &Session,
    user_id: Uuid,
    epoch: i64,
    now: Moment,
) -> Result<(), tower_sessions::session::Error> {
    session
        .insert(
            SESSION_KEY,
            SessionRecord {
                user_id,
                epoch,
                signed_in_at: now,
                last_seen_at: now,
            },
        )
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            public_origin: "http://127.0.0.1:3000".into(),
            idle_timeout_ms: 30 * 60_000,
            absolute_timeout_ms: 12 * 3_600_000,
            secure_cookies: false,
            town_zone: crate::town_time::TownZone::named("America/New_York").expect("zone"),
            release: "test".into(),
        }
    }

    fn record(signed_in: i64, last_seen: i64) -> SessionRecord {
        SessionRecord {
            user_id: Uuid::nil(),
            epoch: 0,
            signed_in_at: Moment(signed_in),
            last_seen_at: Moment(last_seen),
        }
    }

    #[test]
    fn a_session_idle_for_thirty_minutes_has_ended() {
        let s = settings();
        let r = record(0, 0);
        assert_eq!(r.check(Moment(29 * 60_000 + 59_999), &s), Ok(()));
        assert_eq!(r.check(Moment(30 * 60_000), &s), Err(Expired::Idle));
    }

    #[test]
    fn a_busy_session_still_ends_twelve_hours_after_sign_in() {
        let s = settings();
        let twelve_hours = 12 * 3_600_000;
        let r = record(0, twelve_hours - 60_000);
        assert_eq!(r.check(Moment(twelve_hours - 1), &s), Ok(()));
        assert_eq!(r.check(Moment(twelve_hours), &s), Err(Expired::Absolute));
    }
}
