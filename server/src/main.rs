//! `server`: serve the app, and (from later issues) manage users, backups and the audit log.

use std::process::ExitCode;

use app::store::Store;
use clap::Parser;
use server::config::{Cli, Command, Serve};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_new(&cli.common.log_level).unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .init();
    let result = match cli.command.unwrap_or(Command::Serve(Serve::default())) {
        Command::Serve(serve) => serve_app(&cli.common.database, serve).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_app(database: &std::path::Path, serve: Serve) -> Result<(), String> {
    let store = Store::open(database)
        .await
        .map_err(|e| format!("cannot open database {}: {e}", database.display()))?;
    let state = server::app_state(store, &serve);
    let app = server::router(state);
    let listener = tokio::net::TcpListener::bind(serve.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", serve.listen))?;
    tracing::info!(
        "serving on http://{} (database {})",
        serve.listen,
        database.display()
    );
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await
    .map_err(|e| format!("server stopped: {e}"))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
