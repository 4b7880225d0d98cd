//! Users, roles and the signed-in person.

use std::fmt;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ordinance::Moment;

/// What a user may do (DESIGN §1). One user may hold several roles; the chief may
/// also be the administrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Records incidents and issues citations on scene.
    Officer,
    /// Reviews every report before it goes to court.
    Chief,
    /// Files citations with the court and records dispositions.
    Clerk,
    /// Manages accounts and settings; issues nothing unless also an officer.
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Officer, Role::Chief, Role::Clerk, Role::Admin];

    pub const fn code(self) -> &'static str {
        match self {
            Role::Officer => "officer",
            Role::Chief => "chief",
            Role::Clerk => "clerk",
            Role::Admin => "admin",
        }
    }

    pub fn from_code(code: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.code() == code)
    }

    pub const fn label(self) -> &'static str {
        match self {
            Role::Officer => "Officer",
            Role::Chief => "Chief",
            Role::Clerk => "Court clerk",
            Role::Admin => "Administrator",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The signed-in person, as the browser sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    pub user_id: Uuid,
    pub username: String,
    pub full_name: String,
    pub badge_number: Option<String>,
    pub roles: Vec<Role>,
    /// Set after an administrator resets the password: every page but the password
    /// change is closed until it is changed.
    pub must_change_password: bool,
}

impl Me {
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }
}

/// A user account as the administrator's list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserSummary {
    pub user_id: Uuid,
    pub username: String,
    pub full_name: String,
    pub badge_number: Option<String>,
    pub roles: Vec<Role>,
    pub active: bool,
    pub locked: bool,
    pub must_change_password: bool,
    pub created_at: Moment,
}

/// A new account, from the administrator's form, the first-run setup or the CLI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewUser {
    pub username: String,
    pub full_name: String,
    pub badge_number: Option<String>,
    pub roles: Vec<Role>,
    pub password: String,
}

/// Longest full name kept (a summary prints it).
pub const MAX_NAME_CHARS: usize = 200;

impl NewUser {
    /// What is wrong with the account details, password aside (its policy, with the
    /// list of common passwords, is the server's).
    pub fn problems(&self) -> Vec<crate::error::FieldError> {
        use crate::error::FieldError;
        let mut errors = Vec::new();
        let username = self.username.trim();
        let valid_chars = username
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | '_'));
        if !(3..=64).contains(&username.chars().count()) || !valid_chars {
            errors.push(FieldError::new(
                "username",
                "Use 3 to 64 lower-case letters, digits, dots, dashes or underscores.",
            ));
        }
        let name = self.full_name.trim();
        if name.is_empty()
            || name.chars().count() > MAX_NAME_CHARS
            || name.chars().any(char::is_control)
        {
            errors.push(FieldError::new(
                "full_name",
                format!("Give the full name (1 to {MAX_NAME_CHARS} characters)."),
            ));
        }
        if let Some(badge) = &self.badge_number {
            let badge = badge.trim();
            if badge.chars().count() > 20
                || !badge.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                errors.push(FieldError::new(
                    "badge_number",
                    "A badge number is up to 20 letters, digits or dashes.",
                ));
            }
        }
        if self.roles.is_empty() {
            errors.push(FieldError::new(
                "roles",
                "Give the account at least one role.",
            ));
        }
        if self.roles.contains(&Role::Officer)
            && self
                .badge_number
                .as_deref()
                .is_none_or(|b| b.trim().is_empty())
        {
            errors.push(FieldError::new(
                "badge_number",
                "Officers need a badge number: it is printed on every citation.",
            ));
        }
        errors
    }
}
