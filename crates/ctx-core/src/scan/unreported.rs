//! What scans nobody reported found. `ctx map`, `ctx rank` and the MCP
//! server's tools scan before they read the store (ctxkeep-map calls
//! [`Workspace::scan_files`](crate::Workspace::scan_files)) and print no
//! scan report, so a later `ctx scan` would find the store already current
//! and say "0 added" for files nobody was told about. Such a silent scan adds
//! its changes to a tally in `kv`; the next reported scan
//! ([`Workspace::scan`](crate::Workspace::scan)) hands the tally over in
//! [`ScanReport::earlier`] and clears it.

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::ScanReport;
use crate::error::Result;
use crate::store::{kv_get, kv_set};
use crate::time;

/// Where the tally lives in `kv`.
const KEY: &str = "scan.unreported";

/// How many paths each list of [`ChangedFiles`] keeps at most.
pub(crate) const SAMPLE: usize = 50;

/// Whether a scan's report reaches a person or a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reporting {
    /// Its report is shown: it takes the tally of the silent scans before it.
    Reported,
    /// Its report is dropped: its changes go into the tally.
    Silent,
}

/// Which files a scan added, changed and removed: the first 50 paths of
/// each kind, sorted (the counts beside them are exact).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedFiles {
    pub added: Vec<String>,
    pub changed: Vec<String>,
    pub removed: Vec<String>,
}

impl ChangedFiles {
    /// Sort each list and keep its first [`SAMPLE`] paths.
    pub(crate) fn settle(&mut self) {
        for list in [&mut self.added, &mut self.changed, &mut self.removed] {
            list.sort_unstable();
            list.dedup();
            list.truncate(SAMPLE);
        }
    }

    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

/// The changes that scans whose report nobody saw applied since the last
/// reported scan, summed. Stable JSON (fields are only ever added).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlierScans {
    /// How many silent scans changed something.
    pub scans: usize,
    /// When the first and the last of them ran (ISO-8601).
    pub first_at: String,
    pub last_at: String,
    pub files_added: usize,
    pub files_changed: usize,
    pub files_removed: usize,
    pub folders_added: usize,
    pub folders_removed: usize,
    /// Which files: up to 50 paths of each kind, sorted.
    #[serde(flatten)]
    pub files: ChangedFiles,
}

impl EarlierScans {
    fn add(&mut self, report: &ScanReport, now: String) {
        if self.scans == 0 {
            self.first_at = now.clone();
        }
        self.scans += 1;
        self.last_at = now;
        self.files_added += report.files_added;
        self.files_changed += report.files_changed;
        self.files_removed += report.files_removed;
        self.folders_added += report.folders_added;
        self.folders_removed += report.folders_removed;
        let ChangedFiles { added, changed, removed } = &report.changed_files;
        self.files.added.extend(added.iter().cloned());
        self.files.changed.extend(changed.iter().cloned());
        self.files.removed.extend(removed.iter().cloned());
        self.files.settle();
    }
}

/// Inside a scan's write transaction: a reported scan takes (and clears)
/// the tally, a silent one that changed something adds to it. A tally that
/// does not parse (written by another version) is dropped.
pub(crate) fn settle(
    conn: &Connection,
    report: &ScanReport,
    reporting: Reporting,
) -> Result<Option<EarlierScans>> {
    let stored = kv_get(conn, KEY)?;
    let tally = stored.as_deref().and_then(|json| serde_json::from_str::<EarlierScans>(json).ok());
    match reporting {
        Reporting::Reported => {
            if stored.is_some() {
                conn.execute("DELETE FROM kv WHERE key = ?1", [KEY])?;
            }
            Ok(tally)
        }
        Reporting::Silent => {
            let changed = report.files_added + report.files_changed + report.files_removed > 0
                || report.folders_added + report.folders_removed > 0
                || !report.changed_files.is_empty();
            if changed {
                let mut tally = tally.unwrap_or_default();
                tally.add(report, time::now_iso());
                // Strings and numbers: serializing cannot fail.
                if let Ok(json) = serde_json::to_string(&tally) {
                    kv_set(conn, KEY, &json)?;
                }
            }
            Ok(None)
        }
    }
}
