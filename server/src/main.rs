//! `server`: serve the app; manage users and check the audit log from the shell.

use std::process::ExitCode;

use app::auth::clock::{Clock, SystemClock};
use app::store::{accounts, Store};
use server::config::{Cli, Command, Serve};
use tracing_subscriber::EnvFilter;

// The server's requests run on a multi-threaded runtime, one worker per core,
// and pages render on render threads of their own (`server::render`, issue #39:
// why a render must stay on one thread). `--worker-threads 1` runs everything on
// one thread, as before. The other subcommands run on one thread.
fn main() -> ExitCode {
    let cli = Cli::parse_or_serve(std::env::args_os());
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_new(&cli.common.log_level).unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .init();
    let threads = match &cli.command {
        Some(Command::Serve(serve)) => serve.request_threads(),
        _ => 1,
    };
    let runtime = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    };
    match runtime {
        Ok(runtime) => runtime.block_on(run(cli)),
        Err(error) => finish(Err(format!("cannot start the runtime: {error}"))),
    }
}

async fn run(cli: Cli) -> ExitCode {
    let database = cli.common.database.clone();
    let address = database.to_string_lossy().into_owned();
    let postgres = app::store::is_postgres(&address);
    let Some(command) = cli.command else {
        return finish(Err("no command".to_owned()));
    };
    // Restore replaces the database, so it must not open it first.
    if let Command::Restore { file } = &command {
        return finish(if postgres {
            server::cli::restore_postgres(file, &address).await
        } else {
            server::cli::restore(file, &database).await
        });
    }
    // The server holds a SQLite database's lock while it serves, so a restore
    // cannot pull the file from under it. (A PostgreSQL database is served by
    // as many app servers as the deployment runs.)
    let _lock = match &command {
        Command::Serve(_) if !postgres => match app::store::backup::lock(&database) {
            Ok(lock) => Some(lock),
            Err(message) => return finish(Err(message)),
        },
        _ => None,
    };
    let key_path = match cli.common.second_factor_key_path() {
        Ok(path) => path,
        Err(message) => return finish(Err(message)),
    };
    let key = || app::auth::second_factor::SealingKey::load_or_create(&key_path);
    let result = match Store::connect(&address).await {
        Err(e) => Err(format!(
            "cannot open database {}: {e}",
            app::store::shown(&address)
        )),
        Ok(store) => match command {
            Command::Serve(serve) => match key() {
                Ok(key) => serve_app(store, serve, key).await,
                Err(message) => Err(message),
            },
            Command::User(command) => match key() {
                Ok(key) => server::cli::user(&store, &key, command).await,
                Err(message) => Err(message),
            },
            Command::SignInPolicy {
                second_factor,
                passkey_roles,
            } => server::cli::sign_in_policy(&store, second_factor, passkey_roles).await,
            Command::Audit(command) => server::cli::audit(&store, command).await,
            #[cfg(feature = "seed")]
            Command::Seed(seed) => server::cli::seed(&store, seed).await,
            Command::Backup { file } if postgres => {
                server::cli::backup_postgres(&store, &address, &file).await
            }
            Command::Backup { file } => server::cli::backup(&store, &file).await,
            Command::Restore { file } => server::cli::restore(&file, &database).await,
        },
    };
    finish(result)
}

fn finish(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_app(
    store: Store,
    serve: Serve,
    key: app::auth::second_factor::SealingKey,
) -> Result<(), String> {
    offer_first_run_setup(&store, &serve).await?;
    store.keep_statistics();
    store.expire_number_blocks();
    let state = server::app_state(store, &serve, key)?;
    let renders = serve.renders();
    let app = server::router_rendering_on(state, renders.clone());
    let listener = tokio::net::TcpListener::bind(serve.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", serve.listen))?;
    tracing::info!(
        request_threads = serve.request_threads(),
        render_threads = renders.threads(),
        "serving on http://{}",
        serve.listen
    );
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await
    .map_err(|e| format!("server stopped: {e}"))
}

/// While no administrator exists, print a one-time link that creates the first one.
async fn offer_first_run_setup(store: &Store, serve: &Serve) -> Result<(), String> {
    let has_admin = accounts::any_admin(&store.reader)
        .await
        .map_err(|e| format!("cannot read accounts: {e}"))?;
    if has_admin {
        return Ok(());
    }
    let (token, hash) = app::auth::setup::new_token();
    accounts::issue_setup_token(store, &hash, SystemClock.now())
        .await
        .map_err(|e| format!("cannot create the setup token: {e}"))?;
    let url = format!("{}/setup?token={token}", serve.public_origin());
    println!(
        "\nFirst run: no administrator yet. Open this link once to create one:\n\n    {url}\n"
    );
    tracing::info!(%url, "first-run setup link issued");
    Ok(())
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
