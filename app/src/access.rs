//! Who may do what: the one table every server function and page asks.
//!
//! A server function starts with `authorize(Permission::…)`; the server decides from
//! the session, never from anything the browser says. The browser uses the same
//! table only to decide which links to show. Record-level rules (an officer sees
//! only their own reports; a clerk only approved citations) are enforced by the
//! store queries and listed in each permission's documentation.

use serde::{Deserialize, Serialize};

use crate::model::account::Role;

/// Who a permission is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Anyone, signed in or not (sign-in, first-run setup).
    Anyone,
    /// Any signed-in user, whatever their roles.
    SignedIn,
    /// A signed-in user holding at least one of these roles.
    Roles(&'static [Role]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    /// Sign in, or create the first administrator with the setup token.
    SignIn,
    /// See who you are; sign out; change your own password.
    OwnAccount,
    /// Record incidents and issue citations; see and correct one's **own** reports
    /// (drafts and returned ones). Admin alone does not issue (issue #4).
    RecordIncidents,
    /// Read a citation or incident report: officers their own, chief all, clerk
    /// approved and filed citations only.
    ViewCitations,
    /// Read a full incident report with its history: officers their own, the
    /// chief all (the clerk works from citations, not reports).
    ReadReports,
    /// Review queue and decisions: approve, return, void, amend.
    Review,
    /// The incident register, full reports and the dashboard.
    Oversee,
    /// Filing queue, exports, marking filed, dispositions, the clerk's register.
    Court,
    /// The account of every citation number of a year (issued, void, returned,
    /// reserved by whom): the chief's register and the clerk's queue show it.
    AccountNumbers,
    /// User accounts: create, roles, disable, unlock, reset password.
    ManageUsers,
    /// Read the audit log.
    ReadAudit,
    /// Court and town settings.
    ManageSettings,
    /// The mass-gathering permit register (Article II): whether a gathering
    /// holds a permit for a place and day, and each application's record.
    ReadPermits,
    /// The Town Clerk's part of a permit (§52-9 A, §52-9 D): type in a paper
    /// application, record the fee, the Town's cost estimate, bond and deposit,
    /// schedule the Selectmen's consideration, settle after the gathering.
    ReceiveApplications,
    /// Record the Board of Selectmen's decision on a permit (§52-8, §52-9 B),
    /// made at its meeting — issue, deny, route to Chapter 55 — and its marking
    /// of a finding met: a Selectman, or the Town Clerk who keeps the Board's
    /// minutes (issue #37).
    DecidePermits,
    /// A written opinion for the Selectmen (§52-8 A).
    AdvisePermits,
}

impl Permission {
    pub const ALL: [Permission; 16] = [
        Permission::SignIn,
        Permission::OwnAccount,
        Permission::RecordIncidents,
        Permission::ViewCitations,
        Permission::ReadReports,
        Permission::Review,
        Permission::Oversee,
        Permission::Court,
        Permission::AccountNumbers,
        Permission::ManageUsers,
        Permission::ReadAudit,
        Permission::ManageSettings,
        Permission::ReadPermits,
        Permission::ReceiveApplications,
        Permission::DecidePermits,
        Permission::AdvisePermits,
    ];

    pub const fn audience(self) -> Audience {
        use Role::*;
        match self {
            Permission::SignIn => Audience::Anyone,
            Permission::OwnAccount => Audience::SignedIn,
            Permission::RecordIncidents => Audience::Roles(&[Officer]),
            Permission::ViewCitations => Audience::Roles(&[Officer, Chief, Clerk]),
            Permission::ReadReports => Audience::Roles(&[Officer, Chief]),
            Permission::Review | Permission::Oversee => Audience::Roles(&[Chief]),
            Permission::Court => Audience::Roles(&[Clerk]),
            Permission::AccountNumbers => Audience::Roles(&[Chief, Clerk]),
            Permission::ManageUsers | Permission::ReadAudit | Permission::ManageSettings => {
                Audience::Roles(&[Admin])
            }
            Permission::ReadPermits => {
                Audience::Roles(&[Officer, Chief, TownClerk, Selectman, Advisor])
            }
            Permission::ReceiveApplications => Audience::Roles(&[TownClerk]),
            Permission::DecidePermits => Audience::Roles(&[Selectman, TownClerk]),
            Permission::AdvisePermits => Audience::Roles(&[Chief, Advisor]),
        }
    }

    /// Whether a user with these roles (`None`: not signed in) is allowed.
    pub fn allows(self, roles: Option<&[Role]>) -> Decision {
        match (self.audience(), roles) {
            (Audience::Anyone, _) => Decision::Allow,
            (_, None) => Decision::SignInFirst,
            (Audience::SignedIn, Some(_)) => Decision::Allow,
            (Audience::Roles(needed), Some(held)) => {
                if needed.iter().any(|r| held.contains(r)) {
                    Decision::Allow
                } else {
                    Decision::Deny
                }
            }
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Permission::SignIn => "sign_in",
            Permission::OwnAccount => "own_account",
            Permission::RecordIncidents => "record_incidents",
            Permission::ViewCitations => "view_citations",
            Permission::ReadReports => "read_reports",
            Permission::Review => "review",
            Permission::Oversee => "oversee",
            Permission::Court => "court",
            Permission::AccountNumbers => "account_numbers",
            Permission::ManageUsers => "manage_users",
            Permission::ReadAudit => "read_audit",
            Permission::ManageSettings => "manage_settings",
            Permission::ReadPermits => "read_permits",
            Permission::ReceiveApplications => "receive_applications",
            Permission::DecidePermits => "decide_permits",
            Permission::AdvisePermits => "advise_permits",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Not signed in: 401, and the page sends the user to sign in.
    SignInFirst,
    /// Signed in without the role: 403.
    Deny,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_users_may_only_sign_in() {
        for p in Permission::ALL {
            let expected = if p == Permission::SignIn {
                Decision::Allow
            } else {
                Decision::SignInFirst
            };
            assert_eq!(p.allows(None), expected, "{p:?}");
        }
    }

    #[test]
    fn an_administrator_alone_cannot_record_incidents_or_review() {
        let admin: &[Role] = &[Role::Admin];
        assert_eq!(
            Permission::RecordIncidents.allows(Some(admin)),
            Decision::Deny
        );
        assert_eq!(Permission::Review.allows(Some(admin)), Decision::Deny);
        assert_eq!(Permission::ManageUsers.allows(Some(admin)), Decision::Allow);
        let chief_admin: &[Role] = &[Role::Chief, Role::Admin];
        assert_eq!(
            Permission::Review.allows(Some(chief_admin)),
            Decision::Allow
        );
    }

    #[test]
    fn a_user_with_no_roles_has_only_their_own_account() {
        let none: &[Role] = &[];
        for p in Permission::ALL {
            let expected = match p {
                Permission::SignIn | Permission::OwnAccount => Decision::Allow,
                _ => Decision::Deny,
            };
            assert_eq!(p.allows(Some(none)), expected, "{p:?}");
        }
    }
}
