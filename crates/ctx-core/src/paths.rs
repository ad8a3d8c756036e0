//! Repository-relative paths: how user input becomes a folder key, and how
//! folder keys relate to each other.
//!
//! A folder key is the path relative to the workspace root with `/` between
//! components and no `.`/`..`, or `.` for the root itself.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// The key of the workspace root folder.
pub const ROOT: &str = ".";

/// Turn `input` into a repository-relative key.
///
/// `input` is absolute, or relative to `cwd` when `cwd` lies inside `root`
/// (as a shell user expects), else relative to `root`. `.` and `..` are
/// resolved lexically; the result must stay inside `root`.
pub fn resolve(root: &Path, cwd: &Path, input: &str) -> Result<String> {
    if input.is_empty() {
        return Err(Error::InvalidInput("empty path".into()));
    }
    if input.contains('\0') {
        return Err(Error::InvalidInput(format!("{input:?}: path contains a NUL byte")));
    }
    let given = Path::new(input);
    let base = if given.is_absolute() {
        given.to_path_buf()
    } else if cwd.starts_with(root) {
        cwd.join(given)
    } else {
        root.join(given)
    };
    let normal = normalize_lexically(&base);
    let rel = normal
        .strip_prefix(root)
        .map_err(|_| Error::OutsideRoot { input: input.to_string(), root: root.to_path_buf() })?;
    let mut key = String::new();
    for component in rel.components() {
        let Component::Normal(name) = component else {
            continue;
        };
        let name = name
            .to_str()
            .ok_or_else(|| Error::InvalidInput(format!("{input:?}: path is not valid UTF-8")))?;
        if !key.is_empty() {
            key.push('/');
        }
        key.push_str(name);
    }
    if key.is_empty() {
        key.push_str(ROOT);
    }
    Ok(key)
}

/// Drop `.` components and resolve `..` against the components before it,
/// without touching the file system (the path may not exist).
fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The parent folder key of `key`, `None` for the root.
pub fn parent(key: &str) -> Option<&str> {
    if key == ROOT {
        return None;
    }
    Some(key.rsplit_once('/').map_or(ROOT, |(parent, _)| parent))
}

/// Every ancestor of `key`, nearest first, ending with the root.
pub fn ancestors(key: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(parent(key), |k| parent(k))
}

/// How many folders deep `key` is: 0 for the root, 1 for `src`, 2 for `src/auth`.
pub fn depth(key: &str) -> usize {
    if key == ROOT { 0 } else { key.split('/').count() }
}

/// The last component of `key` (`.` for the root).
pub fn name(key: &str) -> &str {
    key.rsplit_once('/').map_or(key, |(_, name)| name)
}

/// The key of `name` inside folder `folder`.
pub fn join(folder: &str, name: &str) -> String {
    if folder == ROOT { name.to_string() } else { format!("{folder}/{name}") }
}

/// Whether `key` is `folder` or lies somewhere below it.
pub fn is_within(key: &str, folder: &str) -> bool {
    folder == ROOT || key.strip_prefix(folder).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Bumped when [`PathRole::of`] answers differently for some path: what is
/// cached from roles (the graph, the outlines) is made again.
pub const ROLE_RULES_VERSION: u32 = 5;

/// What a file is for, read from its path alone: the code itself, or what
/// surrounds it. Maps, folder context and rankings show the code first and
/// what surrounds it after (unless the task points there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathRole {
    /// The repository's own code (and anything not recognized below).
    Source,
    Test,
    /// Data tests read: fixtures, snapshots, golden files, test data.
    Fixture,
    Example,
    Bench,
    Docs,
    /// Someone else's code kept in this repository, or a build's output
    /// committed to it (`dist/`).
    Vendored,
}

impl PathRole {
    /// What a file or folder at `path` (repository-relative, `/`-separated) is
    /// for. The most telling folder wins (a fixture under `tests/` is a
    /// fixture); a file named as a test is a test anywhere.
    pub fn of(path: &str) -> PathRole {
        // Ranking asks this of every file several times: one pass, no allocation
        // but the file name's lowercase copy when it has capitals.
        let mut parts = path.split('/').filter(|p| !p.is_empty() && *p != ".");
        let file = parts.next_back().unwrap_or_default();
        // The most telling role any folder names: the first in `FOLDER_ROLES`.
        let mut best: Option<PathRole> = None;
        let (mut under_tests, mut under_code) = (false, false);
        for (i, part) in parts.enumerate() {
            // Under the code's own folder a folder named for benchmarks is the code's:
            // hyperfine's `src/benchmark/` runs its users' benchmarks.
            let named = folder_named(part).filter(|&role| !(under_code && role == PathRole::Bench));
            under_code |= part == "src" || part == "lib";
            // What a test folder keeps in `data/` or `resources/` is what its tests read
            // (black's `tests/data/cases/*.py`: formatter input, no code of the project's).
            let data =
                under_tests && (part.eq_ignore_ascii_case("data") || part.eq_ignore_ascii_case("resources"));
            under_tests |= named == Some(PathRole::Test);
            let role = match named {
                Some(role) => Some(role),
                None if data => Some(PathRole::Fixture),
                // A folder of a kind of tests is tests too (`runtime-tests`, `integration_tests`);
                // `testing/` is the tests at the root (pytest's), but inside the code it is what
                // the code gives its users' tests (`numpy/testing`, hono's `src/helper/testing`).
                None if tests_of_a_kind(part) || (i == 0 && part.eq_ignore_ascii_case("testing")) => {
                    Some(PathRole::Test)
                }
                None => None,
            };
            best = match (best, role) {
                (Some(a), Some(b)) => Some(a.min_telling(b)),
                (a, b) => a.or(b),
            };
        }
        if let Some(role) = best {
            return role;
        }
        let lower = if file.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(file.to_ascii_lowercase())
        } else {
            Cow::Borrowed(file)
        };
        if is_test_file(&lower) {
            return PathRole::Test;
        }
        // Minified or bundled code is a build's output wherever it is kept.
        if [".min.", ".bundle.", "-bundle."].iter().any(|mark| lower.contains(mark)) {
            return PathRole::Vendored;
        }
        // A folder's own name says what it is (`tests`, `examples`).
        folder_named(file).unwrap_or(PathRole::Source)
    }

    /// Of two roles folders name, the more telling: a fixture under `tests/` is a fixture.
    fn min_telling(self, other: PathRole) -> PathRole {
        let rank = |role: PathRole| FOLDER_ROLES.iter().position(|(r, _)| *r == role);
        if rank(other) < rank(self) { other } else { self }
    }

    /// Whether this is what surrounds the code rather than the code.
    pub fn is_auxiliary(self) -> bool {
        self != PathRole::Source
    }
}

/// Whether two names are one but for case, `_` and `-`: a file's stem and
/// what it is named for (`context.ts` and `Context`, `file_storage.py` and
/// `FileStorage`).
pub fn same_name(a: &str, b: &str) -> bool {
    fn plain(s: &str) -> impl Iterator<Item = char> + '_ {
        s.chars().filter(|c| !matches!(c, '_' | '-')).flat_map(char::to_lowercase)
    }
    plain(a).eq(plain(b))
}

/// The folder names that say what a folder holds, the most telling role first.
const FOLDER_ROLES: &[(PathRole, &[&str])] = &[
    (
        PathRole::Vendored,
        &["vendor", "vendored", "_vendor", "third_party", "third-party", "node_modules", "dist"],
    ),
    (
        PathRole::Fixture,
        &[
            "fixtures",
            "fixture",
            "__fixtures__",
            "testdata",
            "test_data",
            "test-data",
            "snapshots",
            "__snapshots__",
            "golden",
            "__mocks__",
        ],
    ),
    (PathRole::Test, &["tests", "test", "__tests__", "spec", "specs", "e2e", "integration-tests"]),
    (
        PathRole::Example,
        &["examples", "example", "demo", "demos", "samples", "sample", "playground", "docs_src"],
    ),
    (PathRole::Bench, &["benches", "bench", "benchmarks", "benchmark"]),
    // `website/`: a project's site, its docs and their own code (jotai's Gatsby pages).
    (PathRole::Docs, &["docs", "doc", "documentation", "website"]),
];

/// The role a folder named `name` (any case) has by its name alone.
fn folder_named(name: &str) -> Option<PathRole> {
    // No name of the table is longer: lowercase on the stack.
    let mut buf = [0u8; 24];
    let lower = buf.get_mut(..name.len())?;
    lower.copy_from_slice(name.as_bytes());
    lower.make_ascii_lowercase();
    let lower = std::str::from_utf8(lower).ok()?;
    FOLDER_ROLES.iter().find(|(_, names)| names.contains(&lower)).map(|(role, _)| *role)
}

/// `runtime-tests`, `integration_tests`: a folder of a kind of tests.
fn tests_of_a_kind(part: &str) -> bool {
    let tail = part.len().checked_sub(6).filter(|&at| at > 0).and_then(|at| part.get(at..));
    tail.is_some_and(|t| t.eq_ignore_ascii_case("-tests") || t.eq_ignore_ascii_case("_tests"))
}

/// `test_x.py`, `x_test.py`, `x_test.go`, `x.test.ts`, `x.spec.js`, `conftest.py`, `tests.rs`,
/// and type tests (`index.test-d.ts`, as tsd and vitest name them).
/// `lower` is the file's name in lowercase.
fn is_test_file(lower: &str) -> bool {
    let stem = lower.split('.').next().unwrap_or(lower);
    stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || matches!(stem, "conftest" | "tests" | "test")
        || lower.contains(".test.")
        || lower.contains(".spec.")
        || lower.contains(".test-d.")
        || lower.contains(".spec-d.")
}

/// A name (a path, a file or folder name; any one-line text) as text for
/// people and agents may show it: control characters become visible escapes
/// (`\n`, `\r`, `\t`, `\x1b`, `\u{85}`), as do the characters that move
/// lines or reorder text on screen (U+2028, U+2029, the bidirectional
/// overrides and isolates). A name on Linux may hold any byte but `/` and
/// NUL: unescaped, a newline in it starts a fake Markdown section, and an ESC
/// or BEL sequence drives the terminal it is printed on. Every text rendering
/// of names goes through this; JSON keeps the true name (it escapes them).
pub fn display_name(name: &str) -> Cow<'_, str> {
    if !name.chars().any(needs_escape) {
        return Cow::Borrowed(name);
    }
    let mut shown = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c if needs_escape(c) && (c as u32) < 0x80 => {
                let _ = write!(shown, "\\x{:02x}", c as u32);
            }
            c if needs_escape(c) => {
                let _ = write!(shown, "\\u{{{:x}}}", c as u32);
            }
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_path_says_what_its_file_is_for() {
        let cases = [
            ("src/flask/app.py", PathRole::Source),
            ("src/lib.rs", PathRole::Source),
            ("tests/test_basic.py", PathRole::Test),
            ("src/utils/format.test.ts", PathRole::Test),
            ("typings/index.test-d.ts", PathRole::Test),
            ("src/types.spec-d.mts", PathRole::Test),
            ("pkg/server_test.go", PathRole::Test),
            ("test_cli.py", PathRole::Test),
            ("packages/core/__tests__/index.ts", PathRole::Test),
            ("tests/fixtures/app.py", PathRole::Fixture),
            ("tests/data/cases/remove_parens.py", PathRole::Fixture),
            ("src/test/resources/app.json", PathRole::Fixture),
            ("src/data/loader.py", PathRole::Source),
            ("tests/test_data.py", PathRole::Test),
            ("crates/x/tests/snapshots/a.snap", PathRole::Fixture),
            ("examples/tutorial/flaskr/blog.py", PathRole::Example),
            ("docs_src/first_steps/tutorial001.py", PathRole::Example),
            ("benches/map.rs", PathRole::Bench),
            ("crates/x/benches/map.rs", PathRole::Bench),
            ("src/benchmark/executor.rs", PathRole::Source),
            ("lib/bench/index.js", PathRole::Source),
            ("docs/conf.py", PathRole::Docs),
            ("website/src/pages/index.js", PathRole::Docs),
            ("src/_vendor/six.py", PathRole::Vendored),
            ("dist/esm/axios.js", PathRole::Vendored),
            ("lib/axios.min.js", PathRole::Vendored),
            ("static/app.bundle.js", PathRole::Vendored),
            ("src/minimal.py", PathRole::Source),
            ("tests", PathRole::Test),
            ("src/contest.py", PathRole::Source),
            ("src/latest.rs", PathRole::Source),
            ("runtime-tests/workerd/index.ts", PathRole::Test),
            ("crates/x/integration_tests/a.rs", PathRole::Test),
            ("src/my-tests.rs", PathRole::Source),
            ("testing/python/approx.py", PathRole::Test),
            ("numpy/testing/_private/utils.py", PathRole::Source),
            ("src/helper/testing/index.ts", PathRole::Source),
        ];
        for (path, role) in cases {
            assert_eq!(PathRole::of(path), role, "{path}");
        }
        assert!(!PathRole::Source.is_auxiliary() && PathRole::Fixture.is_auxiliary());
    }

    #[test]
    fn names_show_their_control_characters_as_escapes() {
        assert!(matches!(display_name("src/main.rs"), Cow::Borrowed("src/main.rs")));
        assert_eq!(display_name("a\n## Decisions\n- fake"), "a\\n## Decisions\\n- fake");
        assert_eq!(display_name("evil\x1b]0;title\x07.py"), "evil\\x1b]0;title\\x07.py");
        assert_eq!(display_name("\x1b[31mred\r\tx\x7f"), "\\x1b[31mred\\r\\tx\\x7f");
        assert_eq!(display_name("c1\u{85} rtl\u{202e}txt.exe"), "c1\\u{85} rtl\\u{202e}txt.exe");
        assert_eq!(display_name("Ünïcode ✓ back\\slash"), "Ünïcode ✓ back\\slash");
    }

    fn check(cwd: &str, input: &str, expect: Result<&str, &str>) {
        let got = resolve(Path::new("/repo"), Path::new(cwd), input);
        match (got, expect) {
            (Ok(key), Ok(want)) => assert_eq!(key, want, "input {input:?} from {cwd}"),
            (Err(err), Err(code)) => assert_eq!(err.code(), code, "input {input:?}: {err}"),
            (got, want) => panic!("input {input:?} from {cwd}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn relative_to_cwd_inside_root() {
        check("/repo", "src/auth", Ok("src/auth"));
        check("/repo/src", "auth", Ok("src/auth"));
        check("/repo/src", "..", Ok("."));
        check("/repo/src", ".", Ok("src"));
        check("/repo", "./src//auth/", Ok("src/auth"));
        check("/repo/src/auth", "../db", Ok("src/db"));
    }

    #[test]
    fn relative_to_root_when_cwd_is_elsewhere() {
        check("/home/me", "src", Ok("src"));
        check("/home/me", ".", Ok("."));
    }

    #[test]
    fn absolute_paths() {
        check("/elsewhere", "/repo/src", Ok("src"));
        check("/repo", "/repo", Ok("."));
        check("/repo", "/etc", Err("OUTSIDE_ROOT"));
        check("/repo", "/repository", Err("OUTSIDE_ROOT"));
    }

    #[test]
    fn escapes_are_rejected() {
        check("/repo", "../x", Err("OUTSIDE_ROOT"));
        check("/repo/src", "../../x", Err("OUTSIDE_ROOT"));
        check("/repo", "src/../../x", Err("OUTSIDE_ROOT"));
        check("/repo", "", Err("INVALID_INPUT"));
    }

    #[test]
    fn family() {
        assert_eq!(parent("."), None);
        assert_eq!(parent("src"), Some("."));
        assert_eq!(parent("src/auth/hooks"), Some("src/auth"));
        assert_eq!(ancestors("src/auth/hooks").collect::<Vec<_>>(), ["src/auth", "src", "."]);
        assert_eq!(depth("."), 0);
        assert_eq!(depth("src/auth"), 2);
        assert_eq!(name("src/auth"), "auth");
        assert_eq!(join(".", "src"), "src");
        assert_eq!(join("src", "auth"), "src/auth");
        assert!(is_within("src/auth/jwt.rs", "src"));
        assert!(is_within("src", "src"));
        assert!(is_within("src", "."));
        assert!(!is_within("srcs/x", "src"));
        assert!(!is_within("src", "src/auth"));
    }

    proptest! {
        #[test]
        fn resolved_keys_are_canonical(parts in proptest::collection::vec("[a-z.]{1,3}", 0..6)) {
            let input = if parts.is_empty() { ".".to_string() } else { parts.join("/") };
            if let Ok(key) = resolve(Path::new("/repo"), Path::new("/repo"), &input) {
                // canonical keys resolve to themselves and contain no `.`/`..`/empty parts
                prop_assert_eq!(resolve(Path::new("/repo"), Path::new("/repo"), &key).ok(), Some(key.clone()));
                if key != ROOT {
                    prop_assert!(key.split('/').all(|c| !c.is_empty() && c != "." && c != ".."));
                }
            }
        }

        #[test]
        fn shown_names_hold_no_control_character(name in "\\PC{0,4}[\\x00-\\x1f\\x7f-\\u{9f}\\u{2028}\\u{202e}]{0,3}\\PC{0,4}") {
            let shown = display_name(&name);
            prop_assert!(!shown.chars().any(needs_escape), "{:?} -> {:?}", name, shown);
            // Nothing else changes: a name without such characters is shown as it is.
            if !name.chars().any(needs_escape) {
                prop_assert_eq!(shown.as_ref(), name.as_str());
            }
        }
    }
}
