//! What monitoring reads besides the database (issue #38): the served
//! certificate's expiry, the backup folder, the data folder's free space, the
//! request counters and who may read them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::counters::Metrics;
use crate::tls::Expiry;

/// Shared by `/readyz`, `/metrics` and the request counter.
#[derive(Debug, Default)]
pub struct Ops {
    pub metrics: Metrics,
    /// The served certificate's expiry (never set without HTTPS).
    pub expiry: Arc<Expiry>,
    /// Whether the server speaks HTTPS (then a certificate must be served).
    pub https: bool,
    pub backup_dir: Option<PathBuf>,
    /// The folder whose free space `/readyz` watches.
    pub data_dir: PathBuf,
    pub min_free_bytes: u64,
    pub metrics_token: Option<String>,
}

impl Ops {
    /// The newest backup's time (Unix seconds), if the folder holds one.
    pub fn newest_backup(&self) -> Option<i64> {
        newest_backup(self.backup_dir.as_deref()?)
    }

    /// Bytes free to this process in the data folder.
    pub fn free_bytes(&self) -> Result<u64, String> {
        free_bytes(&self.data_dir)
    }
}

/// The newest backup in `dir`, by modification time (Unix seconds). The copy
/// an upgrade takes (`wells-before-…`) is not the nightly backup: counting it
/// would make a failing backup timer look fresh after an upgrade.
pub fn newest_backup(dir: &Path) -> Option<i64> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            is_backup_name(&name) && !name.starts_with("wells-before-")
        })
        .filter_map(|e| e.metadata().ok()?.modified().ok())
        .filter_map(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .max()
}

/// The names `server backup` gives the copies it keeps: `wells-<UTC time>.db`
/// (SQLite) or `.dump` (PostgreSQL's pg_dump).
pub fn is_backup_name(name: &str) -> bool {
    name.starts_with("wells-") && (name.ends_with(".db") || name.ends_with(".dump"))
}

/// Bytes an unprivileged writer may still use on `dir`'s file system.
pub fn free_bytes(dir: &Path) -> Result<u64, String> {
    let stat = rustix::fs::statvfs(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(stat.f_bavail.saturating_mul(stat.f_frsize))
}
