//! Who acts on the records: the signed-in user as the server resolved them, and
//! the attribution every audit entry carries.

use uuid::Uuid;

use crate::model::account::{Me, Role};
use crate::ordinance::Moment;

/// The signed-in user behind a request, as the server resolved it from the
/// session. Never built from anything the browser sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub user_id: Uuid,
    pub username: String,
    pub full_name: String,
    pub badge_number: Option<String>,
    pub roles: Vec<Role>,
    pub must_change_password: bool,
    /// The policy requires a second factor this account lacks: only its own
    /// account (enrolment, password, sign-out) is open.
    pub needs_second_factor: bool,
}

impl Actor {
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// Roles as the audit log stores them: `chief,officer`.
    pub fn roles_text(&self) -> String {
        self.roles
            .iter()
            .map(|r| r.code())
            .collect::<Vec<_>>()
            .join(",")
    }

    pub fn me(&self) -> Me {
        Me {
            user_id: self.user_id,
            username: self.username.clone(),
            full_name: self.full_name.clone(),
            badge_number: self.badge_number.clone(),
            roles: self.roles.clone(),
            must_change_password: self.must_change_password,
            needs_second_factor: self.needs_second_factor,
        }
    }

    /// Who may read an incident's report and what belongs to it (its revisions,
    /// PDF, photos): the chief, or the officer who recorded it. To anyone else the
    /// report does not exist (a 404, never a 403 that confirms it does).
    pub fn may_read_report(&self, officer_id: &str) -> bool {
        self.has(Role::Chief) || (self.has(Role::Officer) && officer_id == self.user_id.to_string())
    }
}

/// Who did something and from where, for the audit entry.
#[derive(Debug, Clone, Copy)]
pub struct By<'a> {
    pub actor: Option<&'a Actor>,
    pub source: Option<&'a str>,
    pub now: Moment,
}
