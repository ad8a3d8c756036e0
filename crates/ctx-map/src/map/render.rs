//! A plan made text within a budget: the structural layer, then the plan's
//! definitions grouped by file, each under its path with what encloses it.

use std::fmt::Write;

use ctxkeep_core::paths::{PathRole, display_name};
use ctxkeep_core::tokens::Tokenizer;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::plan::{PATH_ONLY, Plan};
use super::{MapDef, MapFile, RepoMap};
use crate::index::{IndexStats, IndexedFile};
use crate::structure::Structure;
use crate::tags::Kind;

/// Most folders the tree lists.
const MAX_TREE_ENTRIES: usize = 40;

/// The map of `files` within `budget` tokens: the structural layer, then as
/// many of the plan's definitions as fit, in its order.
pub fn render(
    files: &[IndexedFile],
    plan: &Plan,
    mut structure: Structure,
    budget: usize,
    tok: &dyn Tokenizer,
    index: IndexStats,
) -> RepoMap {
    // A task's map shows the repository's stack and commands, not its tree and key
    // files: the same for every task, they would take the room of the files it points to.
    if plan.task {
        structure.tree.clear();
        structure.key_files.clear();
        // One command of each purpose: minijinja's nineteen Makefile targets took a sixth.
        let mut purposes = HashSet::default();
        structure.commands.retain(|c| purposes.insert(c.purpose.clone()));
    }
    let hidden = trim_tree(&mut structure.tree, MAX_TREE_ENTRIES);
    let render_structure = |s: &Structure| render_structure(s, &hidden);
    // The structure, shallower or without its tree if that is what fits a small budget.
    let mut head = render_structure(&structure);
    while tok.count(&head) > budget / 2 && !structure.tree.is_empty() {
        let deepest = structure.tree.iter().map(|t| t.depth).max().unwrap_or(0);
        if deepest > 1 {
            structure.tree.retain(|t| t.depth < deepest);
        } else {
            structure.tree.clear();
        }
        head = render_structure(&structure);
    }
    // Still over the whole budget: the structure's other parts go, the least
    // telling first, then the title itself (nothing fits: the map is empty).
    while tok.count(&head) > budget {
        if !structure.key_files.is_empty() {
            structure.key_files.clear();
        } else if !structure.commands.is_empty() {
            structure.commands.clear();
        } else if !structure.stack.is_empty() {
            structure.stack.clear();
        } else {
            head.clear();
            break;
        }
        head = render_structure(&structure);
    }

    let order = &plan.order;
    // The longest prefix of that order that fits, then any later ones that still fit.
    let mut parts = PartCounts::new(tok, files, &head, plan);
    let mut fits = |chosen: &[(usize, usize, f64)]| {
        let tokens = match parts.as_mut().and_then(|parts| parts.count(chosen)) {
            Some(tokens) => tokens,
            None => tok.count(&compose(&head, files, plan, chosen).0),
        };
        tokens <= budget
    };
    // Galloping first: every probe renders and counts its text, so stay near the answer.
    let (mut lo, mut hi) = (0, order.len());
    let mut step = 16;
    while step < hi {
        if fits(&order[..step]) {
            lo = step;
            step *= 2;
        } else {
            hi = step - 1;
            break;
        }
    }
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(&order[..mid]) { lo = mid } else { hi = mid - 1 }
    }
    let mut chosen: Vec<(usize, usize, f64)> = order[..lo].to_vec();
    for &candidate in order[lo..].iter().take(200) {
        chosen.push(candidate);
        if !fits(&chosen) {
            chosen.pop();
        }
    }
    let (text, shown) = compose(&head, files, plan, &chosen);
    let tokens = tok.count(&text);
    let left_out = order.len().saturating_sub(chosen.len());
    RepoMap {
        text,
        tokens,
        budget,
        tokenizer: tok.name().to_string(),
        structure,
        files: shown,
        left_out,
        index,
    }
}

/// Cut `tree` to at most `max` folders: every top folder, and as many of
/// each one's subfolders (the ones holding the most files) as leave room
/// for as many of every other's. Returns, per top folder, how many of its
/// subfolders were left out, for the map to say so.
fn trim_tree(tree: &mut Vec<ctxkeep_core::structure::TreeEntry>, max: usize) -> HashMap<String, usize> {
    let mut hidden = HashMap::default();
    if tree.len() <= max {
        return hidden;
    }
    let parent = |path: &str| path.split('/').next().unwrap_or(path).to_string();
    // Each top folder's subfolders, most files first.
    let mut children: HashMap<String, Vec<(usize, usize)>> = HashMap::default();
    for (i, entry) in tree.iter().enumerate().filter(|(_, e)| e.depth > 1) {
        children.entry(parent(&entry.path)).or_default().push((entry.files, i));
    }
    let tops = tree.iter().filter(|e| e.depth == 1).count();
    let shown = |k: usize| tops + children.values().map(|c| c.len().min(k)).sum::<usize>();
    let widest = children.values().map(Vec::len).max().unwrap_or(0);
    let per_top = (0..=widest).take_while(|&k| shown(k) <= max).last().unwrap_or(0);
    let mut keep = vec![false; tree.len()];
    for (top, list) in &mut children {
        // The code before what surrounds it, however many snapshots a test folder holds
        // (minijinja's `minijinja/src` under `minijinja/tests`' 495 files).
        let auxiliary = |i: usize| PathRole::of(&tree[i].path).is_auxiliary();
        list.sort_by_key(|&(files, i)| (auxiliary(i), std::cmp::Reverse(files), i));
        for &(_, i) in list.iter().take(per_top) {
            keep[i] = true;
        }
        if list.len() > per_top && per_top > 0 {
            hidden.insert(top.clone(), list.len() - per_top);
        }
    }
    let mut at = 0;
    tree.retain(|entry| {
        at += 1;
        entry.depth == 1 || keep[at - 1]
    });
    // Past `max` top folders, the tree is cut where it is (and says nothing of subfolders).
    if tree.len() > max {
        tree.truncate(max);
        hidden.clear();
    }
    hidden
}

fn render_structure(s: &Structure, hidden: &HashMap<String, usize>) -> String {
    let mut out = String::from("# Repository map\n\n");
    if !s.stack.is_empty() {
        let _ = writeln!(out, "Stack: {}\n", shown_list(&s.stack));
    }
    if !s.commands.is_empty() {
        out.push_str("Commands:\n");
        for c in &s.commands {
            let _ = writeln!(out, "- {}: `{}`", display_name(&c.purpose), display_name(&c.command));
        }
        out.push('\n');
    }
    if !s.key_files.is_empty() {
        let _ = writeln!(out, "Key files: {}\n", shown_list(&s.key_files));
    }
    if !s.tree.is_empty() {
        out.push_str("Tree:\n");
        // After a top folder's last subfolder shown, how many more it has.
        let more = |out: &mut String, top: Option<&str>| {
            if let Some(n) = top.and_then(|top| hidden.get(top)) {
                let _ = writeln!(out, "    … {}", ctxkeep_core::wording::count(*n, "more folder"));
            }
        };
        let mut open: Option<&str> = None;
        for t in &s.tree {
            if t.depth == 1 {
                more(&mut out, open.take());
            } else {
                open = t.path.split('/').next();
            }
            let name = t.path.rsplit('/').next().unwrap_or(&t.path);
            let _ = writeln!(out, "{}{}/ ({})", "  ".repeat(t.depth), display_name(name), t.files);
        }
        more(&mut out, open);
        out.push('\n');
    }
    out
}

/// The map's text: the structure, then the chosen definitions under their
/// heading (no heading when there are none); and the files shown.
fn compose(
    head: &str,
    files: &[IndexedFile],
    plan: &Plan,
    chosen: &[(usize, usize, f64)],
) -> (String, Vec<MapFile>) {
    if chosen.is_empty() {
        return (head.to_string(), Vec::new());
    }
    let (symbols, shown) = render_symbols(files, plan, chosen);
    (format!("{head}## Symbols ({})\n\n{symbols}", plan.heading), shown)
}

/// Names (paths, manifest entries) on one line, as [`display_name`] shows them.
fn shown_list(names: &[String]) -> String {
    names.iter().map(|n| display_name(n)).collect::<Vec<_>>().join(", ")
}

/// The chosen definitions grouped by file (files by their best definition),
/// each under its path, with the definitions that enclose them.
fn render_symbols(
    files: &[IndexedFile],
    plan: &Plan,
    chosen: &[(usize, usize, f64)],
) -> (String, Vec<MapFile>) {
    // Files in the order of their best definition.
    let mut by_file: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
    let mut slot_of: rustc_hash::FxHashMap<usize, usize> = rustc_hash::FxHashMap::default();
    for &(f, d, score) in chosen {
        let slot = *slot_of.entry(f).or_insert_with(|| {
            by_file.push((f, Vec::new()));
            by_file.len() - 1
        });
        by_file[slot].1.push((d, score));
    }
    let mut out = String::new();
    let mut shown = Vec::with_capacity(by_file.len());
    for (f, mut defs) in by_file {
        let file = &files[f];
        let tags = &file.tags;
        defs.retain(|&(d, _)| d != PATH_ONLY);
        write_block(&mut out, plan, file, f, &defs.iter().map(|&(d, _)| d).collect::<Vec<_>>());
        defs.sort_by_key(|&(d, _)| tags.defs[d].line);
        shown.push(MapFile {
            path: file.path.clone(),
            rank: plan.file_rank[f],
            definitions: defs
                .into_iter()
                .map(|(d, score)| {
                    let def = &tags.defs[d];
                    MapDef {
                        name: def.name.to_string(),
                        kind: def.kind,
                        line: def.line,
                        signature: plan.signature(file, f, d).to_string(),
                        deprecated: def.deprecated,
                        score,
                    }
                })
                .collect(),
            generated: tags.generated.is_some(),
        });
    }
    (out, shown)
}

/// One file's part of the map's text: its path, then its definitions `defs`
/// (none [`PATH_ONLY`]) with the ones enclosing them, in line order, once,
/// with the signatures `plan` shows; then a blank line. `f` is its index.
fn write_block(out: &mut String, plan: &Plan, file: &IndexedFile, f: usize, defs: &[usize]) {
    let tags = &file.tags;
    let mut lines: Vec<usize> = Vec::new();
    for &d in defs {
        let mut at = Some(d);
        while let Some(i) = at {
            lines.push(i);
            at = tags.defs[i].parent.map(|p| p as usize);
        }
    }
    lines.sort_by_key(|&i| (tags.defs[i].line, i));
    lines.dedup();
    // A file a tool wrote says so first: an agent edits what generates it, not the file.
    let note = match (tags.generated.is_some(), defs.is_empty()) {
        (true, _) => " (generated)".to_string(),
        (false, true) => nothing_shown(file),
        (false, false) => String::new(),
    };
    let _ = writeln!(out, "{}:{note}", display_name(&file.path));
    let mut at = 0;
    while at < lines.len() {
        let i = lines[at];
        let def = &tags.defs[i];
        let depth = std::iter::successors(def.parent, |&p| tags.defs[p as usize].parent).count();
        let indent = "    ".repeat(depth);
        let run = crate::tags::constant_run(&tags.defs, &lines[at..]);
        at += run.max(1);
        if run > 1 {
            // The first whole (its type, a value's shape), the others by name.
            let names: Vec<&str> =
                lines[at - run + 1..at].iter().map(|&k| tags.defs[k].name.as_str()).collect();
            let _ = writeln!(out, "{}│ {indent}{}", def.line, plan.signature(file, f, i));
            let _ = writeln!(out, "│ {indent}{}", names.join(", "));
            continue;
        }
        // Lines start with their number (or `│`), never a space: the token
        // counter memoizes line by line where no token spans a line start.
        let signature = plan.signature(file, f, i);
        let last = signature.lines().count().saturating_sub(1);
        let note = def.deprecation_note(&file.lang);
        // The number is the definition's line: in Python and Rust, that of its head, after
        // the decorators and attributes kept above it (`@classmethod` is a line before `465`).
        let above = |line: &str| line.starts_with('@') || line.starts_with("#[");
        let head = match file.lang.as_str() {
            "python" | "rust" => signature.lines().position(|l| !above(l)).unwrap_or(0),
            _ => 0,
        };
        for (k, line) in signature.lines().enumerate() {
            let note = if k == last { note } else { "" };
            if k == head {
                let _ = writeln!(out, "{}│ {indent}{line}{note}", def.line);
            } else {
                let _ = writeln!(out, "│ {indent}{line}{note}");
            }
        }
    }
    out.push('\n');
}

/// What a file shown without definitions says after its path: a test file whose
/// tests are set aside that it holds them, a fixture that it is test data, a
/// hub what it passes on (reqwest's `dns/mod.rs`: "(passes on Addrs, Name, …)"),
/// a parsed file that it defines nothing; a line scan's (a shell script, Go)
/// may miss what it defines, so it claims nothing.
fn nothing_shown(file: &IndexedFile) -> String {
    let tags = &file.tags;
    if PathRole::of(&file.path) == PathRole::Fixture {
        return " (test data)".to_string();
    }
    // By the names its users import them as (rand's `Error as SysError` is `SysError`).
    let passed_on: Vec<&str> = crate::exports::reexports(file)
        .into_iter()
        .flat_map(|r| {
            let renamed =
                |name: &str| r.renamed.iter().find(|(own, _)| *own == name).map(|(_, alias)| *alias);
            r.names.iter().map(|&name| renamed(name).unwrap_or(name)).collect::<Vec<_>>()
        })
        .collect();
    if !passed_on.is_empty() {
        let more = passed_on.len().saturating_sub(PASSED_ON_SHOWN);
        let mut names = passed_on[..passed_on.len().min(PASSED_ON_SHOWN)].join(", ");
        if more > 0 {
            names.push_str(&format!(", … (+{more})"));
        }
        return format!(" (passes on {names})");
    }
    // Its test functions, not what a `mod tests` holds besides (its `use`s' traits, impls).
    match tags.defs.iter().filter(|d| is_test_function(d, &tags.defs)).count() {
        0 if crate::lang::Lang::from_name(&file.lang).is_none() => String::new(),
        0 => " (no definitions)".to_string(),
        tests => format!(" ({})", ctxkeep_core::wording::count(tests, "test")),
    }
}

/// Most names a file shown without definitions says it passes on.
const PASSED_ON_SHOWN: usize = 8;

/// Whether `def` is a test function: a test (by its name, attribute or
/// module) that is a function or method, and not one inside another.
fn is_test_function(def: &crate::tags::Def, defs: &[crate::tags::Def]) -> bool {
    matches!(def.kind, Kind::Function | Kind::Method) && def.is_test(defs) && !def.is_local(defs)
}

/// The tokens of [`compose`]'s text counted by parts, where the tokenizer's
/// counts add up at a line start ([`Tokenizer::adds_up_at_line_starts`]):
/// the title with the heading, then each file's block, each block counted
/// once however many probes of the budget show it.
struct PartCounts<'a> {
    tok: &'a dyn Tokenizer,
    files: &'a [IndexedFile],
    plan: &'a Plan,
    /// The title alone, and with the symbols' heading.
    head: usize,
    headed: usize,
    /// (file, its definitions sorted) → its block's tokens; `None` when the
    /// block does not start where a count can be cut (a path opening with a space).
    blocks: rustc_hash::FxHashMap<(usize, Vec<usize>), Option<usize>>,
}

impl<'a> PartCounts<'a> {
    fn new(
        tok: &'a dyn Tokenizer,
        files: &'a [IndexedFile],
        head: &str,
        plan: &'a Plan,
    ) -> Option<PartCounts<'a>> {
        tok.adds_up_at_line_starts().then(|| PartCounts {
            tok,
            files,
            plan,
            head: tok.count(head),
            headed: tok.count(&format!("{head}## Symbols ({})\n\n", plan.heading)),
            blocks: Default::default(),
        })
    }

    /// The tokens of `compose(head, files, plan, chosen)`'s text, unless a block's start forbids the sum.
    fn count(&mut self, chosen: &[(usize, usize, f64)]) -> Option<usize> {
        if chosen.is_empty() {
            return Some(self.head);
        }
        let mut by_file: rustc_hash::FxHashMap<usize, Vec<usize>> = Default::default();
        for &(f, d, _) in chosen {
            let defs = by_file.entry(f).or_default();
            if d != PATH_ONLY {
                defs.push(d);
            }
        }
        let mut total = self.headed;
        for (f, mut defs) in by_file {
            defs.sort_unstable();
            defs.dedup();
            let (tok, files, plan) = (self.tok, self.files, self.plan);
            let tokens = *self.blocks.entry((f, defs)).or_insert_with_key(|(f, defs)| {
                let mut block = String::new();
                write_block(&mut block, plan, &files[*f], *f, defs);
                block.starts_with(|c: char| !c.is_whitespace() && c != '/').then(|| tok.count(&block))
            });
            total += tokens?;
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::python_file as indexed;
    use ctxkeep_core::tokens::O200k;

    #[test]
    fn a_cut_tree_keeps_every_top_folder_and_says_what_it_left_out() {
        use ctxkeep_core::structure::TreeEntry;
        let entry =
            |path: &str, files: usize| TreeEntry { path: path.into(), depth: path.split('/').count(), files };
        let mut tree = vec![entry("docs", 3), entry("examples", 60)];
        tree.extend((0..30).map(|i| entry(&format!("examples/e{i:02}"), if i == 17 { 9 } else { 2 })));
        tree.extend([entry("src", 40), entry("src/a", 30), entry("src/b", 10)]);
        let hidden = trim_tree(&mut tree, 12);
        let paths: Vec<&str> = tree.iter().map(|t| t.path.as_str()).collect();
        // Three tops, then as many subfolders of each as fit: seven (src has two),
        // the largest first, shown in path order.
        let examples = ["e00", "e01", "e02", "e03", "e04", "e05", "e17"].map(|e| format!("examples/{e}"));
        let mut expected = vec!["docs", "examples"];
        expected.extend(examples.iter().map(String::as_str));
        expected.extend(["src", "src/a", "src/b"]);
        assert_eq!(paths, expected);
        assert_eq!(hidden.get("examples"), Some(&23));
        assert_eq!(hidden.get("src"), None);
        let structure = Structure { tree, ..Default::default() };
        let text = render_structure(&structure, &hidden);
        assert!(text.contains("    e17/ (9)\n    … 23 more folders\n  src/ (40)\n"), "{text}");
        assert_eq!(text.matches("more folder").count(), 1, "{text}");
        // The code's folder before a larger one of tests.
        let mut crate_tree =
            vec![entry("minijinja", 542), entry("minijinja/tests", 495), entry("minijinja/src", 40)];
        crate_tree.extend((0..3).map(|i| entry(&format!("docs{i}"), 1)));
        trim_tree(&mut crate_tree, 5);
        assert!(crate_tree.iter().any(|t| t.path == "minijinja/src"), "{crate_tree:?}");
        // A tree within the limit is left whole.
        let mut small = vec![entry("a", 1), entry("a/b", 1)];
        assert!(trim_tree(&mut small, 12).is_empty() && small.len() == 2);
    }

    #[test]
    fn a_family_of_constants_is_named_on_one_line_after_its_first() {
        // arrow's formatter.py: eleven `FORMAT_*` lines took a map's room.
        let source = "FORMAT_ATOM: str = \"YYYY-MM-DD\"\nFORMAT_COOKIE: str = \"dddd\"\nFORMAT_RFC822: str = \"ddd\"\n\
                      FORMAT_RSS: str = \"ddd, DD\"\n\nclass DateTimeFormatter:\n    pass\n\n\
                      MAX_WIDTH = 10\nMAX_HEIGHT = 20\nMIN_WIDTH = 1\nMIN_HEIGHT = 2\nMAX_DEPTH = 3\n";
        let file = indexed("arrow/formatter.py", source);
        let plan = Plan {
            order: Vec::new(),
            file_rank: vec![1.0],
            heading: "",
            task: false,
            widened: Default::default(),
        };
        let all: Vec<usize> = (0..file.tags.defs.len()).collect();
        let mut block = String::new();
        write_block(&mut block, &plan, &file, 0, &all);
        assert_eq!(
            block,
            "arrow/formatter.py:\n1│ FORMAT_ATOM: str = \"YYYY-MM-DD\"\n│ FORMAT_COOKIE, FORMAT_RFC822, FORMAT_RSS\n\
             6│ class DateTimeFormatter:\n9│ MAX_WIDTH = 10\n10│ MAX_HEIGHT = 20\n11│ MIN_WIDTH = 1\n\
             12│ MIN_HEIGHT = 2\n13│ MAX_DEPTH = 3\n\n"
        );
        // Three of a family are each on their line.
        let some = [0, 1, 2];
        let mut block = String::new();
        write_block(&mut block, &plan, &file, 0, &some);
        assert_eq!(block.lines().filter(|l| l.contains("│ FORMAT_")).count(), 3, "{block}");
    }

    #[test]
    fn a_mod_tests_counts_its_test_functions_not_what_it_holds_besides() {
        // indicatif's lib.rs: a `mod tests` of a trait, its impls and one test was "(10 tests)".
        let lib = "pub struct Bar;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    trait MustBeThreadSafe {}\n    \
                   impl MustBeThreadSafe for Bar {}\n    impl MustBeThreadSafe for u8 {}\n    #[test]\n    \
                   fn bar_is_safe() {\n        fn inner() {}\n    }\n}\n";
        let file = IndexedFile::parsed("src/lib.rs", crate::lang::Lang::Rust, lib);
        let defs = &file.tags.defs;
        let tests: Vec<&str> =
            defs.iter().filter(|d| is_test_function(d, defs)).map(|d| d.name.as_str()).collect();
        assert_eq!(tests, ["bar_is_safe"]);
        assert_eq!(nothing_shown(&file), " (1 test)");
    }

    #[test]
    fn a_file_shown_without_definitions_claims_none_only_where_it_was_parsed() {
        let parsed = IndexedFile::parsed("setup.py", crate::lang::Lang::Python, "setup()\n");
        assert_eq!(nothing_shown(&parsed), " (no definitions)");
        let scanned = IndexedFile { lang: "shell".into(), ..parsed.clone() };
        assert_eq!(nothing_shown(&scanned), "");
        let fixture = IndexedFile { path: "tests/fixtures/data.py".into(), ..parsed };
        assert_eq!(nothing_shown(&fixture), " (test data)");
        let hub = "mod gai;\nmod resolve;\npub use self::resolve::{Addrs, Name, Resolve};\npub(crate) use self::gai::Gai;\n";
        let hub = IndexedFile::parsed("src/dns/mod.rs", crate::lang::Lang::Rust, hub);
        assert_eq!(nothing_shown(&hub), " (passes on Addrs, Name, Resolve)");
        // By the name its users import (rand's `rngs/mod.rs`).
        let renamed = "pub use getrandom::{Error as SysError, SysRng};\n";
        let renamed = IndexedFile::parsed("src/rngs/mod.rs", crate::lang::Lang::Rust, renamed);
        assert_eq!(nothing_shown(&renamed), " (passes on SysError, SysRng)");
    }

    #[test]
    fn a_task_s_map_keeps_one_command_of_each_purpose_and_no_tree() {
        use ctxkeep_core::structure::{Command, TreeEntry};
        let command = |purpose: &str, command: &str| Command {
            purpose: purpose.into(),
            command: command.into(),
            source: "Makefile".into(),
        };
        let structure = Structure {
            stack: vec!["Rust (Cargo.toml)".into()],
            commands: vec![
                command("test", "cargo test"),
                command("test", "make run-tests"),
                command("lint", "cargo clippy"),
            ],
            key_files: vec!["README.md".into()],
            tree: vec![TreeEntry { path: "src".into(), depth: 1, files: 3 }],
        };
        let files = vec![indexed("pkg/app.py", "def run():\n    pass\n")];
        let map_for = |task: bool| {
            let plan = Plan {
                order: vec![(0, 0, 1.0)],
                file_rank: vec![1.0],
                heading: "",
                task,
                widened: Default::default(),
            };
            render(&files, &plan, structure.clone(), 2000, &O200k, IndexStats::default()).text
        };
        let task = map_for(true);
        assert!(task.contains("- test: `cargo test`") && task.contains("- lint: `cargo clippy`"), "{task}");
        assert!(
            !task.contains("make run-tests") && !task.contains("Tree:") && !task.contains("Key files"),
            "{task}"
        );
        let overview = map_for(false);
        assert!(overview.contains("make run-tests") && overview.contains("Tree:"), "{overview}");
    }

    #[test]
    fn counts_by_parts_are_the_whole_texts_counts() {
        let files = vec![
            indexed(
                "pkg/app.py",
                "class App:\n    def run(self):\n        pass\n\n    def stop(self, now=True):\n        pass\n",
            ),
            indexed("pkg/util.py", "def helper(\n    a,\n    b,\n):\n    return a\n\nX = 1\n"),
            indexed("pkg/__init__.py", "from .app import App\n"),
            indexed(" odd/start.py", "def spaced():\n    pass\n"),
        ];
        let mut order = vec![(2, PATH_ONLY, 1.0)];
        for (f, file) in files.iter().enumerate() {
            order.extend((0..file.tags.defs.len()).map(|d| (f, d, 0.5)));
        }
        let plan = Plan {
            order,
            file_rank: vec![0.25; 4],
            heading: "most relevant to the task first",
            task: true,
            widened: Default::default(),
        };
        let head = "# Repository map\n\nStack: Python\n\n";
        let mut parts = PartCounts::new(&O200k, &files, head, &plan).unwrap();
        for end in 0..=plan.order.len() {
            let chosen = &plan.order[..end];
            let whole = O200k.count(&compose(head, &files, &plan, chosen).0);
            let odd = chosen.iter().any(|&(f, _, _)| f == 3);
            assert_eq!(parts.count(chosen), (!odd).then_some(whole), "{end}");
        }
        // Any subset, in any order.
        let some: Vec<_> = plan.order.iter().rev().step_by(2).copied().filter(|&(f, _, _)| f != 3).collect();
        assert_eq!(parts.count(&some), Some(O200k.count(&compose(head, &files, &plan, &some).0)));
        assert!(PartCounts::new(&ctxkeep_core::tokens::CharEstimate, &files, head, &plan).is_none());
    }
}
