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

/// Every action the log records, with its name in words (issue #16; issue #37,
/// finding 18: the page shows the words, and its action filter lists them).
pub const ACTIONS: &[(&str, &str)] = &[
    ("session.sign_in", "Sign-in"),
    ("session.sign_out", "Sign-out"),
    ("session.expired", "Session ended (timed out)"),
    ("session.revoked", "Session ended (account changed)"),
    ("account.locked", "Account locked after failed sign-ins"),
    ("access.denied", "Request refused"),
    (
        "request.cross_origin_refused",
        "Request from another site refused",
    ),
    ("user.create", "Account created"),
    ("user.roles", "Roles changed"),
    ("user.enable", "Account enabled"),
    ("user.disable", "Account disabled"),
    ("user.unlock", "Account unlocked"),
    ("user.reset_password", "Password reset by an administrator"),
    ("user.change_password", "Password changed"),
    ("setup.create_admin", "First administrator created"),
    ("setup.token_issued", "First-run link issued"),
    ("settings.court", "Court settings changed"),
    ("settings.sign_in_policy", "Sign-in policy changed"),
    ("settings.sound_limit", "Article II sound limit changed"),
    ("second_factor.enrol", "Second factor set up"),
    ("second_factor.use", "Second factor used at sign-in"),
    (
        "second_factor.recovery_code_used",
        "Recovery code used at sign-in",
    ),
    ("second_factor.recovery_codes", "New recovery codes made"),
    ("second_factor.remove", "Second factor removed"),
    (
        "second_factor.reset",
        "Second factor reset by an administrator",
    ),
    ("signature.officer", "Officer's signature saved"),
    ("incident.submit", "Report submitted"),
    ("incident.resubmit", "Report corrected and resubmitted"),
    ("incident.amend", "Report amended by the chief"),
    ("incident.approve", "Report approved"),
    ("incident.return", "Report returned to the officer"),
    ("incident.reshape", "Reports moved to per-person facts"),
    ("incident.photo", "Photo added to a report"),
    (
        "incident.mark_converted",
        "Report marked as converted from the first version",
    ),
    ("citation.issue", "Citation issued"),
    ("citation.void", "Citation voided"),
    ("citation.file", "Citation filed with the court"),
    ("citation.dispose", "Court decision recorded"),
    ("citation.withdraw", "Citation withdrawn from the court"),
    ("citation.renumber", "Citation given a new number"),
    (
        "citation.conversion_checked",
        "Converted citation checked by the chief",
    ),
    ("numbers.reserve", "Block of citation numbers reserved"),
    ("numbers.return", "Citation numbers returned"),
    ("numbers.expire", "Block of citation numbers expired"),
    ("numbers.void", "Citation number voided"),
    ("court.export", "Export for the court"),
    (
        "transparency.publish",
        "Month published in the transparency report",
    ),
    ("permit.file", "Permit application filed"),
    ("permit.amend", "Permit application amended"),
    ("permit.fee", "Permit fee recorded"),
    ("permit.security", "Permit security recorded"),
    (
        "permit.schedule",
        "Permit application scheduled for the Board",
    ),
    ("permit.issue", "Permit issued"),
    ("permit.deny", "Permit denied"),
    (
        "permit.route_chapter_55",
        "Application routed to Chapter 55",
    ),
    ("permit.opinion", "Advisory opinion recorded"),
    ("permit.settle", "Permit settled"),
    ("permit.finding_met", "Board finding marked met"),
    ("permit.finding_answer", "Board finding answered"),
    ("permit.change", "Permit record changed"),
    ("seed.run", "Synthetic incidents seeded"),
];

/// An audit action's code in words; a code not listed reads as its words
/// ("something.new_kind" → "Something new kind"), never as the code.
pub fn action_text(code: &str) -> String {
    if let Some((_, words)) = ACTIONS.iter().find(|(c, _)| *c == code) {
        return (*words).to_owned();
    }
    let words = code.replace(['.', '_'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => words,
    }
}

/// A change entry's lines, only what changed: the lines the before and after
/// have in common are left out of both (issue #37, finding 18: a settings
/// change listed every setting twice). An entry with only a before or only an
/// after keeps its lines.
pub fn changed_lines(before: Vec<String>, after: Vec<String>) -> (Vec<String>, Vec<String>) {
    if before.is_empty() || after.is_empty() {
        return (before, after);
    }
    let kept_before = before
        .iter()
        .filter(|l| !after.contains(l))
        .cloned()
        .collect();
    let kept_after = after
        .iter()
        .filter(|l| !before.contains(l))
        .cloned()
        .collect();
    (kept_before, kept_after)
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
        assert_eq!(action_text("something.new_kind"), "Something new kind");
    }

    #[test]
    fn a_change_entry_shows_only_what_changed() {
        let lines = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (before, after) = changed_lines(
            lines(&["answer days: 21", "court name: York", "closed days: none"]),
            lines(&["answer days: 65", "court name: York", "closed days: none"]),
        );
        assert_eq!(before, ["answer days: 21"]);
        assert_eq!(after, ["answer days: 65"]);
        // A creation (no before) keeps every line.
        let (before, after) = changed_lines(Vec::new(), lines(&["username: jdoe"]));
        assert!(before.is_empty());
        assert_eq!(after, ["username: jdoe"]);
    }

    #[test]
    fn the_audit_date_range_names_the_field_at_fault() {
        let query = |from: &str, to: &str| AuditQuery {
            from_date: Some(from.to_owned()),
            to_date: Some(to.to_owned()),
            ..AuditQuery::default()
        };
        assert!(query("2026-12-01", "2026-12-07").problems().is_empty());
        assert!(query("2026-12-07", "2026-12-07").problems().is_empty());
        let wrong = query("2026-12-07", "2026-12-01").problems();
        assert_eq!(wrong.len(), 1);
        assert_eq!(wrong[0].field, "to_date");
        assert!(wrong[0].message.starts_with("To (date): on or after"));
        let bad = query("7 Dec", "").problems();
        assert_eq!(bad[0].field, "from_date");
        assert!(bad[0]
            .message
            .starts_with("From (date): a date as YYYY-MM-DD"));
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
    /// The first and last day shown (YYYY-MM-DD, on the Town's calendar), as
    /// the page's form names them; the server turns them into `from` and `to`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_date: Option<String>,
}

impl AuditQuery {
    /// What is wrong with the date range, each naming its field.
    pub fn problems(&self) -> Vec<crate::error::FieldError> {
        use crate::error::FieldError;
        let mut errors = Vec::new();
        let from = self.from_date.as_deref().filter(|d| !d.trim().is_empty());
        let to = self.to_date.as_deref().filter(|d| !d.trim().is_empty());
        for (field, label, value) in [
            ("from_date", "From (date)", from),
            ("to_date", "To (date)", to),
        ] {
            if value.is_some_and(|v| crate::model::civil::parse_date(v.trim()).is_none()) {
                errors.push(FieldError::new(
                    field,
                    format!("{label}: a date as YYYY-MM-DD, for example 2026-12-07."),
                ));
            }
        }
        if errors.is_empty() {
            if let (Some(from), Some(to)) = (from, to) {
                if from.trim() > to.trim() {
                    errors.push(FieldError::new(
                        "to_date",
                        format!("To (date): on or after the From date ({}).", from.trim()),
                    ));
                }
            }
        }
        errors
    }

    /// The page's days as times: from the start of the first day on the Town's
    /// calendar to the start of the day after the last. Days already checked
    /// by [`AuditQuery::problems`]; one not given leaves its bound as sent.
    #[cfg(feature = "ssr")]
    pub fn in_town_days(mut self, zone: &crate::town_time::TownZone) -> AuditQuery {
        let day = |d: &Option<String>| {
            d.as_deref()
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(str::to_owned)
        };
        if let Some(from) = day(&self.from_date) {
            self.from = zone.start_of_day(&from);
        }
        if let Some(to) = day(&self.to_date) {
            self.to = zone.start_of_next_day(&to);
        }
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPage {
    pub entries: Vec<AuditEntryView>,
    /// Pass as `before_seq` for the next page; `None` on the last page.
    pub next_before_seq: Option<i64>,
}
