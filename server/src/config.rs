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

/// Options every subcommand shares.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// SQLite database file; it and its folder are created on first start.
    #[arg(
        long,
        env = "WELLS_DATABASE",
        default_value = "data/wells.db",
        global = true
    )]
    pub database: PathBuf,
    /// Log filter (tracing `EnvFilter` syntax), e.g. `info` or `server=debug,info`.
    #[arg(long, env = "WELLS_LOG", default_value = "info", global = true)]
    pub log_level: String,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app (the default when no subcommand is given).
    Serve(Serve),
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
}

impl Default for Serve {
    fn default() -> Self {
        Serve {
            listen: SocketAddr::from(([127, 0, 0, 1], 3000)),
            public_origin: None,
            site_root: PathBuf::from("target/site"),
        }
    }
}

impl Serve {
    pub fn public_origin(&self) -> String {
        self.public_origin
            .clone()
            .map(|o| o.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| format!("http://{}", self.listen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_subcommand_means_serve_with_documented_defaults() {
        let cli = Cli::try_parse_from(["server"]).expect("parse");
        assert!(cli.command.is_none());
        assert_eq!(cli.common.database, PathBuf::from("data/wells.db"));
        let serve = Serve::default();
        assert_eq!(serve.listen.to_string(), "127.0.0.1:3000");
        assert_eq!(serve.public_origin(), "http://127.0.0.1:3000");
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
}
