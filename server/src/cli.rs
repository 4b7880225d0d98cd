//! Subcommands other than `serve`: for scripts, tests and the administrator's shell.

use std::io::BufRead;

use app::auth::clock::{Clock, SystemClock};
use app::auth::By;
use app::model::account::{NewUser, Role};
use app::store::accounts::{self, AccountChange};
use app::store::{audit, Store};

use app::auth::second_factor::{recovery, totp, SealingKey};
use app::store::second_factor::{self, NewFactor};

#[cfg(feature = "seed")]
use crate::config::Seed;
use crate::config::{AuditCommand, UserCommand};

fn by(now: app::ordinance::Moment) -> By<'static> {
    By {
        actor: None,
        source: Some("cli"),
        now,
    }
}

/// The first line of stdin, without its line ending (nothing else is trimmed: a
/// password may begin or end with a space).
fn read_password() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password from stdin: {e}"))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_owned())
}

fn describe(error: app::error::AppError) -> String {
    match error {
        app::error::AppError::Invalid { errors } => errors
            .into_iter()
            .map(|e| format!("{}: {}", e.field, e.message))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

async fn find(store: &Store, username: &str) -> Result<uuid::Uuid, String> {
    accounts::find_by_username(&store.reader, username)
        .await
        .map_err(describe)?
        .map(|u| u.user_id)
        .ok_or_else(|| format!("no user named {username}"))
}

pub async fn user(store: &Store, key: &SealingKey, command: UserCommand) -> Result<(), String> {
    let now = SystemClock.now();
    match command {
        UserCommand::Add {
            username,
            roles,
            name,
            badge,
            totp_secret,
        } => {
            let secret = totp_secret
                .map(|text| {
                    totp::secret_from_text(&text)
                        .ok_or("--totp-secret: not a base32 secret of at least 16 bytes")
                })
                .transpose()?;
            let roles = roles
                .iter()
                .map(|r| {
                    Role::from_code(r).ok_or_else(|| {
                        format!("unknown role {r}: use officer, chief, clerk or admin")
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let new = NewUser {
                username: username.trim().to_lowercase(),
                full_name: name,
                badge_number: badge,
                roles,
                password: read_password()?,
            };
            let mut problems = new.problems();
            if let Some(p) = app::auth::password::policy_problem(&new.password, &new.username) {
                problems.push(app::error::FieldError::new("password", p));
            }
            if !problems.is_empty() {
                return Err(describe(app::error::AppError::Invalid { errors: problems }));
            }
            let hash = app::auth::password::hash(&new.password).map_err(describe)?;
            let user = accounts::create_user(store, by(now), &new, &hash)
                .await
                .map_err(describe)?;
            println!("created {} ({})", user.username, user.user_id);
            if let Some(secret) = secret {
                let codes = recovery::new_codes();
                let hashes: Vec<String> = codes.iter().map(|c| recovery::hash(c)).collect();
                let factor = NewFactor::Totp {
                    sealed: key.seal(&secret),
                    confirmed_step: 0,
                };
                second_factor::enrol(store, by(now), user.user_id, factor, &hashes)
                    .await
                    .map_err(describe)?;
                println!(
                    "authenticator enrolled; recovery codes: {}",
                    codes.join(" ")
                );
            }
        }
        UserCommand::ResetSecondFactor { username } => {
            let id = find(store, &username).await?;
            second_factor::reset(store, by(now), id)
                .await
                .map_err(describe)?;
            println!("second factor reset for {username}; they enrol again at next sign-in");
        }
        UserCommand::Unlock { username } => {
            let id = find(store, &username).await?;
            accounts::change_account(store, by(now), id, AccountChange::Unlock)
                .await
                .map_err(describe)?;
            println!("unlocked {username}");
        }
        UserCommand::Disable { username } => {
            let id = find(store, &username).await?;
            accounts::change_account(store, by(now), id, AccountChange::Active(false))
                .await
                .map_err(describe)?;
            println!("disabled {username}; their sessions end at their next request");
        }
        UserCommand::List => {
            for u in accounts::list_users(&store.reader)
                .await
                .map_err(describe)?
            {
                let roles: Vec<&str> = u.roles.iter().map(|r| r.code()).collect();
                let factors: Vec<&str> = u
                    .second_factors
                    .iter()
                    .map(|f| match f {
                        app::model::account::FactorKind::Passkey => "passkey",
                        app::model::account::FactorKind::Totp => "authenticator",
                        app::model::account::FactorKind::RecoveryCode => "recovery codes",
                    })
                    .collect();
                println!(
                    "{}\t{}\t{}\t{}{}\t{}",
                    u.username,
                    u.full_name,
                    roles.join(","),
                    if u.active { "active" } else { "disabled" },
                    if u.locked { ", locked" } else { "" },
                    if factors.is_empty() {
                        "no second factor".to_owned()
                    } else {
                        factors.join("+")
                    }
                );
            }
        }
    }
    Ok(())
}

/// Shows the sign-in policy, or changes what is given and shows the result.
pub async fn sign_in_policy(
    store: &Store,
    second_factor_required: Option<String>,
    passkey_roles: Vec<String>,
) -> Result<(), String> {
    let mut policy = second_factor::policy(&store.reader)
        .await
        .map_err(describe)?;
    let changing = second_factor_required.is_some() || !passkey_roles.is_empty();
    if let Some(value) = second_factor_required {
        policy.second_factor_required = value == "required";
    }
    if !passkey_roles.is_empty() {
        policy.passkey_roles = passkey_roles
            .iter()
            .filter(|r| r.as_str() != "none")
            .map(|r| Role::from_code(r).ok_or_else(|| format!("unknown role {r}")))
            .collect::<Result<_, _>>()?;
    }
    if changing {
        policy = second_factor::save_policy(store, by(SystemClock.now()), &policy)
            .await
            .map_err(describe)?;
    }
    let roles: Vec<&str> = policy.passkey_roles.iter().map(|r| r.code()).collect();
    println!(
        "second factor: {}; passkey required for: {}",
        if policy.second_factor_required {
            "required"
        } else {
            "optional"
        },
        if roles.is_empty() {
            "no role".to_owned()
        } else {
            roles.join(", ")
        }
    );
    Ok(())
}

pub async fn audit(store: &Store, command: AuditCommand) -> Result<(), String> {
    match command {
        AuditCommand::Verify => match audit::verify(&store.reader).await {
            Ok(Ok(verified)) => {
                println!(
                    "audit log intact: {} entries, last hash {}",
                    verified.entries, verified.last_hash
                );
                Ok(())
            }
            Ok(Err(broken)) => Err(format!("audit log BROKEN at {broken}")),
            Err(e) => Err(format!("cannot read the audit log: {e}")),
        },
    }
}

#[cfg(feature = "seed")]
pub async fn seed(store: &Store, seed: Seed) -> Result<(), String> {
    let zone = app::town_time::TownZone::named(&seed.time_zone)?;
    let started = std::time::Instant::now();
    let plan = app::store::seed::SeedPlan {
        incidents: seed.incidents,
        seed: seed.seed,
        force: seed.force,
    };
    let now = match &seed.end {
        None => SystemClock.now(),
        Some(day) => zone
            .end_of_day(day)
            .filter(|end| end.0 <= SystemClock.now().0)
            .ok_or_else(|| format!("--end {day}: a past date as YYYY-MM-DD"))?,
    };
    let done = app::store::seed::seed(store, &zone, plan, now)
        .await
        .map_err(describe)?;
    println!(
        "seeded {} incidents ({} persons, {} citations, {} returned, {} voided) with seed {} in {:.1} s",
        done.incidents,
        done.persons,
        done.citations,
        done.returned,
        done.voided,
        seed.seed,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn summary(c: &app::store::backup::Checked) -> String {
    format!(
        "{:.1} MB, {} incidents, {} citations, {} audit entries; integrity ok, audit chain intact",
        c.bytes as f64 / 1e6,
        c.incidents,
        c.citations,
        c.audit_entries
    )
}

pub async fn backup(store: &Store, file: &std::path::Path) -> Result<(), String> {
    let checked = app::store::backup::backup(store, file).await?;
    println!("backed up to {}: {}", file.display(), summary(&checked));
    Ok(())
}

/// The current UTC time as backups are named by it: `20261207T021500Z`.
pub fn stamp() -> String {
    jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string()
}

/// `server backup` with no file (the nightly timer): a new checked copy
/// `wells-<UTC time>.db` in `dir`, then the oldest copies beyond `keep`
/// removed. The files that are not in the database are named, not copied: the
/// second-factor key belongs apart from the backups (a stolen backup must not
/// carry it), and the ACME cache is obtained again if lost.
pub async fn backup_into(
    store: &Store,
    dir: &std::path::Path,
    keep: usize,
    outside: &[(&str, std::path::PathBuf)],
    postgres: Option<&str>,
) -> Result<(), String> {
    if keep == 0 {
        return Err("--keep (WELLS_BACKUP_KEEP) must be at least 1".to_owned());
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("--backup-dir {}: cannot create: {e}", dir.display()))?;
    match postgres {
        Some(address) => {
            backup_postgres(store, address, &dir.join(format!("wells-{}.dump", stamp()))).await?
        }
        None => backup(store, &dir.join(format!("wells-{}.db", stamp()))).await?,
    }
    for removed in prune(dir, keep)? {
        println!("removed {} (more than {keep} backups)", removed.display());
    }
    for (what, path) in outside {
        if path.exists() {
            println!(
                "not in the backup, keep a copy apart: {what} {}",
                path.display()
            );
        }
    }
    Ok(())
}

/// Removes the oldest `wells-*.db` in `dir` beyond the newest `keep`.
pub fn prune(dir: &std::path::Path, keep: usize) -> Result<Vec<std::path::PathBuf>, String> {
    let mut backups: Vec<(std::time::SystemTime, String, std::path::PathBuf)> =
        std::fs::read_dir(dir)
            .map_err(|e| format!("--backup-dir {}: cannot read: {e}", dir.display()))?
            .filter_map(Result::ok)
            .filter(|e| crate::ops::is_backup_name(&e.file_name().to_string_lossy()))
            .filter_map(|e| {
                let modified = e.metadata().ok()?.modified().ok()?;
                Some((
                    modified,
                    e.file_name().to_string_lossy().into_owned(),
                    e.path(),
                ))
            })
            .collect();
    // Newest first: by time, then by name (which carries the time) for copies
    // made within one tick of the file system's clock.
    backups.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    let mut removed = Vec::new();
    for (_, _, path) in backups.into_iter().skip(keep) {
        std::fs::remove_file(&path)
            .map_err(|e| format!("cannot remove the old backup {}: {e}", path.display()))?;
        removed.push(path);
    }
    Ok(removed)
}

/// `server backup FILE` on PostgreSQL: pg_dump of the checked snapshot.
pub async fn backup_postgres(
    store: &Store,
    address: &str,
    file: &std::path::Path,
) -> Result<(), String> {
    let checked = app::store::backup::backup_postgres(store, address, file).await?;
    println!("backed up to {}: {}", file.display(), summary(&checked));
    Ok(())
}

/// `server restore FILE` on PostgreSQL: into a new, empty database, checked.
pub async fn restore_postgres(file: &std::path::Path, address: &str) -> Result<(), String> {
    let checked = app::store::backup::restore_postgres(file, address).await?;
    println!(
        "restored {} from {}: {}",
        app::store::shown(address),
        file.display(),
        summary(&checked)
    );
    Ok(())
}

pub async fn restore(file: &std::path::Path, database: &std::path::Path) -> Result<(), String> {
    let checked = app::store::backup::restore(file, database).await?;
    println!(
        "restored {} from {}: {}",
        database.display(),
        file.display(),
        summary(&checked)
    );
    Ok(())
}
