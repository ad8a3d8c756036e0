//! The definitions a commit changed, and where the map ranks them: does
//! the map for the commit's message point at the code, not just the file?
//!
//! A definition is changed when a line the commit removed or replaced (or
//! inserted after) in the parent's file lies in it, and no definition inside
//! it holds that line: the method, not its class. A change outside every
//! definition (an import, a module constant) changes none.

use std::path::Path;

use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;

use super::git;
use crate::error::Result;
use crate::index::IndexedFile;
use crate::map::RepoMap;

/// A definition a commit changed, in its parent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedDef {
    pub path: String,
    /// Its first line in the parent (1-based): with the path, what the map's
    /// definitions are matched on.
    pub line: u32,
    pub name: String,
}

/// Lines of the parent's files a commit touched, by path (relative to the
/// folder `git diff` runs in): each `(first, last)` range it removed or
/// replaced, or the two lines around a pure insertion.
type Touched = HashMap<String, Vec<(u32, u32)>>;

/// The lines of `paths` that `sha` changed in its `parent`, read with `git
/// diff -U0` in `dir` (paths relative to it).
pub(super) fn touched_lines(dir: &Path, parent: &str, sha: &str, paths: &[String]) -> Result<Touched> {
    let mut args =
        vec!["diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", "--relative", parent, sha, "--"];
    args.extend(paths.iter().map(String::as_str));
    Ok(parse_diff(&git(dir, &args)?))
}

/// The hunks of a `git diff -U0` by the old file's path.
fn parse_diff(diff: &str) -> Touched {
    let mut touched = Touched::default();
    let mut path: Option<String> = None;
    for line in diff.lines() {
        if let Some(old) = line.strip_prefix("--- ") {
            path = old.strip_prefix("a/").map(str::to_string);
        } else if let (Some(hunk), Some(path)) = (line.strip_prefix("@@ -"), &path) {
            // `@@ -12,3 +12,4 @@`: 3 lines from 12; `-12` alone is 1 line; `-12,0` inserts after 12.
            let old = hunk.split_whitespace().next().unwrap_or("");
            let (start, count) = match old.split_once(',') {
                Some((start, count)) => (start.parse::<u32>(), count.parse::<u32>()),
                None => (old.parse::<u32>(), Ok(1)),
            };
            let (Ok(start), Ok(count)) = (start, count) else { continue };
            let range = match count {
                0 => (start, start + 1),
                n => (start, start + n - 1),
            };
            touched.entry(path.clone()).or_default().push(range);
        }
    }
    touched
}

/// The definitions of `files` the `touched` lines lie in, innermost only, in
/// path and line order.
pub(super) fn changed_defs(files: &[IndexedFile], touched: &Touched) -> Vec<ChangedDef> {
    let mut out = Vec::new();
    for file in files {
        let Some(ranges) = touched.get(&file.path) else { continue };
        let defs = &file.tags.defs;
        let holds = |d: &crate::tags::Def, (first, last): (u32, u32)| d.line <= last && first <= d.end_line;
        for (d, def) in defs.iter().enumerate() {
            if !def.kind.defines_name() {
                continue;
            }
            // Innermost: no definition inside it holds the same touched lines.
            let changed = ranges.iter().any(|&range| {
                holds(def, range)
                    && !defs.iter().any(|inner| {
                        inner.kind.defines_name()
                            && std::iter::successors(inner.parent, |&p| defs[p as usize].parent)
                                .any(|p| p as usize == d)
                            && holds(inner, range)
                    })
            });
            if changed {
                out.push(ChangedDef { path: file.path.clone(), line: def.line, name: def.name.to_string() });
            }
        }
    }
    out
}

/// The 1-based place of the first changed definition among the map's
/// definitions, best scored first (as the map ranks them); `None` when it
/// shows none. With the map's first [`super::TOP`] definitions, as
/// `path:line name`.
pub(super) fn first_changed(map: &RepoMap, changed: &[ChangedDef]) -> (Option<usize>, Vec<String>) {
    let mut shown: Vec<(f64, usize, &str, &crate::map::MapDef)> = map
        .files
        .iter()
        .enumerate()
        .flat_map(|(k, f)| f.definitions.iter().map(move |d| (d.score, k, f.path.as_str(), d)))
        .collect();
    shown.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.3.line.cmp(&b.3.line)));
    let rank = shown
        .iter()
        .position(|&(_, _, path, d)| changed.iter().any(|c| c.path == path && c.line == d.line))
        .map(|i| i + 1);
    let top = shown
        .iter()
        .take(super::TOP)
        .map(|(_, _, path, d)| format!("{path}:{} {}", d.line, d.name))
        .collect();
    (rank, top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn a_diff_s_hunks_are_the_old_file_s_lines() {
        let diff = "diff --git a/src/app.py b/src/app.py\nindex 1..2 100644\n--- a/src/app.py\n+++ b/src/app.py\n\
                    @@ -3 +3 @@ def f():\n-    x\n+    y\n@@ -10,2 +10,0 @@\n-a\n-b\n@@ -20,0 +19,2 @@\n+c\n+d\n";
        let touched = parse_diff(diff);
        assert_eq!(touched["src/app.py"], [(3, 3), (10, 11), (20, 21)]);
    }

    #[test]
    fn the_innermost_definition_holding_a_changed_line_is_changed() {
        let source = "import os\n\nclass Schema:\n    def load(self):\n        return 1\n\n    def dump(self):\n        \
                      return 2\n\ndef helper():\n    pass\n";
        let files = [IndexedFile::parsed("pkg/schema.py", Lang::Python, source)];
        let names = |ranges: &[(u32, u32)]| -> Vec<String> {
            let touched = Touched::from_iter([("pkg/schema.py".to_string(), ranges.to_vec())]);
            changed_defs(&files, &touched).into_iter().map(|c| format!("{}:{}", c.name, c.line)).collect()
        };
        // A method's body: the method, not its class.
        assert_eq!(names(&[(5, 5)]), ["load:4"]);
        // The class's own line, and a module's import: the class; nothing.
        assert_eq!(names(&[(3, 3), (1, 1)]), ["Schema:3"]);
        assert_eq!(names(&[(8, 11)]), ["dump:7", "helper:10"]);
    }
}
