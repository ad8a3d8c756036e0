//! What a context file says, before it is rendered: the store read once into
//! a `Tree`, and one [`ContextDoc`] per folder and tier assembled from it.
//!
//! The doc is what templates see, what `ctx context --format json` prints,
//! and (for the deep tier, which holds every input) what the source hash is
//! computed from: anything a context file can show is in the doc, so the hash
//! changes exactly when some tier's file would.

use rusqlite::Connection;
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;

use super::code_below::{CodeBelow, code_below};
use super::names::Tier;
use crate::error::Result;
use crate::paths::{self, ROOT};
use crate::sources::{Outline, OutlineDef, stored_outlines};
use crate::structure::Command;

/// How much a tier shows: larger tiers show more of the code and more of
/// the folder's history, not just more room.
struct Shown {
    /// Definitions per file, most important first.
    definitions: usize,
    /// Definitions in all, where the folder's files have room for more than
    /// `definitions` each (a folder of six files shows its 2,800-line
    /// `command.js` by more than six methods), and at most per file then.
    folder_definitions: usize,
    most_definitions: usize,
    /// Decisions per window: the focus folder's newest, and each ancestor scope's.
    current_decisions: usize,
    ancestor_decisions: usize,
    /// A file's summary: its first sentence, or all of it.
    whole_summaries: bool,
    /// Definitions named per subfolder, from the code below it.
    code_below: usize,
}

fn shown(tier: Tier) -> Shown {
    let (definitions, current_decisions, ancestor_decisions) = match tier {
        // The minimal tier shows no decisions: only the pinned ones, in larger tiers.
        Tier::Minimal => (1, 0, 0),
        Tier::Standard => (6, 5, 2),
        Tier::Full => (8, 12, 5),
        Tier::Deep => (usize::MAX, usize::MAX, usize::MAX),
    };
    let (folder_definitions, most_definitions) = match tier {
        Tier::Minimal => (0, 1),
        Tier::Standard => (60, 12),
        Tier::Full => (120, 20),
        Tier::Deep => (usize::MAX, usize::MAX),
    };
    let whole_summaries = matches!(tier, Tier::Full | Tier::Deep);
    let code_below = match tier {
        Tier::Minimal => 3,
        Tier::Standard => 4,
        Tier::Full => 6,
        Tier::Deep => super::code_below::MAX_CODE_BELOW,
    };
    Shown {
        definitions,
        folder_definitions,
        most_definitions,
        current_decisions,
        ancestor_decisions,
        whole_summaries,
        code_below,
    }
}
/// Tags whose decisions are shown from anywhere on the scope chain.
const ALWAYS_SHOWN_TAGS: [&str; 2] = ["architectural", "breaking"];

/// Most sibling folders named, the nearest to the focus by name: a folder
/// among 1,500 siblings does not list them all in each of its files.
const MAX_SIBLINGS: usize = 40;

/// Longest rationale the standard tier shows (the full tier shows it all).
const STANDARD_RATIONALE_CHARS: usize = 200;

/// The store's folders, files, relations and decisions, read in one transaction.
pub(crate) struct Tree {
    pub folders: Vec<FolderData>,
    pub index: HashMap<String, usize>,
    /// The project's stack and commands, shown in the root's files (empty until set).
    pub project: Project,
    /// The agent files (`agents.files`) holding nothing but ctx's section, which
    /// no context file lists (none until set).
    pub ctx_only_files: rustc_hash::FxHashSet<String>,
}

/// In how many of a folder's files a definition written alike (the same
/// one-line signature) is their boilerplate.
const BOILERPLATE_FILES: usize = 3;

pub(crate) struct FolderData {
    /// The node's id and revision (which moves whenever it is marked stale).
    pub id: i64,
    pub rev: i64,
    pub path: String,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub description: String,
    pub content_md: String,
    pub is_scope: bool,
    /// A person or agent wrote the description or content.
    pub described: bool,
    pub files: Vec<FileData>,
    /// Related folders (index) with the relation's note.
    pub related: Vec<(usize, String)>,
    /// Newest first.
    pub decisions: Vec<DecisionData>,
    /// Files in this folder and every folder below it.
    pub files_below: usize,
    /// blake3 over the names and contents of everything below: changes when any file below does.
    pub tree_digest: [u8; 32],
    /// What the folder is about as shown (see [`Tree::describe`]), and where that came from.
    pub shown_description: String,
    pub description_source: String,
    /// The code below it its parent's context names (see [`code_below`]).
    pub code_below: Vec<CodeBelow>,
}

pub(crate) struct FileData {
    pub name: String,
    pub size: u64,
    pub kind: String,
    pub lang: Option<String>,
    pub secret: bool,
    pub summary: Option<String>,
    pub hash: Option<Vec<u8>>,
    /// Made by the map from this very content; `None`: never indexed, or changed since.
    pub outline: Option<Outline>,
}

#[derive(Clone)]
pub(crate) struct DecisionData {
    pub id: String,
    pub title: String,
    pub rationale: String,
    pub tags: Vec<String>,
    pub ts: String,
}

impl Tree {
    /// Read the whole tree, with the outlines of every file or of those below
    /// the folder `outlines_below` (whose context then is whole: it shows no
    /// code from outside). Call inside a read transaction.
    pub fn load(conn: &Connection, outlines_below: Option<&str>) -> Result<Tree> {
        let mut folders = Vec::new();
        let mut index = HashMap::default();
        let mut ids: HashMap<i64, usize> = HashMap::default();
        let mut parent_ids = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT id, parent_id, path, description, content_md, is_scope, described_at IS NOT NULL, rev
             FROM nodes WHERE kind = 'folder' ORDER BY path",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let path: String = row.get(2)?;
            let id = row.get(0)?;
            ids.insert(id, folders.len());
            index.insert(path.clone(), folders.len());
            parent_ids.push(row.get::<_, Option<i64>>(1)?);
            folders.push(FolderData {
                id,
                rev: row.get(7)?,
                path,
                parent: None,
                children: Vec::new(),
                description: row.get(3)?,
                content_md: row.get(4)?,
                is_scope: row.get(5)?,
                described: row.get(6)?,
                files: Vec::new(),
                related: Vec::new(),
                decisions: Vec::new(),
                files_below: 0,
                tree_digest: [0; 32],
                shown_description: String::new(),
                description_source: String::new(),
                code_below: Vec::new(),
            });
        }
        for (i, parent_id) in parent_ids.into_iter().enumerate() {
            let parent = parent_id.and_then(|id| ids.get(&id).copied());
            folders[i].parent = parent;
            if let Some(parent) = parent {
                folders[parent].children.push(i);
            }
        }

        let mut outlines = stored_outlines(conn, outlines_below.filter(|&key| key != ROOT))?;
        let mut stmt = conn.prepare(
            "SELECT folder_id, path, size, kind, lang, secret IS NOT NULL, summary, hash FROM files ORDER BY path",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let Some(&folder) = ids.get(&row.get::<_, i64>(0)?) else { continue };
            let path = row.get_ref(1)?.as_str().unwrap_or_default();
            let hash: Option<Vec<u8>> = row.get(7)?;
            let outline = outlines.remove(path).filter(|o| hash.as_deref() == Some(&o.hash[..]));
            folders[folder].files.push(FileData {
                name: paths::name(path).to_string(),
                size: row.get::<_, i64>(2)? as u64,
                kind: row.get(3)?,
                lang: row.get(4)?,
                secret: row.get(5)?,
                summary: row.get(6)?,
                hash,
                outline,
            });
        }

        let mut stmt = conn.prepare(
            "SELECT from_id, to_id, note FROM links WHERE kind = 'related' ORDER BY from_id, to_id",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let from = ids.get(&row.get::<_, i64>(0)?).copied();
            let to = ids.get(&row.get::<_, i64>(1)?).copied();
            if let (Some(from), Some(to)) = (from, to) {
                folders[from].related.push((to, row.get(2)?));
            }
        }
        for folder in &mut folders {
            folder.related.sort_by_key(|(to, _)| *to);
        }

        let mut stmt = conn.prepare(
            "SELECT node_id, uid, title, body, tags, ts FROM records
             WHERE type = 'decision' AND node_id IS NOT NULL ORDER BY ts DESC, id DESC",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let Some(&folder) = ids.get(&row.get::<_, i64>(0)?) else { continue };
            let tags: String = row.get(4)?;
            folders[folder].decisions.push(DecisionData {
                id: row.get(1)?,
                title: row.get(2)?,
                rationale: row.get(3)?,
                tags: tags.split_whitespace().map(str::to_string).collect(),
                ts: row.get(5)?,
            });
        }

        let mut tree =
            Tree { folders, index, project: Project::default(), ctx_only_files: Default::default() };
        tree.compute_digests();
        let below = code_below(&tree.folders);
        for (folder, code) in tree.folders.iter_mut().zip(below) {
            folder.code_below = code;
        }
        let described: Vec<(String, String)> = (0..tree.folders.len()).map(|i| tree.describe(i)).collect();
        for (folder, (text, source)) in tree.folders.iter_mut().zip(described) {
            folder.shown_description = text;
            folder.description_source = source;
        }
        Ok(tree)
    }

    /// Folder digests and file counts, children before parents.
    fn compute_digests(&mut self) {
        let mut order: Vec<usize> = (0..self.folders.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(paths::depth(&self.folders[i].path)));
        for i in order {
            let mut hasher = blake3::Hasher::new();
            let mut below = self.folders[i].files.len();
            for file in &self.folders[i].files {
                hasher.update(file.name.as_bytes()).update(b"\0").update(file.kind.as_bytes());
                match &file.hash {
                    Some(hash) => hasher.update(hash),
                    None => hasher.update(&file.size.to_le_bytes()),
                };
            }
            for &child in &self.folders[i].children {
                let child = &self.folders[child];
                below += child.files_below;
                hasher.update(b"\x01").update(child.path.as_bytes()).update(&child.tree_digest);
            }
            let folder = &mut self.folders[i];
            folder.files_below = below;
            folder.tree_digest = *hasher.finalize().as_bytes();
        }
    }

    pub fn get(&self, key: &str) -> Option<usize> {
        self.index.get(key).copied()
    }

    /// The paths of the files whose content may be read and shown (text, no secret).
    pub fn readable_paths(&self) -> Vec<String> {
        let mut out = Vec::new();
        for folder in &self.folders {
            for file in folder.files.iter().filter(|f| f.kind == "text" && !f.secret) {
                out.push(paths::join(&folder.path, &file.name));
            }
        }
        out
    }

    /// The ancestors of folder `i`, root first.
    fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut at = self.folders[i].parent;
        while let Some(parent) = at {
            chain.push(parent);
            at = self.folders[parent].parent;
        }
        chain.reverse();
        chain
    }
}

/// The title of a folder as shown: `/src/auth`, or `/` for the root.
pub(crate) fn display_path(key: &str) -> String {
    if key == ROOT { "/".to_string() } else { format!("/{key}") }
}

/// Everything one context file holds. Stable JSON (`ctx context --format json`).
#[derive(Debug, Clone, Serialize)]
pub struct ContextDoc {
    /// The folder key (`src/auth`, `.` for the root).
    pub path: String,
    /// As shown: `/src/auth`, `/`.
    pub title: String,
    pub tier: Tier,
    pub generated_at: String,
    /// Hash of every input of this folder's context files (all tiers share it).
    pub source_hash: String,
    /// Hash of the names and contents of every file below the folder.
    pub tree_digest: String,
    /// The token cap of the tier; `None`: unlimited.
    pub cap: Option<usize>,
    pub tokenizer: String,
    /// The project's long-form context (the root's); absent in the root's own
    /// file, in the minimal tier, and when nobody has written it.
    pub boot: Option<Boot>,
    /// The root and every ancestor scope (every ancestor in the deep tier), root first.
    pub scope_chain: Vec<ScopeEntry>,
    pub current: Current,
    /// The project's stack and commands: the root's files only, when any are known.
    pub project: Option<Project>,
    pub files: Vec<FileLine>,
    pub subfolders: Vec<SubfolderLine>,
    pub decisions: Vec<DecisionGroup>,
    pub navigation: Navigation,
    /// What was left out to fit the cap, one line each.
    pub omitted: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Boot {
    /// The root folder's long-form context.
    pub content: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ScopeEntry {
    pub path: String,
    pub title: String,
    pub description: String,
    pub is_scope: bool,
    /// Full content: deep tier only.
    pub content: String,
}

/// What the project is built with, and the commands that build, test and
/// lint it, from its manifests ([`crate::structure`]).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Project {
    pub stack: Vec<String>,
    pub commands: Vec<Command>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Current {
    pub description: String,
    /// `written`, the file it was derived from (`README.md`), or `summary`.
    pub description_source: String,
    pub content: String,
    pub is_scope: bool,
    pub files_below: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileLine {
    pub name: String,
    pub summary: String,
    pub lang: Option<String>,
    pub kind: String,
    pub size: u64,
    /// Shown with the size and language (full and deep tiers).
    pub detailed: bool,
    /// Looks like a secret: listed by name, its content never shown.
    pub secret: bool,
    /// Its most important definitions, most important first (as many as the
    /// tier shows); empty when the map never indexed this content.
    pub definitions: Vec<OutlineDef>,
    /// How many other files use a name it defines (0 when the map never indexed it):
    /// what a tier cut to fit keeps first.
    pub referenced_by: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct SubfolderLine {
    pub name: String,
    pub path: String,
    pub description: String,
    /// The description is a mechanical summary of what the folder holds.
    pub is_summary: bool,
    pub files_below: usize,
    /// The code below it worth naming, the most depended-on first (as many as the tier shows).
    pub code: Vec<CodeBelow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DecisionGroup {
    pub label: String,
    /// The focus folder's own decisions (the others are its ancestors' and the pinned ones).
    pub is_current: bool,
    /// The architectural and breaking decisions of the whole chain that the
    /// windows above left out: cut last when a tier runs out of room.
    pub is_pinned: bool,
    pub entries: Vec<DecisionLine>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DecisionLine {
    pub id: String,
    pub date: String,
    pub folder: String,
    pub title: String,
    pub rationale: String,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Navigation {
    pub parent: Option<NavLink>,
    /// Names of sibling folders, at most 40 (those nearest this one by name).
    pub siblings: Vec<String>,
    /// Siblings beyond those named.
    pub siblings_unlisted: usize,
    /// Names of subfolders.
    pub children: Vec<String>,
    pub related: Vec<NavLink>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NavLink {
    pub path: String,
    pub title: String,
    pub description: String,
    /// Why it is related (related scopes only).
    pub note: String,
}

/// Assemble the doc of folder `i` at `tier` (before any budget is applied).
pub(crate) fn assemble(tree: &Tree, i: usize, tier: Tier) -> ContextDoc {
    let folder = &tree.folders[i];
    let ancestors = tree.ancestors(i);
    let root = ancestors.first().copied();
    let deep = tier == Tier::Deep;
    let minimal = tier == Tier::Minimal;
    let shown = shown(tier);

    // The root's one-line description heads the scope chain; its long
    // context is the project boot.
    let boot = root
        .filter(|&root| !minimal && !tree.folders[root].content_md.is_empty())
        .map(|root| Boot { content: nest_headings(&tree.folders[root].content_md, 3) });
    let scope_chain = ancestors
        .iter()
        .filter(|&&a| deep || Some(a) == root || tree.folders[a].is_scope)
        .map(|&a| {
            let f = &tree.folders[a];
            ScopeEntry {
                path: f.path.clone(),
                title: display_path(&f.path),
                description: f.shown_description.clone(),
                is_scope: f.is_scope,
                content: if deep { nest_headings(&f.content_md, 4) } else { String::new() },
            }
        })
        .collect();
    let current = Current {
        description: folder.shown_description.clone(),
        description_source: folder.description_source.clone(),
        content: if minimal { String::new() } else { nest_headings(&folder.content_md, 3) },
        is_scope: folder.is_scope,
        files_below: folder.files_below,
    };
    // A test beside the code it tests (Hono's `request.test.ts` in `src/`) comes after
    // the code, and below the full tier without its definitions: `const text =
    // '{"foo":"bar"}'` is a test's data, not the folder's code. A folder of tests is
    // what its tests are, and a file named as tests that other files use is code
    // (jinja's `tests.py`, the templates' `is` tests).
    let tests_aside = paths::PathRole::of(&folder.path) != paths::PathRole::Test;
    let beside_code = |name: &str, referenced_by: u32| {
        tests_aside
            && referenced_by == 0
            && paths::PathRole::of(&paths::join(&folder.path, name)) == paths::PathRole::Test
    };
    let detailed = matches!(tier, Tier::Full | Tier::Deep);
    // An agent file (AGENTS.md, CLAUDE.md, any of `agents.files`) with nothing outside
    // ctx's section: the agent reads it already, and ctx wrote it.
    let only_ctx_s = |f: &FileData| tree.ctx_only_files.contains(&paths::join(&folder.path, &f.name));
    let files = folder
        .files
        .iter()
        .filter(|f| !only_ctx_s(f))
        .map(|f| FileLine {
            name: f.name.clone(),
            summary: match f.summary.as_deref() {
                // A tool's notice whole: what wrote the file follows its first sentence
                // ("DO NOT EDIT THIS FILE. IT WAS AUTOMATICALLY GENERATED BY: ucd-generate …").
                Some(summary)
                    if !minimal
                        && !f.secret
                        && (shown.whole_summaries || crate::scan::says_generated(summary)) =>
                {
                    summary.to_string()
                }
                Some(summary) if !minimal && !f.secret => first_sentence(summary).to_string(),
                _ => String::new(),
            },
            lang: f.lang.clone(),
            kind: f.kind.clone(),
            size: f.size,
            detailed,
            secret: f.secret,
            // A generated file says so, which is what an agent needs of it: its
            // definitions (fastify's `const schema11 = {…}`) are a build's, not to edit.
            definitions: f
                .outline
                .iter()
                .filter(|_| !f.summary.as_deref().is_some_and(crate::scan::says_generated))
                .filter(|o| detailed || !beside_code(&f.name, o.referenced_by))
                .flat_map(|o| o.defs.iter().cloned())
                .collect(),
            referenced_by: f.outline.as_ref().map_or(0, |o| o.referenced_by),
        })
        .collect::<Vec<_>>();
    // A line written alike in several of the folder's files is their boilerplate, not
    // what any of them is (pino's tests' `const hostname = os.hostname()` seven times,
    // tracing's examples' thirty-one `fn main()`): it goes from all of them.
    let mut files = files;
    // (A method is written in its class: `pub fn new() -> Self` of three types is no boilerplate.
    // Nor is a type: structlog's `class BoundLogger(BoundLoggerBase):` in three modules is
    // three loggers.)
    let line = |d: &OutlineDef| (d.signature.clone(), d.parent.clone());
    let is_type =
        |d: &&OutlineDef| matches!(d.kind.as_str(), "class" | "struct" | "enum" | "trait" | "interface");
    let mut written: HashMap<(String, Option<String>), usize> = HashMap::default();
    for file in &files {
        let mut seen = rustc_hash::FxHashSet::default();
        let candidates = file.definitions.iter().filter(|d| !is_type(d)).map(line);
        for key in candidates.filter(|key| seen.insert(key.clone())) {
            *written.entry(key).or_default() += 1;
        }
    }
    written.retain(|_, n| *n >= BOILERPLATE_FILES);
    // Counted over every definition the files' outlines hold, then each file keeps its
    // tier's first: the same lines go in every tier, and a larger tier shows all a smaller
    // one does (koa's deep tier had dropped `toJSON ()`, which only its deeper lists repeated).
    for file in &mut files {
        if !written.is_empty() {
            file.definitions.retain(|d| !written.contains_key(&line(d)));
        }
    }
    // Each file its tier's first few, and the room left in the folder's share to the
    // files with more, a definition at a time: the larger tier's lists hold the smaller's.
    let with_any = files.iter().filter(|f| !f.definitions.is_empty()).count();
    let total = (shown.definitions.saturating_mul(with_any)).max(shown.folder_definitions);
    let counts: Vec<(usize, u32)> = files.iter().map(|f| (f.definitions.len(), f.referenced_by)).collect();
    let shares = super::fit::definition_shares(&counts, with_any, total.saturating_sub(with_any));
    for (file, share) in files.iter_mut().zip(shares) {
        file.definitions.truncate(share.min(shown.most_definitions));
    }
    // The code first (`fastify.js` before `CONTRIBUTING.md` and `.editorconfig`):
    // what an agent opens a folder's context for.
    files.sort_by_key(|f| (beside_code(&f.name, f.referenced_by), f.definitions.is_empty()));
    let project = (folder.parent.is_none()
        && (!tree.project.stack.is_empty() || !tree.project.commands.is_empty()))
    .then(|| tree.project.clone());
    let subfolders = folder
        .children
        .iter()
        .map(|&c| SubfolderLine {
            name: paths::name(&tree.folders[c].path).to_string(),
            path: tree.folders[c].path.clone(),
            description: tree.folders[c].shown_description.clone(),
            is_summary: tree.folders[c].description_source == "summary",
            files_below: tree.folders[c].files_below,
            code: tree.folders[c].code_below.iter().take(shown.code_below).cloned().collect(),
        })
        .collect();
    let decisions = if minimal { Vec::new() } else { window_decisions(tree, i, &ancestors, tier, &shown) };
    let nav_link = |j: usize, note: &str| NavLink {
        path: tree.folders[j].path.clone(),
        title: display_path(&tree.folders[j].path),
        description: tree.folders[j].shown_description.clone(),
        note: note.to_string(),
    };
    let (siblings, siblings_unlisted) = match (minimal, folder.parent) {
        (false, Some(parent)) => {
            let all: Vec<usize> = tree.folders[parent].children.iter().copied().filter(|&s| s != i).collect();
            // A window around the focus's place among its siblings (they are sorted by path).
            let at = all.partition_point(|&s| tree.folders[s].path < folder.path);
            let start = at.saturating_sub(MAX_SIBLINGS / 2).min(all.len().saturating_sub(MAX_SIBLINGS));
            let shown = &all[start..all.len().min(start + MAX_SIBLINGS)];
            let names = shown.iter().map(|&s| paths::name(&tree.folders[s].path).to_string()).collect();
            (names, all.len() - shown.len())
        }
        _ => (Vec::new(), 0),
    };
    let navigation = Navigation {
        parent: folder.parent.map(|p| nav_link(p, "")),
        siblings,
        siblings_unlisted,
        children: folder.children.iter().map(|&c| paths::name(&tree.folders[c].path).to_string()).collect(),
        related: folder.related.iter().map(|(j, note)| nav_link(*j, note)).collect(),
    };
    ContextDoc {
        path: folder.path.clone(),
        title: display_path(&folder.path),
        tier,
        generated_at: String::new(),
        source_hash: String::new(),
        tree_digest: blake3::Hash::from(folder.tree_digest).to_hex()[..16].to_string(),
        cap: tier.cap(),
        tokenizer: String::new(),
        boot,
        scope_chain,
        current,
        project,
        files,
        subfolders,
        decisions,
        navigation,
        omitted: Vec::new(),
    }
}

/// The decisions a tier shows: the focus folder's newest few, each ancestor
/// scope's newest few (more as the tier grows, see [`shown`]), and every
/// architectural or breaking one on the chain. The deep tier shows every
/// decision on the chain.
fn window_decisions(
    tree: &Tree,
    i: usize,
    ancestors: &[usize],
    tier: Tier,
    shown: &Shown,
) -> Vec<DecisionGroup> {
    let deep = tier == Tier::Deep;
    let line = |folder: usize, d: &DecisionData| DecisionLine {
        id: d.id.clone(),
        date: d.ts.get(..10).unwrap_or(&d.ts).to_string(),
        folder: display_path(&tree.folders[folder].path),
        title: d.title.clone(),
        rationale: match tier {
            Tier::Standard => {
                clip_chars(d.rationale.lines().next().unwrap_or_default(), STANDARD_RATIONALE_CHARS)
            }
            _ => d.rationale.clone(),
        },
        tags: d.tags.clone(),
    };
    let mut groups = Vec::new();
    let mut group = |label: String, folder: usize, take: usize| {
        let entries: Vec<DecisionLine> =
            tree.folders[folder].decisions.iter().take(take).map(|d| line(folder, d)).collect();
        if !entries.is_empty() {
            groups.push(DecisionGroup { label, is_current: folder == i, is_pinned: false, entries });
        }
    };
    group(format!("This folder ({})", display_path(&tree.folders[i].path)), i, shown.current_decisions);
    for &a in ancestors.iter().rev() {
        let f = &tree.folders[a];
        let is_chain_scope = f.is_scope || f.parent.is_none();
        if deep || is_chain_scope {
            group(
                format!("{} ({})", scope_label(tree, i, a), display_path(&f.path)),
                a,
                shown.ancestor_decisions,
            );
        }
    }
    if !deep {
        // Every architectural or breaking decision on the chain not shown above.
        let in_groups: Vec<String> =
            groups.iter().flat_map(|g| g.entries.iter().map(|e| e.id.clone())).collect();
        let mut entries = Vec::new();
        for &f in std::iter::once(&i).chain(ancestors.iter().rev()) {
            for d in &tree.folders[f].decisions {
                let pinned = d.tags.iter().any(|t| ALWAYS_SHOWN_TAGS.contains(&t.as_str()));
                if pinned && !in_groups.contains(&d.id) {
                    entries.push(line(f, d));
                }
            }
        }
        entries.sort_by(|a, b| b.date.cmp(&a.date));
        if !entries.is_empty() {
            let label = "Architectural and breaking (whole chain)".into();
            groups.push(DecisionGroup { label, is_current: false, is_pinned: true, entries });
        }
    }
    groups
}

fn scope_label(tree: &Tree, focus: usize, ancestor: usize) -> &'static str {
    if tree.folders[ancestor].parent.is_none() {
        "Root"
    } else if tree.folders[focus].parent == Some(ancestor) {
        "Parent"
    } else if tree.folders[ancestor].is_scope {
        "Ancestor scope"
    } else {
        "Ancestor"
    }
}

/// `markdown`, trimmed, with its `#` headings shifted so the biggest is level
/// `top` (at most 6): written content sits under the file's own `##` headings.
/// Lines inside code fences are left alone.
fn nest_headings(markdown: &str, top: usize) -> String {
    let markdown = markdown.trim();
    let level = |line: &str| {
        let hashes = line.len() - line.trim_start_matches('#').len();
        (hashes > 0 && hashes <= 6 && line[hashes..].starts_with(' ')).then_some(hashes)
    };
    let mut in_fence = false;
    let mut headings = Vec::new();
    for (i, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            in_fence = !in_fence;
        } else if !in_fence && let Some(n) = level(line) {
            headings.push((i, n));
        }
    }
    let Some(biggest) = headings.iter().map(|&(_, n)| n).min() else {
        return markdown.to_string();
    };
    if biggest >= top {
        return markdown.to_string();
    }
    let shift = top - biggest;
    let mut out = String::with_capacity(markdown.len() + headings.len() * shift);
    let mut next = headings.iter().peekable();
    for (i, line) in markdown.lines().enumerate() {
        if let Some(&(_, n)) = next.next_if(|&&(at, _)| at == i) {
            out.push_str(&"#".repeat((n + shift).min(6)));
            out.push_str(&line[n..]);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
}

/// The first sentence of `text`: up to a `.`, `!` or `?` followed by a
/// space and a capital letter, unless what ends there is an abbreviation
/// (`e.g.`, `Dr.`) or an initial, or a sentence of one word, which says
/// little alone ("Simple. Powerful. Fast. Pick three.").
pub(crate) fn first_sentence(text: &str) -> &str {
    const ABBREVIATIONS: [&str; 8] = ["e.g", "i.e", "etc", "vs", "cf", "Mr", "Dr", "Inc"];
    let bytes = text.as_bytes();
    let mut sentence_start = 0;
    for (at, c) in text.char_indices() {
        if !matches!(c, '.' | '!' | '?') || bytes.get(at + 1) != Some(&b' ') {
            continue;
        }
        let next_is_capital = text[at + 2..].chars().next().is_some_and(char::is_uppercase);
        let word = text[..at].rsplit([' ', '(']).next().unwrap_or_default();
        let abbreviation =
            ABBREVIATIONS.iter().any(|a| word.eq_ignore_ascii_case(a)) || word.chars().count() == 1;
        if next_is_capital && !abbreviation {
            if text[sentence_start..at].split_whitespace().nth(1).is_some() {
                return &text[..=at];
            }
            sentence_start = at + 1;
        }
    }
    text
}

pub(crate) fn clip_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_headings_nest_under_the_files_own() {
        let text = "# Title\n\nText\n\n## Part\n```sh\n# a comment, not a heading\n```\n#hashtag\n";
        assert_eq!(
            nest_headings(text, 3),
            "### Title\n\nText\n\n#### Part\n```sh\n# a comment, not a heading\n```\n#hashtag"
        );
        assert_eq!(nest_headings("### Already small\n", 3), "### Already small");
        assert_eq!(nest_headings("# A\n###### F\n", 3), "### A\n###### F");
        assert_eq!(nest_headings("  plain  ", 3), "plain");
    }

    #[test]
    fn first_sentences() {
        assert_eq!(first_sentence("The engine. Owns the store."), "The engine.");
        assert_eq!(first_sentence("Use e.g. Flask or i.e. That. Next."), "Use e.g. Flask or i.e. That.");
        assert_eq!(
            first_sentence("Written by J. Smith in v1.2 for you"),
            "Written by J. Smith in v1.2 for you"
        );
        assert_eq!(first_sentence("What? Yes. And so on. More"), "What? Yes. And so on.");
        assert_eq!(
            first_sentence("Simple. Powerful. Fast. Pick three."),
            "Simple. Powerful. Fast. Pick three."
        );
        assert_eq!(first_sentence("Ends with a dot."), "Ends with a dot.");
    }
}
