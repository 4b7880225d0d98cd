//! The Debian package's `Type=notify` unit (issue #38): the server tells systemd
//! when it serves, and feeds the watchdog while its database still answers, so
//! a server wedged on its database is restarted instead of silently refusing
//! officers. Outside systemd (no `NOTIFY_SOCKET`) every call does nothing.

use std::time::Duration;

use app::store::Store;

/// Tells systemd the server is ready (and what it serves, for `systemctl status`).
pub fn ready(status: &str) {
    if let Err(error) = sd_notify::notify(&[
        sd_notify::NotifyState::Ready,
        sd_notify::NotifyState::Status(status),
    ]) {
        tracing::warn!(%error, "could not tell systemd the server is ready");
    }
}

/// Tells systemd the server is stopping.
pub fn stopping() {
    let _ = sd_notify::notify(&[sd_notify::NotifyState::Stopping]);
}

/// Feeds the watchdog at half its period while the database answers within it.
pub fn keep_watchdog_fed(store: Store) {
    let Some(period) = sd_notify::watchdog_enabled() else {
        return;
    };
    let every = (period / 2).max(Duration::from_millis(100));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            match tokio::time::timeout(every, store.ping()).await {
                Ok(Ok(())) => {
                    let _ = sd_notify::notify(&[sd_notify::NotifyState::Watchdog]);
                }
                _ => tracing::error!("the database did not answer: the watchdog is not fed"),
            }
        }
    });
}
