//! Who is asking (ssr only): passwords, sessions, lockout, rate limits, and the
//! `authorize` call every server function starts with.

pub mod clock;
pub mod guard;
pub mod lockout;
pub mod password;
pub mod rate_limit;
pub mod second_factor;
pub mod session;
pub mod setup;
pub mod sign_in;

use uuid::Uuid;

use crate::model::account::{Me, Role};

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
}
