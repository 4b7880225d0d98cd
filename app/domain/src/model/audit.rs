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
    /// The action in words ("Citation issued"); the code stays in `action`.
    #[serde(default)]
    pub action_text: String,
    /// The record in words ("user jdoe", "incident at Post Road, 2026-07-04"),
    /// where the entry names one.
    #[serde(default)]
    pub record_text: Option<String>,
    /// `before` and `after` as "what: value" lines, times in the Town's zone.
    #[serde(default)]
    pub before_lines: Vec<String>,
    #[serde(default)]
    pub after_lines: Vec<String>,
}

/// An audit action's code in words (the log shows both).
pub fn action_text(code: &str) -> String {
    let words = match code {
        "session.sign_in" => "Sign-in",
        "session.sign_out" => "Sign-out",
        "account.locked" => "Account locked after failed sign-ins",
        "access.denied" => "Request refused",
        "request.cross_origin_refused" => "Request from another site refused",
        "user.create" => "Account created",
        "user.roles" => "Roles changed",
        "user.enable" => "Account enabled",
        "user.disable" => "Account disabled",
        "session.expired" => "Session ended (timed out)",
        "session.revoked" => "Session ended (account changed)",
        "user.unlock" => "Account unlocked",
        "user.reset_password" => "Password reset by an administrator",
        "user.change_password" => "Password changed",
        "setup.create_admin" => "First administrator created",
        "setup.token_issued" => "First-run link issued",
        "settings.court" => "Court settings changed",
        "settings.sign_in_policy" => "Sign-in policy changed",
        "second_factor.enrol" => "Second factor set up",
        "second_factor.use" => "Second factor used at sign-in",
        "second_factor.recovery_code_used" => "Recovery code used at sign-in",
        "second_factor.recovery_codes" => "New recovery codes made",
        "second_factor.remove" => "Second factor removed",
        "second_factor.reset" => "Second factor reset by an administrator",
        "incident.submit" => "Report submitted",
        "incident.resubmit" => "Report corrected and resubmitted",
        "incident.amend" => "Report amended by the chief",
        "incident.approve" => "Report approved",
        "incident.return" => "Report returned to the officer",
        "incident.reshape" => "Reports moved to per-person facts",
        "citation.issue" => "Citation issued",
        "citation.void" => "Citation voided",
        "citation.file" => "Citation filed with the court",
        "citation.dispose" => "Court decision recorded",
        "court.export" => "Export for the court",
        "seed.run" => "Synthetic incidents seeded",
        other => return other.replace(['.', '_'], " "),
    };
    words.to_owned()
}

/// A before/after JSON value as "what: value" lines: nested keys joined by "·",
/// lists of plain values by commas, and numbers under a key that names a time
/// (`at`, `…_at`) shown by `time`.
pub fn json_lines(json: &str, time: &dyn Fn(i64) -> String) -> Vec<String> {
    fn walk(
        prefix: &str,
        v: &serde_json::Value,
        time: &dyn Fn(i64) -> String,
        out: &mut Vec<String>,
    ) {
        use serde_json::Value;
        let key = prefix.rsplit(" · ").next().unwrap_or(prefix);
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    let name = k.replace('_', " ");
                    let path = if prefix.is_empty() {
                        name
                    } else {
                        format!("{prefix} · {name}")
                    };
                    walk(&path, v, time, out);
                }
            }
            Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
                let list: Vec<String> = items.iter().map(plain).collect();
                out.push(format!(
                    "{prefix}: {}",
                    if list.is_empty() {
                        "none".to_owned()
                    } else {
                        list.join(", ")
                    }
                ));
            }
            Value::Array(items) => {
                for (n, item) in items.iter().enumerate() {
                    walk(&format!("{prefix} {}", n + 1), item, time, out);
                }
            }
            Value::Number(n) if key == "at" || key.ends_with(" at") => match n.as_i64() {
                Some(ms) => out.push(format!("{prefix}: {}", time(ms))),
                None => out.push(format!("{prefix}: {n}")),
            },
            other => out.push(format!("{prefix}: {}", plain(other))),
        }
    }
    fn plain(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Bool(true) => "yes".to_owned(),
            serde_json::Value::Bool(false) => "no".to_owned(),
            serde_json::Value::Null => "—".to_owned(),
            other => other.to_string(),
        }
    }
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
        return vec![json.to_owned()];
    };
    let mut out = Vec::new();
    walk("", &value, time, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn before_and_after_read_as_lines_with_times_in_words() {
        let time = |ms: i64| format!("T{ms}");
        let lines = json_lines(
            r#"{"status":"approved","reason":null,"citations":["WPD-2026-000001","WPD-2026-000002"],"given_at":60000,"court":{"answer_days":21}}"#,
            &time,
        );
        assert_eq!(
            lines,
            [
                "citations: WPD-2026-000001, WPD-2026-000002",
                "court · answer days: 21",
                "given at: T60000",
                "reason: —",
                "status: approved",
            ]
        );
        assert_eq!(action_text("citation.issue"), "Citation issued");
        assert_eq!(action_text("something.new_kind"), "something new kind");
    }
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
