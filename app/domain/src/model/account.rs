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
    /// The Town Clerk: receives mass-gathering permit applications and their
    /// fee (§52-9 A), records bond and deposit and settles it (§52-9 D).
    TownClerk,
    /// A member of the Board of Selectmen: issues or denies permits (§52-8, §52-9 B).
    Selectman,
    /// An official the Selectmen consult on a permit (§52-8 A): Fire Chief, Code
    /// Enforcement Officer, Health Officer. The Police Chief advises as `chief`.
    Advisor,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::Officer,
        Role::Chief,
        Role::Clerk,
        Role::Admin,
        Role::TownClerk,
        Role::Selectman,
        Role::Advisor,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            Role::Officer => "officer",
            Role::Chief => "chief",
            Role::Clerk => "clerk",
            Role::Admin => "admin",
            Role::TownClerk => "town_clerk",
            Role::Selectman => "selectman",
            Role::Advisor => "advisor",
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
            Role::TownClerk => "Town Clerk",
            Role::Selectman => "Selectman",
            Role::Advisor => "Advisor to the Selectmen",
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
    /// The sign-in policy asks for a second factor this account does not have
    /// (issue #18): every page but enrolment is closed until one is set up.
    #[serde(default)]
    pub needs_second_factor: bool,
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
    /// The second factors enrolled (passkey, authenticator), none when empty.
    #[serde(default)]
    pub second_factors: Vec<FactorKind>,
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

/// A second way of proving who one is, beside the password (CJIS IA-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactorKind {
    /// A six-digit code from an authenticator app (RFC 6238).
    Totp,
    /// A passkey: the phone's fingerprint or face unlock (WebAuthn).
    Passkey,
    /// One of the ten one-time recovery codes.
    RecoveryCode,
}

impl FactorKind {
    /// The factor's name in a sign-in page's address (`?second=totp,passkey`): the
    /// plain form post's second step is a page the server redirects to.
    pub fn code(self) -> &'static str {
        match self {
            FactorKind::Totp => "totp",
            FactorKind::Passkey => "passkey",
            FactorKind::RecoveryCode => "recovery_code",
        }
    }

    pub fn from_code(code: &str) -> Option<FactorKind> {
        [
            FactorKind::Totp,
            FactorKind::Passkey,
            FactorKind::RecoveryCode,
        ]
        .into_iter()
        .find(|kind| kind.code() == code)
    }
}

/// Where a right password leaves the sign-in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum SignInStep {
    /// Signed in (no second factor enrolled; the policy may still send the user
    /// to enrol one, see [`Me::needs_second_factor`]).
    SignedIn { me: Me },
    /// The password was right; the account's second factor comes next, within
    /// five minutes. `methods` are the ones this account has.
    SecondFactor { methods: Vec<FactorKind> },
}

/// One registered passkey, as its owner sees it (never the key itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasskeyInfo {
    pub credential_id: String,
    pub name: String,
    pub created_at: Moment,
    pub last_used_at: Option<Moment>,
}

/// One's own second factors and what the policy asks of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecondFactors {
    pub totp: bool,
    pub passkeys: Vec<PasskeyInfo>,
    pub recovery_codes_left: u32,
    /// The administrator's policy requires a second factor.
    pub required: bool,
    /// One of the account's roles must sign in with a passkey.
    pub passkey_required: bool,
    /// Why passkeys cannot be used on this server, when they cannot.
    pub passkeys_unavailable: Option<String>,
}

/// An authenticator app's enrolment: the QR code and the same secret as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TotpEnrolment {
    /// Base32, for typing into the app by hand.
    pub secret: String,
    /// The `otpauth://` link the QR code holds.
    pub uri: String,
    /// The QR code as an `<svg>` element.
    pub qr_svg: String,
}

/// After an enrolment: the recovery codes, when this was the first factor (shown
/// this once; the server keeps only their hashes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enrolled {
    pub recovery_codes: Option<Vec<String>>,
}

/// The administrator's sign-in policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignInPolicy {
    /// Every account must have a second factor (on for a new install).
    pub second_factor_required: bool,
    /// Accounts holding any of these roles must have a passkey; an authenticator
    /// code alone does not do for them.
    pub passkey_roles: Vec<Role>,
}

impl SignInPolicy {
    /// Whether an account with these roles and factors has what the policy asks.
    pub fn satisfied_by(&self, roles: &[Role], has_totp: bool, has_passkey: bool) -> bool {
        if !self.second_factor_required {
            return true;
        }
        if roles.iter().any(|r| self.passkey_roles.contains(r)) {
            has_passkey
        } else {
            has_totp || has_passkey
        }
    }

    /// Whether one of `roles` must use a passkey.
    pub fn needs_passkey(&self, roles: &[Role]) -> bool {
        self.second_factor_required && roles.iter().any(|r| self.passkey_roles.contains(r))
    }
}

#[cfg(test)]
mod policy_tests {
    use super::*;

    #[test]
    fn the_policy_asks_for_a_passkey_only_of_the_roles_it_names() {
        let policy = SignInPolicy {
            second_factor_required: true,
            passkey_roles: vec![Role::Admin],
        };
        assert!(!policy.satisfied_by(&[Role::Officer], false, false));
        assert!(policy.satisfied_by(&[Role::Officer], true, false));
        assert!(!policy.satisfied_by(&[Role::Admin], true, false));
        assert!(policy.satisfied_by(&[Role::Admin], false, true));
        let off = SignInPolicy {
            second_factor_required: false,
            passkey_roles: vec![Role::Admin],
        };
        assert!(off.satisfied_by(&[Role::Admin], false, false));
    }
}

/// A `next` parameter is only followed within this site: a path of this site,
/// never `//other.example` (another host), a backslash (read as a slash), or a
/// space or control character (browsers drop tabs and newlines from an address,
/// so `/\t/other.example` would become `//other.example`).
pub fn safe_next(next: Option<String>) -> String {
    next.filter(|n| {
        n.starts_with('/')
            && !n.starts_with("//")
            && !n.contains('\\')
            && !n.chars().any(|c| c.is_control() || c.is_whitespace())
    })
    .unwrap_or_else(|| "/".to_owned())
}

/// Where a finished sign-in goes: a new password first, then a second factor if
/// the policy needs one, else where the user was headed.
pub fn after_sign_in(me: &Me, next: Option<String>) -> String {
    if me.must_change_password {
        "/account/password".to_owned()
    } else if me.needs_second_factor {
        "/account/security".to_owned()
    } else {
        safe_next(next)
    }
}

/// The sign-in page's address after a plain form post (the app's
/// `session/sign-in-form`): what the server's redirect says, and what the page
/// reads back.
pub mod sign_in_address {
    use crate::error::AppError;
    use crate::model::account::FactorKind;

    fn with_next(mut query: String, next: Option<&str>) -> String {
        if let Some(next) = next {
            query.push_str("&next=");
            query.push_str(&crate::model::text::percent_encode(next));
        }
        format!("/sign-in?{query}")
    }

    /// The password was right: the page shows the account's factors.
    pub fn second_step(methods: &[FactorKind], next: Option<&str>) -> String {
        let codes: Vec<&str> = methods.iter().map(|m| m.code()).collect();
        with_next(format!("second={}", codes.join(",")), next)
    }

    /// Refused: the page says why, as the app would have.
    pub fn refused(error: &AppError, next: Option<&str>) -> String {
        let reason = match error {
            AppError::SignInRefused => "refused",
            AppError::RateLimited => "limited",
            _ => "failed",
        };
        with_next(format!("refused={reason}"), next)
    }

    pub fn methods(second: &str) -> Vec<FactorKind> {
        second
            .split(',')
            .filter_map(FactorKind::from_code)
            .collect()
    }

    pub fn error(reason: &str) -> AppError {
        match reason {
            "refused" => AppError::SignInRefused,
            "limited" => AppError::RateLimited,
            _ => AppError::Internal,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_second_step_names_the_factors_and_keeps_where_the_user_was_headed() {
            let address = second_step(
                &[FactorKind::Passkey, FactorKind::RecoveryCode],
                Some("/desk/report/1?tab=a b"),
            );
            assert_eq!(
                address,
                "/sign-in?second=passkey,recovery_code&next=/desk/report/1%3Ftab%3Da%20b"
            );
            assert_eq!(
                methods("passkey,recovery_code,forged"),
                vec![FactorKind::Passkey, FactorKind::RecoveryCode]
            );
        }

        #[test]
        fn a_refusal_reads_back_as_the_same_error() {
            for error in [AppError::SignInRefused, AppError::RateLimited] {
                let address = refused(&error, None);
                let reason = address
                    .rsplit('=')
                    .next()
                    .expect("the address ends in the reason");
                assert_eq!(super::error(reason), error);
            }
        }
    }
}

#[cfg(test)]
mod safe_next_tests {
    use super::safe_next;

    fn next(text: &str) -> String {
        safe_next(Some(text.to_owned()))
    }

    #[test]
    fn sign_in_returns_only_to_a_path_of_this_site() {
        assert_eq!(next("/reports/1?tab=decide"), "/reports/1?tab=decide");
        assert_eq!(safe_next(None), "/");
        for outside in [
            "https://other.example/",
            "//other.example/",
            "/\\other.example",
            "\\/other.example",
            "/\t/other.example",
            "/\n/other.example",
            "/\r/other.example",
            " //other.example",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(next(outside), "/", "{outside:?} must not be followed");
        }
    }
}
