//! What the task's own text says of the files: a file it names by its name
//! or path, the area it names before its colon, the definitions it writes
//! as code (the signals `named`, `mentioned`, `area` and `defines`).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ctxkeep_core::paths::PathRole;

use crate::graph;
use crate::index::IndexedFile;
use crate::terms::stem;

/// File names too common to say which file a task means.
pub(crate) const GENERIC_STEMS: &[&str] = &[
    "mod",
    "lib",
    "main",
    "index",
    "init",
    "__init__",
    "util",
    "utils",
    "types",
    "type",
    "common",
    "core",
    "base",
    "test",
    "tests",
    "setup",
    "conftest",
    "helpers",
    "helper",
    "misc",
    "config",
    "constants",
    "errors",
    "error",
    "src",
    "source",
];

/// Per file, whether the task names it: its file name without extension (its
/// folder's name for an `index.ts`, `mod.rs`, `__init__.py`) is a word of the
/// query, or two or three consecutive words run together (`observable map`
/// names `observablemap.ts`, `reload` names `reload.rs` and `reload/mod.rs`).
/// Files sharing a name share the credit.
pub(super) fn named_in_query(files: &[IndexedFile], query: &str) -> Vec<f64> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut names: HashSet<String> = HashSet::default();
    for (i, word) in words.iter().enumerate() {
        names.insert(word.clone());
        names.insert(stem(word));
        for n in 2..=3 {
            if let Some(run) = words.get(i..i + n) {
                names.insert(run.concat());
            }
        }
    }
    let key = |bare: &str| -> String {
        bare.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase()
    };
    let named = |key: &str| names.contains(key) || names.contains(&stem(key));
    // A name with dots is named whole first (`res.type` names `res.type.js`), and
    // then its first part names no other file (every `res.*.js`); else by its first
    // part (`validation` names `validation.test.js`).
    let whole_name = |f: &IndexedFile| -> Option<(String, String)> {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        let whole = name.rsplit_once('.').map_or(name, |(whole, _)| whole);
        let first = whole.split('.').next().unwrap_or(whole);
        (whole.contains('.') && f.size > 0 && named(&key(whole))).then(|| (key(whole), key(first)))
    };
    let wholes: Vec<Option<(String, String)>> = files.iter().map(whole_name).collect();
    let taken: HashSet<&str> = wholes.iter().flatten().map(|(_, first)| first.as_str()).collect();
    let stems: Vec<Option<String>> = files
        .iter()
        .zip(&wholes)
        .map(|(f, whole)| {
            if let Some((whole, _)) = whole {
                return Some(whole.clone());
            }
            let mut parts = f.path.rsplit('/');
            let name = parts.next().unwrap_or(&f.path);
            let mut bare = name.split('.').next().unwrap_or(name);
            // `format/index.ts`, `pager/mod.rs`, `json/__init__.py` are named by their folder.
            if GENERIC_STEMS.contains(&bare.to_lowercase().as_str()) {
                bare = parts.next().unwrap_or(bare);
            }
            // An empty file (a bare `__init__.py`) holds nothing the task could be about.
            if bare.len() < 3 || GENERIC_STEMS.contains(&bare.to_lowercase().as_str()) || f.size == 0 {
                return None;
            }
            let key = key(bare);
            (named(&key) && !taken.contains(key.as_str())).then_some(key)
        })
        .collect();
    let mut sharing: HashMap<&str, f64> = HashMap::default();
    for key in stems.iter().flatten() {
        *sharing.entry(key.as_str()).or_default() += 1.0;
    }
    stems.iter().map(|k| k.as_deref().map_or(0.0, |k| 1.0 / sharing[k].sqrt())).collect()
}

/// What a commit message's first line says it is about before its colon: a
/// conventional commit's scope (`fix(axum-core):`, `feat(client, server)!:`)
/// or a leading area (`automata: DRY up …`), lowercased; not a kind of
/// change (`fix:`, `docs:`).
pub(super) fn task_area(query: &str) -> Vec<String> {
    const KINDS: &[&str] = &[
        "fix", "feat", "feature", "chore", "docs", "doc", "test", "tests", "refactor", "perf", "ci", "build",
        "style", "revert", "release", "deps", "bump", "security", "sec", "wip", "update", "add", "remove",
        "breaking", "note", "todo", "warning",
    ];
    let line = query.trim_start().lines().next().unwrap_or("");
    let Some((head, _)) = line.split_once(": ") else { return Vec::new() };
    let head = head.trim_end_matches('!');
    let area = match head.split_once('(') {
        Some((kind, scope)) if kind.chars().all(|c| c.is_ascii_alphabetic()) => scope.strip_suffix(')'),
        Some(_) => None,
        // One word: "Fix the bug: details" has no area.
        None if !head.contains(char::is_whitespace) && !KINDS.contains(&head.to_lowercase().as_str()) => {
            Some(head)
        }
        None => None,
    };
    let valid = |w: &&str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c));
    area.map(|a| a.split([',', '/', ' ']).filter(valid).map(str::to_lowercase).collect()).unwrap_or_default()
}

/// Per file, whether [`task_area`] names one of its folders: the folder's
/// name (`axum-core/`, `clap_mangen/`) or a part of it (`mangen`,
/// `automata` of `regex-automata/`).
pub(crate) fn in_task_area(files: &[IndexedFile], query: &str) -> Vec<f64> {
    let area = task_area(query);
    if area.is_empty() {
        return vec![0.0; files.len()];
    }
    let names = |folder: &str| {
        let folder = folder.to_lowercase();
        area.iter().any(|a| *a == folder || folder.split(['-', '_', '.']).any(|part| part == a))
    };
    files
        .iter()
        .map(|f| {
            let folders = f.path.rsplit_once('/').map_or("", |(folders, _)| folders);
            if folders.split('/').any(names) { 1.0 } else { 0.0 }
        })
        .collect()
}

/// Per word of `query` that gives a path (`src/db/pool.rs`, `./pool.rs`), a
/// file name with its extension (`pool.rs`), a place in a file as compilers
/// and tracebacks write it (`src/main.rs:10:5`,
/// `/venv/lib/python3.12/site-packages/pkg/db/pool.py`) or a link to it
/// (`https://github.com/o/r/blob/main/src/db/pool.rs#L12`), the files it fits:
/// those whose path ends with the longest tail of it that any path ends with
/// (at a folder's boundary; a file name alone only when the word is one).
pub(crate) fn named_by_path(files: &[IndexedFile], query: &str) -> Vec<Vec<usize>> {
    // Most tasks give no path: then the files' names are not worth reading.
    match path_words(query).next() {
        Some(_) => FilesByName::new(files).named_by_path(files, query),
        None => Vec::new(),
    }
}

/// The words of `query` that may give a file: a path or a name with its extension.
fn path_words(query: &str) -> impl Iterator<Item = &str> {
    query
        .split(|c: char| c.is_whitespace() || "`'\"()[]{},;<>".contains(c))
        .map(place_in_file)
        .filter(|w| w.len() >= 4 && w.contains(['/', '.']))
}

/// The files by their file name (`pool.rs`): where a path a text gives can end.
pub(crate) struct FilesByName<'f>(HashMap<&'f str, Vec<usize>>);

impl<'f> FilesByName<'f> {
    pub(crate) fn new(files: &'f [IndexedFile]) -> FilesByName<'f> {
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::default();
        for (i, file) in files.iter().enumerate() {
            by_name.entry(file.path.rsplit('/').next().unwrap_or(&file.path)).or_default().push(i);
        }
        FilesByName(by_name)
    }

    /// [`named_by_path`], with the files' names read once for many texts.
    pub(crate) fn named_by_path(&self, files: &[IndexedFile], query: &str) -> Vec<Vec<usize>> {
        let ends_with = |long: &str, short: &str| {
            long.strip_suffix(short).is_some_and(|head| head.is_empty() || head.ends_with('/'))
        };
        let fits = |word: &str| -> Vec<usize> {
            // Only a file of the word's file name can end with any tail of it.
            let name = word.rsplit('/').next().unwrap_or(word);
            let Some(candidates) = self.0.get(name) else { return Vec::new() };
            let mut tail = word;
            loop {
                let fit: Vec<usize> =
                    candidates.iter().copied().filter(|&i| ends_with(&files[i].path, tail)).collect();
                match tail.split_once('/') {
                    _ if !fit.is_empty() => return fit,
                    Some((_, rest)) if rest.contains('/') => tail = rest,
                    _ => return fit,
                }
            }
        };
        path_words(query).map(fits).filter(|fit| !fit.is_empty()).collect()
    }
}

/// The file a word names, without what may come around it: `./`, a link's
/// anchor (`#L12`), a line and column (`:10:5`), a sentence's end.
fn place_in_file(word: &str) -> &str {
    let word = word.split('#').next().unwrap_or(word).trim_start_matches("./");
    let mut word = word.trim_end_matches(['.', ':']);
    // `path:10:5`: up to two numbers after colons.
    for _ in 0..2 {
        match word.rsplit_once(':') {
            Some((head, number)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
                word = head
            }
            _ => break,
        }
    }
    word
}

/// Per file, from 0 to 1, how much of what the task writes as code
/// ([`graph::code_names`]: `url_for`, `Session`, `click.prompt`) it defines. A name
/// several files define is shared among them; tests define it only when
/// nothing else does (a test's `class Flask(flask.Flask)` is not where
/// `Flask` is). A name the task qualifies (`app.render`, `Input::haystack`)
/// is defined where that qualifier holds it, when some file's does
/// ([`qualified_by`]): `app.render` is express's `application.js`, not
/// `res.render` in `response.js`.
pub(super) fn defines_named(files: &[IndexedFile], query: &str) -> Vec<f64> {
    let code = graph::code_names(query);
    if code.is_empty() {
        return vec![0.0; files.len()];
    }
    let mut qualifiers: HashMap<String, Vec<String>> = HashMap::default();
    for (qualifier, name) in graph::qualified_names(query) {
        qualifiers.entry(name).or_default().push(qualifier);
    }
    // Per name, its definers: code, then tests, each as qualified or not.
    let mut definers: HashMap<&str, [Vec<usize>; 4]> = HashMap::default();
    for (i, file) in files.iter().enumerate() {
        let test = matches!(PathRole::of(&file.path), PathRole::Test | PathRole::Fixture);
        let mut defined: Vec<(&str, bool)> = Vec::new();
        for def in file.tags.defs.iter().filter(|d| d.kind.defines_name() && code.contains(d.name.as_str())) {
            let qualified = qualifiers
                .get(def.name.as_str())
                .is_some_and(|qs| qs.iter().any(|q| qualified_by(file, def, q)));
            defined.push((def.name.as_str(), qualified));
        }
        // A file defining a name both ways counts as qualified.
        defined.sort_unstable_by(|a, b| a.0.cmp(b.0).then(b.1.cmp(&a.1)));
        defined.dedup_by(|a, b| a.0 == b.0);
        for (name, qualified) in defined {
            let groups = definers.entry(name).or_default();
            groups[usize::from(test) * 2 + usize::from(!qualified)].push(i);
        }
    }
    shared(
        files.len(),
        definers.into_values().map(|[code, code_unqualified, tests, tests_unqualified]| {
            match (code.is_empty(), code_unqualified.is_empty(), tests.is_empty()) {
                (false, _, _) => code,
                (true, false, _) => code_unqualified,
                (true, true, false) => tests,
                (true, true, true) => tests_unqualified,
            }
        }),
    )
}

/// Whether `def` of `file` is the one `qualifier.name` means: it sits in a
/// definition so named (`class Session`, `impl Input`), its signature
/// writes it so (`app.render = function render`, `Reply.prototype.send =`),
/// or it is at the top of a module so named (`dense::DFA` in `dense.rs`,
/// `flask.url_for` in `src/flask/helpers.py`).
pub(super) fn qualified_by(file: &IndexedFile, def: &crate::tags::Def, qualifier: &str) -> bool {
    match def.parent(&file.tags.defs) {
        Some(parent) => parent.name == qualifier,
        None => {
            let written = |sep: &str| def.signature.contains(&format!("{qualifier}{sep}{}", def.name));
            written(".") || written(".prototype.") || {
                let mut components = file.path.split('/');
                let stem = components.next_back().map(|name| name.split('.').next().unwrap_or(name));
                stem == Some(qualifier) || components.any(|folder| folder == qualifier)
            }
        }
    }
}

/// Per file, from 0 to 1, the credit of the groups it is in: each group gives
/// its files 1 / √(its size), so the one file a task can mean has 1, one of
/// two 0.71 and one of the thirty `index.ts` a task says 0.18.
pub(super) fn shared(n: usize, groups: impl IntoIterator<Item = Vec<usize>>) -> Vec<f64> {
    let mut raw = vec![0.0; n];
    for group in groups {
        let share = 1.0 / (group.len() as f64).sqrt();
        for i in group {
            raw[i] += share;
        }
    }
    raw.iter().map(|r| r.min(1.0)).collect()
}
