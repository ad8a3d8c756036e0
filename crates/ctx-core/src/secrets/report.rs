//! `ctx secrets scan`: what the detector finds in the repository's files —
//! where, and by which rule, never the value.

use rayon::prelude::*;
use rusqlite::OptionalExtension;
use serde::Serialize;

use super::Detector;
use crate::error::Result;
use crate::workspace::Workspace;
use crate::{folders, paths};

/// What the detector finds under a folder. Stable JSON.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SecretsReport {
    /// Text files read.
    pub files_scanned: usize,
    /// Files not read because `[secrets] allow_paths` allows them.
    pub files_allowed: usize,
    /// Secrets found, by path and line.
    pub findings: Vec<SecretFinding>,
    /// Files hidden whole (secrets by nature: `.env`, key files, credentials).
    pub hidden: Vec<HiddenFile>,
}

/// One secret: where it is and which rule found it, never its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretFinding {
    /// Repository-relative; a secret in the name itself is shown redacted.
    pub path: String,
    /// 1-based; 0 for a secret in the file's path.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub rule: String,
    /// Put it in `[secrets] allow_fingerprints` if the value is no secret.
    pub fingerprint: String,
}

/// A file no output shows anything of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HiddenFile {
    pub path: String,
    pub reason: String,
}

impl Workspace {
    /// Read the text files of the last scan at or below folder `path`
    /// (every file when `None`) and list the secrets in them.
    pub fn secrets_scan(&self, path: Option<&str>) -> Result<SecretsReport> {
        let under = path.map(|p| self.resolve_path(self.root(), p)).transpose()?;
        let conn = &self.store().conn;
        // A path the scan never saw is a mistake: "0 secrets" would be a false all-clear.
        if let Some(under) = under.as_deref().filter(|under| *under != ".") {
            let is_file =
                conn.query_row("SELECT 1 FROM files WHERE path = ?1", [under], |_| Ok(())).optional()?;
            if is_file.is_none() {
                folders::folder_id(conn, under)?;
            }
        }
        let mut stmt = conn.prepare("SELECT path, kind, secret FROM files ORDER BY path")?;
        let rows = stmt.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, Option<String>>(2)?))
        })?;
        let detector = self.detector();
        let mut report = SecretsReport::default();
        let mut to_read = Vec::new();
        for row in rows {
            let (file, kind, secret) = row?;
            if under.as_deref().is_some_and(|under| !paths::is_within(&file, under)) {
                continue;
            }
            if detector.allows_path(&file) {
                report.files_allowed += 1;
                continue;
            }
            if let Some(at) = file.find(super::REDACTED_MARK) {
                let rule = file[at + super::REDACTED_MARK.len()..].split(']').next().unwrap_or_default();
                report.findings.push(SecretFinding {
                    path: file.clone(),
                    line: 0,
                    column: file[..at].chars().count() + 1,
                    rule: rule.to_string(),
                    fingerprint: String::new(),
                });
            }
            match secret {
                Some(reason) => report.hidden.push(HiddenFile { path: file, reason }),
                None if kind == "text" => to_read.push(file),
                None => {}
            }
        }
        let root = self.root();
        let found: Vec<(usize, Vec<SecretFinding>)> = to_read
            .par_iter()
            .map(|file| match std::fs::read(root.join(file)) {
                Ok(bytes) => (1, findings_in(detector, file, &String::from_utf8_lossy(&bytes))),
                Err(_) => (0, Vec::new()),
            })
            .collect();
        for (read, findings) in found {
            report.files_scanned += read;
            report.findings.extend(findings);
        }
        report.findings.sort_by(|a, b| (&a.path, a.line, a.column).cmp(&(&b.path, b.line, b.column)));
        Ok(report)
    }
}

fn findings_in(detector: &Detector, path: &str, text: &str) -> Vec<SecretFinding> {
    let findings = detector.find(text);
    let mut out = Vec::with_capacity(findings.len());
    let (mut line, mut line_start, mut at) = (1, 0, 0);
    for finding in findings {
        for (i, b) in text.as_bytes()[at..finding.start].iter().enumerate() {
            if *b == b'\n' {
                line += 1;
                line_start = at + i + 1;
            }
        }
        at = finding.start;
        out.push(SecretFinding {
            path: path.to_string(),
            line,
            column: text[line_start..finding.start].chars().count() + 1,
            rule: finding.rule,
            fingerprint: finding.fingerprint,
        });
    }
    out
}
