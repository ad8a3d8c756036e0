//! What a folder is about, as its context says in one line: what somebody
//! wrote, what its own files say (manifest, README, package docstring,
//! crate docs, index file, the most used file that says what it is), what
//! its project's manifest says of its one package, or else what it holds.

use super::model::{FileData, Tree};
use crate::paths::{self, PathRole};

impl Tree {
    /// What folder `i` is about: what somebody wrote, or else derived from
    /// its files (manifest, README, package docstring, crate docs, index
    /// file), or else a summary of what it holds. Returns (text, source).
    pub(super) fn describe(&self, i: usize) -> (String, String) {
        let folder = &self.folders[i];
        if !folder.description.is_empty() {
            return (folder.description.clone(), "written".into());
        }
        if let Some((text, from)) = self.derived_from_files(i) {
            return (text, from);
        }
        // A folder that only holds another (`src/` of a src layout) is what that one is.
        if let [only] = folder.children[..]
            && folder.files.is_empty()
        {
            let (text, _) = self.describe(only);
            let name = paths::name(&self.folders[only].path);
            // A chain of them is one path (`tox-dev/workflow/reusable-tox/hooks/`), said once.
            let text = match text.strip_prefix("Holds `") {
                Some(rest) => format!("Holds `{name}/{rest}"),
                None => format!("Holds `{name}/`: {text}"),
            };
            return (text, "summary".into());
        }
        (self.holdings_summary(i), "summary".into())
    }

    fn derived_from_files(&self, i: usize) -> Option<(String, String)> {
        let folder = &self.folders[i];
        let summary_of = |files: &[FileData], pick: &dyn Fn(&str) -> bool| {
            files.iter().find(|f| !f.secret && pick(&f.name.to_ascii_lowercase())).and_then(|f| {
                let summary = f.summary.as_ref().filter(|s| !crate::scan::says_generated(s))?;
                Some((summary.clone(), f.name.clone()))
            })
        };
        // A manifest's description is the project's own one-line answer; a README's
        // first paragraph may be anything (werkzeug's is the word's etymology). A
        // README in no particular language before its translations (`README-ja.md`).
        let picks: [&dyn Fn(&str) -> bool; 6] = [
            &|n| matches!(n, "cargo.toml" | "package.json" | "pyproject.toml"),
            &|n| n.split('.').next() == Some("readme"),
            &|n| n.starts_with("readme"),
            &|n| n == "__init__.py",
            &|n| matches!(n, "lib.rs" | "main.rs" | "mod.rs"),
            &|n| matches!(n.rsplit_once('.'), Some(("index" | "mod" | "main", "ts" | "tsx" | "js" | "mjs"))),
        ];
        for pick in picks {
            if let Some(found) = summary_of(&folder.files, pick) {
                return Some(found);
            }
        }
        // A Rust module kept in a folder has its docs in the file beside it: crossterm's
        // `src/event/` is what `src/event.rs` says, not one of its files.
        if let Some(parent) = folder.parent {
            let module = format!("{}.rs", paths::name(&folder.path));
            if let Some((text, name)) = summary_of(&self.folders[parent].files, &|n| n == module) {
                return Some((text, format!("../{name}")));
            }
        }
        // A Rust crate keeps its docs in src/lib.rs (or src/main.rs).
        if folder.files.iter().any(|f| f.name == "Cargo.toml") {
            let src = folder.children.iter().find(|&&c| paths::name(&self.folders[c].path) == "src");
            if let Some(&src) = src
                && let Some((text, name)) =
                    summary_of(&self.folders[src].files, &|n| matches!(n, "lib.rs" | "main.rs"))
            {
                return Some((text, format!("src/{name}")));
            }
        }
        if let Some(found) = self.project_package(i) {
            return Some(found);
        }
        // Each test's or example's file speaks for itself alone: bytes' `tests/` is not
        // "Test using Bytes with an allocator that hands out \"odd\" pointers".
        if PathRole::of(&folder.path).is_auxiliary() {
            return None;
        }
        // Otherwise the source file that says what it is and the most other files use
        // (reqwest's `async_impl/client.rs`, "An asynchronous Client to make
        // Requests with", not the first by name, `body.rs`'s "An asynchronous request body").
        let code = |n: &str| {
            matches!(n.rsplit_once('.').map(|(_, ext)| ext), Some("py" | "rs" | "ts" | "tsx" | "js" | "mjs"))
        };
        // How many other files use it, then its rank.
        let rank = |f: &FileData| f.outline.as_ref().map_or((0, 0.0), |o| (o.referenced_by, o.rank));
        let said = folder.files.iter().filter(|f| {
            !f.secret
                && code(&f.name.to_ascii_lowercase())
                && f.summary.as_ref().is_some_and(|s| !crate::scan::says_generated(s))
        });
        // (Files come by name: of equal ranks, the first.)
        let best = said.fold(None, |best: Option<&FileData>, f| match best {
            Some(b) if rank(b).partial_cmp(&rank(f)).is_some_and(|o| o.is_ge()) => Some(b),
            _ => Some(f),
        })?;
        // Only the folder's hub speaks for it: a file more of the others use than use any
        // other. Else a leaf's sentence would (crossterm's `src/event/` was "Keeps track of
        // the elapsed time since the moment the polling started", its `timeout.rs`).
        let used_by = |f: &FileData| f.outline.as_ref().map_or(0, |o| o.referenced_by);
        let code_files = folder.files.iter().filter(|f| code(&f.name.to_ascii_lowercase())).count();
        let runner_up = folder
            .files
            .iter()
            .filter(|f| !std::ptr::eq(*f, best) && code(&f.name.to_ascii_lowercase()))
            .map(used_by)
            .max()
            .unwrap_or(0);
        if code_files > 1 && (used_by(best) < 2 || used_by(best) <= runner_up) {
            return None;
        }
        Some((best.summary.clone()?, best.name.clone()))
    }

    /// What the manifest says of the project whose code folder `i` is, when
    /// its own files say nothing: a Python top package (`src/marshmallow/`,
    /// whose `__init__.py` has no docstring) under the folder of its
    /// `pyproject.toml`, or the `src/` (or `lib/`) beside a `Cargo.toml` or
    /// `package.json` (tracing-mock's `lib.rs` only includes its README).
    /// Else its first file's summary would speak for the whole folder.
    fn project_package(&self, i: usize) -> Option<(String, String)> {
        let folder = &self.folders[i];
        let parent = folder.parent?;
        if PathRole::of(&folder.path).is_auxiliary() {
            return None;
        }
        let has = |f: usize, name: &str| self.folders[f].files.iter().any(|file| file.name == name);
        let manifest_of = |f: usize, names: &[&str]| {
            self.folders[f]
                .files
                .iter()
                .find(|file| names.contains(&file.name.as_str()) && !file.secret)
                .and_then(|file| {
                    Some((
                        file.summary.clone().filter(|s| !crate::scan::says_generated(s))?,
                        file.name.clone(),
                    ))
                })
        };
        let name = paths::name(&folder.path);
        if matches!(name, "src" | "lib")
            && let Some((text, manifest)) = manifest_of(parent, &["Cargo.toml", "package.json"])
        {
            return Some((text, format!("../{manifest}")));
        }
        if !has(i, "__init__.py") || has(parent, "__init__.py") {
            return None;
        }
        // Its project's folder: the parent, or the one above a `src/` layout.
        let (project, up) = match paths::name(&self.folders[parent].path) {
            "src" => (self.folders[parent].parent?, "../.."),
            _ => (parent, ".."),
        };
        // The project's one package: not a second one beside it (urllib3's `dummyserver/`
        // beside `src/urllib3/`, a test server the manifest says nothing of).
        let packages = |f: usize| {
            self.folders[f]
                .children
                .iter()
                .filter(|&&c| has(c, "__init__.py") && !PathRole::of(&self.folders[c].path).is_auxiliary())
        };
        let src =
            self.folders[project].children.iter().find(|&&c| paths::name(&self.folders[c].path) == "src");
        let beside_src = parent == project && src.is_some_and(|&src| packages(src).next().is_some());
        if beside_src || packages(parent).count() > 1 {
            return None;
        }
        let (text, manifest) = manifest_of(project, &["pyproject.toml", "setup.cfg"])?;
        Some((text, format!("{up}/{manifest}")))
    }

    /// "12 files (8 Python, 4 Markdown); subfolders: api, models, utils"
    fn holdings_summary(&self, i: usize) -> String {
        let folder = &self.folders[i];
        // (how many, the kind, the first file of it)
        let mut langs: Vec<(usize, String, &str)> = Vec::new();
        for file in &folder.files {
            let name = kind_name(file);
            match langs.iter_mut().find(|(_, l, _)| *l == name) {
                Some((n, _, _)) => *n += 1,
                None => langs.push((1, name, &file.name)),
            }
        }
        // The most first; among equals, languages before extensions.
        langs.sort_by(|a, b| {
            b.0.cmp(&a.0).then_with(|| (a.1.starts_with('.'), &a.1).cmp(&(b.1.starts_with('.'), &b.1)))
        });
        let n = folder.files.len();
        let mut text = match n {
            0 => "No files of its own".to_string(),
            _ => {
                // A kind named by its extension, of one file, is that file (`py.typed`, not `1 .typed`).
                let by_lang: Vec<String> = langs
                    .iter()
                    .take(4)
                    .map(|(n, l, first)| match *n == 1 && (l.starts_with('.') || l == "other") {
                        true => paths::display_name(first).into_owned(),
                        false => format!("{n} {l}"),
                    })
                    .collect();
                format!("{} ({})", crate::wording::count(n, "file"), by_lang.join(", "))
            }
        };
        if !folder.children.is_empty() {
            let names: Vec<&str> =
                folder.children.iter().take(6).map(|&c| paths::name(&self.folders[c].path)).collect();
            let more = folder.children.len().saturating_sub(names.len());
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            text.push_str(&format!("; subfolders: {}{more}", names.join(", ")));
        }
        text
    }
}

/// What a file is, for a folder summary: its language, else its extension.
fn kind_name(file: &FileData) -> String {
    match (language_name(file.lang.as_deref()), file.name.rsplit_once('.')) {
        (Some(lang), _) => lang.to_string(),
        (None, Some((stem, ext))) if !stem.is_empty() => format!(".{ext}"),
        (None, _) => "other".to_string(),
    }
}

fn language_name(lang: Option<&str>) -> Option<&'static str> {
    Some(match lang? {
        "rust" => "Rust",
        "python" => "Python",
        "typescript" | "tsx" => "TypeScript",
        "javascript" => "JavaScript",
        "markdown" => "Markdown",
        "go" => "Go",
        "java" => "Java",
        "c" => "C",
        "cpp" => "C++",
        "shell" => "shell",
        "toml" => "TOML",
        "yaml" => "YAML",
        "json" => "JSON",
        "html" => "HTML",
        "css" => "CSS",
        "sql" => "SQL",
        _ => return None,
    })
}
