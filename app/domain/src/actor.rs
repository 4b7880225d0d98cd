//! Who acts on the records: the signed-in user as the server resolved them, and
//! the attribution every audit entry carries.

use crate::model::account::{Me, Role};
use crate::ordinance::Moment;

/// The signed-in user behind a request, as the server resolved it from the
/// session. Never built from anything the browser sends: it holds the same facts
/// as `Me`, its wire form, but only the server makes one (`resolved`), and it
/// cannot be deserialized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor(Me);

impl std::ops::Deref for Actor {
    type Target = Me;

    fn deref(&self) -> &Me {
        &self.0
    }
}

impl Actor {
    /// The user the server found behind a session (or a seed or test made).
    pub fn resolved(me: Me) -> Actor {
        Actor(me)
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
        self.0.clone()
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
