//! The Debian package's systemd units (issue #38), checked without a running
//! systemd: `systemd-analyze security --offline=yes` scores the server's unit
//! at most 2.0 (and the backup's), `systemd-analyze verify` finds nothing wrong
//! in the units and the timer with `ExecStart` pointed at the built binary, and
//! the environment file documents every `WELLS_*` setting. The package itself
//! is installed into a throwaway root by `make deb-test`.

use std::path::{Path, PathBuf};
use std::process::Command;

const UNITS: [&str; 3] = [
    "wells.service",
    "wells-backup.service",
    "wells-backup.timer",
];

fn debian() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("debian")
}

/// The units with `/usr/bin/wells` replaced by the built server.
fn units_for_the_built_binary(dir: &Path) {
    for unit in UNITS {
        let text = std::fs::read_to_string(debian().join(unit)).expect("unit");
        let text = text.replace("/usr/bin/wells", env!("CARGO_BIN_EXE_server"));
        std::fs::write(dir.join(unit), text).expect("write");
    }
}

fn exposure(unit: &Path) -> f64 {
    let output = Command::new("systemd-analyze")
        .args(["security", "--offline=yes", "--no-pager"])
        .arg(unit)
        .output()
        .expect("systemd-analyze (Debian's systemd) must be installed");
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| {
            let rest = line.split("Overall exposure level for ").nth(1)?;
            rest.split(':')
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| {
            panic!(
                "no score in:\n{text}{}",
                String::from_utf8_lossy(&output.stderr)
            )
        })
}

#[test]
fn the_service_units_score_at_most_2_0_in_systemd_analyze_security() {
    let dir = tempfile::tempdir().expect("dir");
    units_for_the_built_binary(dir.path());
    for unit in ["wells.service", "wells-backup.service"] {
        let score = exposure(&dir.path().join(unit));
        assert!(score <= 2.0, "{unit}: exposure {score} above 2.0");
    }
}

#[test]
fn the_units_and_the_timer_verify_against_the_built_binary() {
    let dir = tempfile::tempdir().expect("dir");
    units_for_the_built_binary(dir.path());
    let output = Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .args(UNITS.map(|u| dir.path().join(u)))
        .output()
        .expect("systemd-analyze");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    // Unknown keys are only warnings to systemd: none is allowed here.
    assert!(
        said.trim().is_empty(),
        "systemd-analyze verify said:\n{said}"
    );
    let service = std::fs::read_to_string(debian().join("wells.service")).expect("unit");
    for setting in [
        "Type=notify",
        "WatchdogSec=",
        "DynamicUser=yes",
        "StateDirectory=wells",
        "ConfigurationDirectory=wells",
        "AmbientCapabilities=CAP_NET_BIND_SERVICE",
        "ProtectSystem=strict",
        "MemoryDenyWriteExecute=yes",
        "SystemCallFilter=@system-service",
        "UMask=0077",
    ] {
        assert!(
            service.lines().any(|l| l.starts_with(setting)),
            "{setting} missing"
        );
    }
    let timer = std::fs::read_to_string(debian().join("wells-backup.timer")).expect("timer");
    assert!(timer.contains("OnCalendar=") && timer.contains("Persistent=true"));
}

#[test]
fn the_environment_file_documents_every_setting() {
    let config =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/config.rs"))
            .expect("config.rs");
    let env = std::fs::read_to_string(debian().join("wells.env")).expect("wells.env");
    let settings: Vec<&str> = config
        .split("env = \"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| !name.starts_with("WELLS_TEST_"))
        .collect();
    assert!(settings.len() > 20, "{settings:?}");
    for name in settings {
        let set = env
            .lines()
            .any(|l| l.trim_start_matches('#').starts_with(&format!("{name}=")));
        assert!(set, "{name} is not in server/debian/wells.env");
    }
}
