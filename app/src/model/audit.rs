//! The audit log as the administrator's page shows it.

use serde::{Deserialize, Serialize};

use crate::ordinance::Moment;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditOutcome {
    Success,
    Failure,
    /// Refused by a permission rule or the cross-site request check.
    Denied,
}

impl AuditOutcome {
    pub const fn code(self) -> &'static str {
        match self {
            AuditOutcome::Success => "success",
            AuditOutcome::Failure => "failure",
            AuditOutcome::Denied => "denied",
        }
    }

    pub fn from_code(code: &str) -> Option<AuditOutcome> {
        [
            AuditOutcome::Success,
            AuditOutcome::Failure,
            AuditOutcome::Denied,
        ]
        .into_iter()
        .find(|o| o.code() == code)
    }
}

/// One entry of the append-only log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntryView {
    pub seq: i64,
    pub at: Moment,
    /// `at` in the Town's zone, for display.
    pub at_text: String,
    pub actor: Option<String>,
    pub actor_roles: String,
    pub source: Option<String>,
    pub action: String,
    pub entity_type: Option<String>,
    pub entity_id: Option<String>,
    pub outcome: AuditOutcome,
    pub before: Option<String>,
    pub after: Option<String>,
    pub hash: String,
}

/// Filters for the audit page; every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditQuery {
    /// Username of the actor (exact).
    pub actor: Option<String>,
    /// Action, or its prefix: `session.` finds every sign-in and sign-out.
    pub action: Option<String>,
    pub outcome: Option<AuditOutcome>,
    pub from: Option<Moment>,
    pub to: Option<Moment>,
    /// Show entries with a sequence number below this (the next page).
    pub before_seq: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPage {
    pub entries: Vec<AuditEntryView>,
    /// Pass as `before_seq` for the next page; `None` on the last page.
    pub next_before_seq: Option<i64>,
}
