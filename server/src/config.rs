//! Command line and environment: one struct per subcommand, every option with an
//! `env` fallback and a default documented in the README.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "server", version, about = "Wells loitering enforcement log")]
pub struct Cli {
    #[command(flatten)]
    pub common: Common,
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// Parses the command line, exiting with clap's message on an error; `server`
    /// with no subcommand is `server serve`, read with serve's flags and its
    /// `WELLS_*` variables (a bare `server` once served on the defaults whatever
    /// the environment said).
    pub fn parse_or_serve<I>(args: I) -> Cli
    where
        I: IntoIterator<Item = std::ffi::OsString>,
    {
        let args: Vec<std::ffi::OsString> = args.into_iter().collect();
        let cli = Cli::parse_from(args.clone());
        if cli.command.is_some() {
            return cli;
        }
        let mut with_serve = args;
        with_serve.insert(1.min(with_serve.len()), "serve".into());
        Cli::parse_from(with_serve)
    }
}

/// Options every subcommand shares.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// The database: a SQLite file (it and its folder are created on first
    /// start), or a PostgreSQL database's address, `postgres://user:password@host/db`
    /// (it must exist; its tables are created on first start).
    #[arg(
        long,
        env = "WELLS_DATABASE",
        default_value = "data/wells.db",
        global = true
    )]
    pub database: PathBuf,
    /// The key that seals authenticator secrets (64 hex digits). Created on first
    /// start, owner-only (0600), when missing. Default: beside a SQLite
    /// database, `<database>.second-factor-key`; with PostgreSQL it must be given
    /// (the same key on every app server). Back it up with the database, but apart
    /// from it: a database restored without its key loses its authenticators.
    #[arg(long, env = "WELLS_SECOND_FACTOR_KEY", global = true)]
    pub second_factor_key: Option<PathBuf>,
    /// Log filter (tracing `EnvFilter` syntax), e.g. `info` or `server=debug,info`.
    #[arg(long, env = "WELLS_LOG", default_value = "info", global = true)]
    pub log_level: String,
}

impl Common {
    /// Where the sealing key is: as given, or beside a SQLite database. A
    /// PostgreSQL database has no "beside", and every app server on it must
    /// seal with the same key, so there it must be given.
    pub fn second_factor_key_path(&self) -> Result<PathBuf, String> {
        if let Some(path) = &self.second_factor_key {
            return Ok(path.clone());
        }
        if app::store::is_postgres(&self.database.to_string_lossy()) {
            return Err("with a PostgreSQL database, give --second-factor-key \
                        (WELLS_SECOND_FACTOR_KEY): the same key file on every app server"
                .to_owned());
        }
        let mut name = self.database.clone().into_os_string();
        name.push(".second-factor-key");
        Ok(PathBuf::from(name))
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app (the default when no subcommand is given).
    Serve(Serve),
    /// Manage user accounts from scripts (the password is read from stdin).
    #[command(subcommand)]
    User(UserCommand),
    /// Show or set the sign-in policy (the administrator's settings page does the
    /// same); with no options, shows it.
    SignInPolicy {
        /// `required`: every account needs a second factor; `optional`: only
        /// accounts that enrolled one are asked for it.
        #[arg(long, value_parser = ["required", "optional"])]
        second_factor: Option<String>,
        /// A role that must sign in with a passkey; repeat for several, or give
        /// `none` to clear.
        #[arg(long = "passkey-role")]
        passkey_roles: Vec<String>,
    },
    /// Check the audit log.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// Fill the database with synthetic incidents for demos and benchmarks.
    #[cfg(feature = "seed")]
    Seed(Seed),
    /// Write a consistent snapshot of the database to a new file, while the server
    /// runs, and check it.
    Backup {
        /// The backup file to create (must not exist).
        file: PathBuf,
    },
    /// Replace the database with a checked backup (the server must be stopped).
    Restore {
        /// The backup file to restore from.
        file: PathBuf,
    },
}

#[cfg(feature = "seed")]
#[derive(Debug, Clone, Args)]
pub struct Seed {
    /// How many incidents to make.
    #[arg(long)]
    pub incidents: u64,
    /// The generator's seed: the same seed makes the same incidents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run even though the database holds real (not seeded) incidents.
    #[arg(long)]
    pub force: bool,
    /// The last day of the synthetic period (`YYYY-MM-DD`, the Town's calendar;
    /// default today): demos want recent data, tests a period of their own.
    #[arg(long)]
    pub end: Option<String>,
    /// IANA time zone of the Town (as for `serve`).
    #[arg(long, env = "WELLS_TIME_ZONE", default_value = "America/New_York")]
    pub time_zone: String,
}

#[derive(Debug, Clone, Args)]
pub struct Serve {
    /// Address and port to listen on.
    #[arg(long, env = "WELLS_LISTEN", default_value = "127.0.0.1:3000")]
    pub listen: SocketAddr,
    /// The origin browsers use to reach the app (scheme, host and port). State-changing
    /// requests from any other origin are refused. Defaults to `http://<listen>`.
    #[arg(long, env = "WELLS_PUBLIC_ORIGIN")]
    pub public_origin: Option<String>,
    /// Folder with the built browser files (cargo-leptos's site root).
    #[arg(long, env = "WELLS_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,
    /// Minutes without a request after which a session ends (CJIS AC-11).
    #[arg(long, env = "WELLS_IDLE_TIMEOUT_MINUTES", default_value_t = 30)]
    pub idle_timeout_minutes: u32,
    /// Hours after sign-in at which a session ends however active it is.
    #[arg(long, env = "WELLS_SESSION_HOURS", default_value_t = 12)]
    pub session_hours: u32,
    /// Sign-in attempts allowed per client address per minute.
    #[arg(long, env = "WELLS_SIGN_IN_PER_MINUTE", default_value_t = 20)]
    pub sign_in_per_minute: u32,
    /// Mark the session cookie `Secure`. Defaults to on when the public origin is https.
    #[arg(long, env = "WELLS_SECURE_COOKIES")]
    pub secure_cookies: Option<bool>,
    /// IANA time zone in which times are shown and printed.
    #[arg(long, env = "WELLS_TIME_ZONE", default_value = "America/New_York")]
    pub time_zone: String,
    /// Threads that run requests (0: one per core). With 1 the whole server runs
    /// on one thread, pages included, as it did before issue #39.
    #[arg(long, env = "WELLS_WORKER_THREADS", default_value_t = 0)]
    pub worker_threads: usize,
    /// Threads that render pages, one page's work on one thread (0: one per
    /// core). See `server::render`.
    #[arg(long, env = "WELLS_RENDER_THREADS", default_value_t = 0)]
    pub render_threads: usize,
    /// Render pages on the request threads of a multi-threaded server: the
    /// arrangement that deadlocks inside Leptos's reactive graph, kept only so
    /// the hang harness can measure it. Debug builds only.
    #[cfg(debug_assertions)]
    #[arg(long, env = "WELLS_TEST_UNCONFINED_RENDERS", default_value_t = false)]
    pub test_unconfined_renders: bool,
    /// Days added to the server's clock, for tests of the calendar (§52-9 B(3)'s
    /// deemed denial). Debug builds only: a release build keeps the real time.
    #[cfg(debug_assertions)]
    #[arg(long, env = "WELLS_TEST_CLOCK_OFFSET_DAYS", default_value_t = 0)]
    pub test_clock_offset_days: i64,
}

impl Default for Serve {
    fn default() -> Self {
        Serve {
            listen: SocketAddr::from(([127, 0, 0, 1], 3000)),
            public_origin: None,
            site_root: PathBuf::from("target/site"),
            idle_timeout_minutes: 30,
            session_hours: 12,
            sign_in_per_minute: 20,
            secure_cookies: None,
            time_zone: "America/New_York".to_owned(),
            worker_threads: 0,
            render_threads: 0,
            #[cfg(debug_assertions)]
            test_unconfined_renders: false,
            #[cfg(debug_assertions)]
            test_clock_offset_days: 0,
        }
    }
}

impl Serve {
    /// The threads that run requests: as asked, or one per core.
    pub fn request_threads(&self) -> usize {
        match self.worker_threads {
            0 => cores(),
            n => n,
        }
    }

    /// Where pages render: on a server of one thread, where everything runs;
    /// otherwise on render threads of their own (`server::render`).
    pub fn renders(&self) -> crate::render::Renders {
        #[cfg(debug_assertions)]
        if self.test_unconfined_renders {
            return crate::render::Renders::inline();
        }
        if self.request_threads() == 1 {
            return crate::render::Renders::inline();
        }
        crate::render::Renders::new(match self.render_threads {
            0 => cores(),
            n => n,
        })
    }

    pub fn public_origin(&self) -> String {
        self.public_origin
            .clone()
            .map(|o| o.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| format!("http://{}", self.listen))
    }
}

/// The cores this process may use.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account; the password is the first line of stdin.
    Add {
        username: String,
        /// officer, chief, clerk or admin; repeat for several.
        #[arg(long = "role", required = true)]
        roles: Vec<String>,
        /// Full name, as printed on citations.
        #[arg(long)]
        name: String,
        /// Badge number (required for officers).
        #[arg(long)]
        badge: Option<String>,
        /// Enrol an authenticator with this base32 secret (scripts and tests that
        /// compute codes themselves); prints the account's recovery codes.
        #[arg(long)]
        totp_secret: Option<String>,
    },
    /// A lost phone: remove the account's passkeys, authenticator and recovery
    /// codes and end its sessions; the user enrols again at next sign-in.
    #[command(name = "reset-2fa")]
    ResetSecondFactor { username: String },
    /// Clear a lockout after failed sign-ins.
    Unlock { username: String },
    /// Disable an account; its sessions end at their next request.
    Disable { username: String },
    /// List accounts.
    List,
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Walk the hash chain; exit non-zero naming the first broken entry.
    Verify,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_subcommand_means_serve_with_documented_defaults() {
        let cli = Cli::parse_or_serve(["server", "--database", "x.db"].map(Into::into));
        assert!(matches!(cli.command, Some(Command::Serve(_))));
        assert_eq!(cli.common.database, PathBuf::from("x.db"));
        let serve = Serve::default();
        assert_eq!(serve.listen.to_string(), "127.0.0.1:3000");
        assert_eq!(serve.public_origin(), "http://127.0.0.1:3000");
        assert_eq!(serve.idle_timeout_minutes, 30);
        assert_eq!(serve.session_hours, 12);
    }

    #[test]
    fn public_origin_loses_a_trailing_slash() {
        let cli =
            Cli::try_parse_from(["server", "serve", "--public-origin", "https://log.example/"])
                .expect("parse");
        let Some(Command::Serve(serve)) = cli.command else {
            panic!("serve expected");
        };
        assert_eq!(serve.public_origin(), "https://log.example");
    }

    #[test]
    fn user_add_takes_several_roles() {
        let cli = Cli::try_parse_from([
            "server", "user", "add", "jdoe", "--role", "officer", "--role", "chief", "--name",
            "Jane Doe", "--badge", "117",
        ])
        .expect("parse");
        let Some(Command::User(UserCommand::Add { roles, .. })) = cli.command else {
            panic!("user add expected");
        };
        assert_eq!(roles, ["officer", "chief"]);
    }
}
