//! `server`: serve the app; manage users and check the audit log from the shell.

use std::process::ExitCode;
use std::sync::Arc;

use app::auth::clock::{Clock, SystemClock};
use app::store::{accounts, Store};
use server::config::{Cli, Command, Common, Serve};
use server::tls::Https;
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
    let Some(mut command) = cli.command else {
        return finish(Err("no command".to_owned()));
    };
    // HTTPS is checked before the database is touched or a port opened: a bad
    // certificate, key, domain or directory stops the start (issue #38).
    let mut https = None;
    if let Command::Serve(serve) = &mut command {
        match server::tls::prepare(serve, &cli.common.data_dir()).await {
            Ok(prepared) => https = prepared,
            Err(message) => return finish(Err(message)),
        }
    }
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
    // An upgrade copies the database before it migrates it (issue #38).
    if matches!(command, Command::Serve(_)) && !postgres {
        let migrated = match cli.common.backup_dir() {
            Ok(dir) => server::upgrade::backup_before_migrating(&database, &dir).await,
            Err(message) => Err(message),
        };
        match migrated {
            Ok(Some(copy)) => tracing::info!(
                copy = %copy.display(),
                release = app::store::versions::RELEASE,
                "backed up the database before migrating it to this release"
            ),
            Ok(None) => {}
            Err(message) => return finish(Err(message)),
        }
    }
    let key = || app::auth::second_factor::SealingKey::load_or_create(&key_path);
    let result = match Store::connect(&address).await {
        Err(e) => Err(format!(
            "cannot open database {}: {e}",
            app::store::shown(&address)
        )),
        Ok(store) => match command {
            Command::Serve(serve) => match key() {
                Ok(key) => serve_app(store, *serve, key, https, &cli.common).await,
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
            Command::Backup {
                file: Some(file), ..
            } if postgres => server::cli::backup_postgres(&store, &address, &file).await,
            Command::Backup {
                file: Some(file), ..
            } => server::cli::backup(&store, &file).await,
            Command::Backup { file: None, keep } => match cli.common.backup_dir() {
                Ok(dir) => {
                    let outside = [
                        ("the second-factor key", key_path.clone()),
                        ("the ACME cache", cli.common.data_dir().join("acme")),
                    ];
                    let postgres = postgres.then_some(address.as_str());
                    server::cli::backup_into(&store, &dir, keep, &outside, postgres).await
                }
                Err(message) => Err(message),
            },
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
    https: Option<Https>,
    common: &Common,
) -> Result<(), String> {
    offer_first_run_setup(&store, &serve).await?;
    store.keep_statistics();
    store.expire_number_blocks();
    let ops = Arc::new(server::ops::Ops {
        expiry: https.as_ref().map(Https::expiry).unwrap_or_default(),
        https: https.is_some(),
        backup_dir: common.backup_dir().ok(),
        data_dir: common.data_dir(),
        min_free_bytes: serve.operations.min_free_disk_mb.saturating_mul(1_048_576),
        metrics_token: serve.operations.metrics_token.clone(),
        metrics: Default::default(),
    });
    let state = server::app_state(store.clone(), &serve, key)?;
    let renders = serve.renders();
    let app = server::router_with(state, renders.clone(), ops);
    let listener = tokio::net::TcpListener::bind(serve.listen)
        .await
        .map_err(|e| {
            format!(
                "--listen (WELLS_LISTEN) {}: cannot listen: {e}",
                serve.listen
            )
        })?;
    let origin = serve.public_origin();
    tracing::info!(
        request_threads = serve.request_threads(),
        render_threads = renders.threads(),
        listen = %serve.listen,
        "serving {origin}"
    );
    let make = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    server::systemd::keep_watchdog_fed(store);
    let status = format!("serving {origin}");
    let Some(https) = https else {
        server::systemd::ready(&status);
        let served = axum::serve(listener, make)
            .with_graceful_shutdown(shutdown_signal())
            .await;
        server::systemd::stopping();
        return served.map_err(|e| format!("server stopped: {e}"));
    };
    let redirect = |http01| {
        serve.tls.redirect_listen.map(|address| {
            (
                address,
                server::tls::redirect::router(origin.clone(), http01),
            )
        })
    };
    let server = axum_server::Server::<std::net::SocketAddr>::from_listener(listener);
    let handle = axum_server::Handle::<std::net::SocketAddr>::new();
    let stop = handle.clone();
    tokio::spawn(async move {
        shutdown_signal().await;
        server::systemd::stopping();
        stop.graceful_shutdown(Some(std::time::Duration::from_secs(10)));
    });
    let served = match https {
        Https::Files(files) => {
            files.watch();
            if let Some((address, router)) = redirect(None) {
                server::tls::redirect::serve(address, router).await?;
            }
            let config = server::tls::server_config(files)?;
            let acceptor = axum_server::tls_rustls::RustlsAcceptor::new(
                axum_server::tls_rustls::RustlsConfig::from_config(config),
            );
            server::systemd::ready(&status);
            server.acceptor(acceptor).handle(handle).serve(make).await
        }
        Https::Acme(acme) => {
            let acceptor = acme.acceptor()?;
            let http01 = (serve.tls.acme_challenge == "http-01").then(|| acme.http01());
            if let Some((address, router)) = redirect(http01) {
                server::tls::redirect::serve(address, router).await?;
            }
            let (certified, served_first) = tokio::sync::oneshot::channel();
            acme.run(certified);
            // Ready once a certificate is served: the first order can take a
            // while, and a phone sent here before would fail its handshake.
            tokio::spawn(async move {
                if served_first.await.is_ok() {
                    server::systemd::ready(&status);
                }
            });
            server.acceptor(acceptor).handle(handle).serve(make).await
        }
    };
    served.map_err(|e| format!("server stopped: {e}"))
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
