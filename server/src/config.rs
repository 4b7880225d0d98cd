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
    /// Where `server backup` with no file writes its nightly copies, and where
    /// the server puts the copy it takes before it migrates a database to a
    /// new version. Default: `backups/` beside a SQLite database.
    #[arg(long, env = "WELLS_BACKUP_DIR", global = true)]
    pub backup_dir: Option<PathBuf>,
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

    /// The backup folder: as given, or `backups/` beside a SQLite database.
    pub fn backup_dir(&self) -> Result<PathBuf, String> {
        if let Some(dir) = &self.backup_dir {
            return Ok(dir.clone());
        }
        if app::store::is_postgres(&self.database.to_string_lossy()) {
            return Err("with a PostgreSQL database, give --backup-dir \
                        (WELLS_BACKUP_DIR) or a backup file"
                .to_owned());
        }
        Ok(beside(&self.database, "backups"))
    }

    /// The data folder: the SQLite database's, or with PostgreSQL the current one.
    pub fn data_dir(&self) -> PathBuf {
        if app::store::is_postgres(&self.database.to_string_lossy()) {
            return PathBuf::from(".");
        }
        beside(&self.database, "")
    }
}

/// `name` in the folder of `file` (the current folder for a bare file name).
fn beside(file: &std::path::Path, name: &str) -> PathBuf {
    match file.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => parent.join(name),
        None => PathBuf::from(".").join(name),
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app (the default when no subcommand is given).
    Serve(Box<Serve>),
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
    /// runs, and check it. With no file: a new `wells-<UTC time>.db` in the
    /// backup folder, then the oldest there beyond `--keep` are removed (the
    /// nightly timer's form).
    Backup {
        /// The backup file to create (must not exist).
        file: Option<PathBuf>,
        /// How many backups the backup folder keeps (with no file given).
        #[arg(long, env = "WELLS_BACKUP_KEEP", default_value_t = 30)]
        keep: usize,
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
    #[command(flatten)]
    pub tls: TlsArgs,
    #[command(flatten)]
    pub operations: Operations,
}

/// Let's Encrypt's production directory: `--acme-directory`'s default.
pub const LETS_ENCRYPT: &str = "https://acme-v02.api.letsencrypt.org/directory";

/// HTTPS (issue #38): certificate files, or automatic certificates over ACME.
#[derive(Debug, Clone, Default, Args)]
pub struct TlsArgs {
    /// The certificate chain (PEM, the server's own first). With `--tls-key`,
    /// the server speaks HTTPS on `--listen`; both files are read again on
    /// SIGHUP and when they change, so a renewer outside the server
    /// (certbot, lego, the Town's own) needs no restart.
    #[arg(
        long,
        env = "WELLS_TLS_CERT",
        requires = "tls_key",
        conflicts_with = "acme_domain"
    )]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(long, env = "WELLS_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// The name to obtain a certificate for over ACME (a DNS name reachable
    /// from the certificate authority, not an IP address): HTTPS on `--listen`.
    #[arg(long, env = "WELLS_ACME_DOMAIN")]
    pub acme_domain: Option<String>,
    /// The ACME directory (the certificate authority).
    #[arg(long, env = "WELLS_ACME_DIRECTORY", default_value = LETS_ENCRYPT)]
    pub acme_directory: String,
    /// A contact address for the certificate authority's expiry notices.
    #[arg(long, env = "WELLS_ACME_CONTACT")]
    pub acme_contact: Option<String>,
    /// The account key and certificates obtained (owner-only files). Default:
    /// `acme/` beside a SQLite database.
    #[arg(long, env = "WELLS_ACME_CACHE")]
    pub acme_cache: Option<PathBuf>,
    /// The challenge the authority checks: `tls-alpn-01` on the HTTPS port, or
    /// `http-01` on port 80 (needs `--redirect-listen` on port 80).
    #[arg(long, env = "WELLS_ACME_CHALLENGE", default_value = "tls-alpn-01",
          value_parser = ["tls-alpn-01", "http-01"])]
    pub acme_challenge: String,
    /// A root certificate (PEM) trusted for the ACME directory's own HTTPS,
    /// beside the public roots: a Town's internal authority (step-ca, …).
    #[arg(long, env = "WELLS_ACME_DIRECTORY_CA")]
    pub acme_directory_ca: Option<PathBuf>,
    /// A plain-HTTP address (e.g. `0.0.0.0:80`) that only redirects to the
    /// HTTPS origin (and answers http-01 challenges).
    #[arg(long, env = "WELLS_REDIRECT_LISTEN")]
    pub redirect_listen: Option<SocketAddr>,
}

impl TlsArgs {
    /// Whether the server speaks HTTPS.
    pub fn enabled(&self) -> bool {
        self.tls_cert.is_some() || self.acme_domain.is_some()
    }
}

/// Monitoring (issue #38): `/readyz` and `/metrics`.
#[derive(Debug, Clone, Args)]
pub struct Operations {
    /// A bearer token that lets a scraper off this machine read `/metrics`
    /// (`Authorization: Bearer <token>`); without it only loopback may.
    #[arg(long, env = "WELLS_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// `/readyz` fails when the data folder has less free space than this.
    #[arg(long, env = "WELLS_MIN_FREE_DISK_MB", default_value_t = 512)]
    pub min_free_disk_mb: u64,
}

impl Default for Operations {
    fn default() -> Self {
        Operations {
            metrics_token: None,
            min_free_disk_mb: 512,
        }
    }
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
            tls: TlsArgs::default(),
            operations: Operations::default(),
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

    /// The origin as given; or `https://<acme domain>` (with the port unless
    /// it is 443); or `https://<listen>` with certificate files (`serve` puts
    /// the certificate's own name there before it starts); or
    /// `http://<listen>`.
    pub fn public_origin(&self) -> String {
        if let Some(origin) = &self.public_origin {
            return origin.trim_end_matches('/').to_owned();
        }
        match (&self.tls.acme_domain, &self.tls.tls_cert) {
            (Some(domain), _) => https_origin(domain, self.listen.port()),
            (None, Some(_)) => format!("https://{}", self.listen),
            (None, None) => format!("http://{}", self.listen),
        }
    }
}

/// `https://host`, with `:port` unless it is HTTPS's own.
pub fn https_origin(host: &str, port: u16) -> String {
    match port {
        443 => format!("https://{host}"),
        port => format!("https://{host}:{port}"),
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
    fn with_https_the_origin_defaults_to_https_on_the_servers_name() {
        let parse = |args: &[&str]| {
            let cli = Cli::try_parse_from(["server", "serve"].iter().chain(args)).expect("parse");
            let Some(Command::Serve(serve)) = cli.command else {
                panic!("serve expected");
            };
            serve
        };
        let acme = parse(&[
            "--listen",
            "0.0.0.0:443",
            "--acme-domain",
            "wells.example.gov",
        ]);
        assert_eq!(acme.public_origin(), "https://wells.example.gov");
        let acme = parse(&[
            "--listen",
            "0.0.0.0:8443",
            "--acme-domain",
            "wells.example.gov",
        ]);
        assert_eq!(acme.public_origin(), "https://wells.example.gov:8443");
        assert_eq!(acme.tls.acme_directory, LETS_ENCRYPT);
        let files = parse(&["--tls-cert", "c.pem", "--tls-key", "k.pem"]);
        assert_eq!(files.public_origin(), "https://127.0.0.1:3000");
        // A key without its certificate, or both ways at once, is refused by clap.
        assert!(Cli::try_parse_from(["server", "serve", "--tls-key", "k.pem"]).is_err());
        assert!(Cli::try_parse_from([
            "server",
            "serve",
            "--tls-cert",
            "c.pem",
            "--tls-key",
            "k.pem",
            "--acme-domain",
            "a.gov"
        ])
        .is_err());
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
