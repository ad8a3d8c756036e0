//! The index: every source file's tags, parsed once per content.
//!
//! Scan (so the store knows every file's content hash), take the cached tags
//! of each unchanged content, parse the rest in parallel and cache them. A
//! second run over an unchanged tree parses nothing, in any process.

use std::time::Instant;

use ctxkeep_core::Workspace;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::history::History;
use crate::lang::Lang;
use crate::tags::{self, FileTags, TAGS_VERSION};
use crate::terms::{TaskTerms, task_terms};
use crate::{codec, fallback};

/// A source file and its tags.
#[derive(Debug, Clone)]
pub struct IndexedFile {
    /// Repository-relative, with `/`.
    pub path: String,
    pub lang: String,
    pub size: u64,
    /// The blake3 hash of the content the tags were made from.
    pub hash: [u8; 32],
    pub tags: FileTags,
}

impl IndexedFile {
    /// The names the file defines (functions, types, constants...: what another file can use).
    pub fn defined_names(&self) -> impl Iterator<Item = &str> {
        self.tags.defs.iter().filter(|d| d.kind.defines_name()).map(|d| d.name.as_str())
    }

    /// `source` at `path`, parsed as `lang` (tests build files with it).
    #[cfg(test)]
    pub(crate) fn parsed(path: &str, lang: crate::lang::Lang, source: &str) -> IndexedFile {
        IndexedFile {
            path: path.into(),
            lang: lang.name().into(),
            size: source.len() as u64,
            hash: *blake3::hash(source.as_bytes()).as_bytes(),
            tags: FileTags {
                generated: ctxkeep_core::generated_notice(source),
                ..crate::tags::extract(lang, source).unwrap()
            },
        }
    }
}

/// What indexing did. Stable JSON.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IndexStats {
    /// Source files in the map (a language with a grammar or a line scan).
    pub files: usize,
    /// Files parsed this run (their content was new).
    pub parsed: usize,
    /// Files whose tags came from the cache.
    pub cached: usize,
    /// Files read by the line scan (no grammar here).
    pub line_scanned: usize,
    /// Files whose parse had syntax errors (what parsed is used).
    pub syntax_errors: usize,
    /// Files that could not be read since the scan (vanished, unreadable).
    pub unreadable: usize,
    pub scan_ms: u64,
    pub parse_ms: u64,
}

/// Called with (files done, files to parse) while parsing.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Whether the map reads files of language `lang` (the scan's name): a grammar or a line scan.
pub fn is_mapped(lang: &str) -> bool {
    Lang::from_name(lang).is_some() || fallback::supports(lang)
}

/// The source files the store knows that the map reads.
pub(crate) fn mapped_sources(ws: &Workspace) -> Result<Vec<ctxkeep_core::SourceFile>> {
    Ok(ws.source_files()?.into_iter().filter(|f| f.lang.as_deref().is_some_and(is_mapped)).collect())
}

type TagsCache = HashMap<([u8; 32], String), FileTags>;

/// The cached tags of the contents of `sources`, decoded, and how many
/// cached entries no source uses any more.
fn cached_tags(ws: &Workspace, sources: &[ctxkeep_core::SourceFile]) -> Result<(TagsCache, usize)> {
    let wanted: HashSet<([u8; 32], &str)> =
        sources.iter().map(|s| (s.hash, s.lang.as_deref().unwrap_or_default())).collect();
    let mut unused = 0;
    // Decoding is most of a warm run's time: on the pool's threads, while
    // this one reads the rows that follow.
    let (send, receive) = std::sync::mpsc::channel::<([u8; 32], String, Vec<u8>)>();
    std::thread::scope(|scope| {
        let decoder = scope.spawn(move || -> TagsCache {
            receive
                .into_iter()
                .par_bridge()
                .filter_map(|(hash, lang, data)| codec::decode(&data).map(|tags| ((hash, lang), tags)))
                .collect()
        });
        let read = ws.for_each_cached_tags(TAGS_VERSION, |hash, lang, data| {
            if wanted.contains(&(hash, lang)) {
                // The decoder hangs up only when it is gone: what it misses is parsed again.
                let _ = send.send((hash, lang.to_string(), data.to_vec()));
            } else {
                unused += 1;
            }
        });
        drop(send);
        let cache = decoder.join().unwrap_or_default();
        read.map(|()| (cache, unused))
    })
    .map_err(Error::from)
}

/// The source files as the store knows them, with the cached tags of their
/// contents: no scan, no parse, nothing written; files whose content was
/// never parsed (changed since the last `ctx map`, `ctx rank` or `ctx
/// build`) are left out. What [`refreshed`] falls back to.
pub fn stored(ws: &Workspace) -> Result<Vec<IndexedFile>> {
    let sources = mapped_sources(ws)?;
    let (cache, _) = cached_tags(ws, &sources)?;
    Ok(sources
        .into_iter()
        .filter_map(|s| {
            let lang = s.lang.unwrap_or_default();
            let tags = cache.get(&(s.hash, lang.clone()))?.clone();
            Some(IndexedFile { path: s.path, lang, size: s.size, hash: s.hash, tags })
        })
        .collect())
}

/// The index with what ranking for a task also reads: the counts of the
/// task's terms in every file, and the repository's history.
pub struct Indexed {
    /// Sorted by path.
    pub files: Vec<IndexedFile>,
    pub stats: IndexStats,
    /// The task's terms in `files` (none without a task).
    pub terms: TaskTerms,
    /// The recent commits, if asked for and there is a history.
    pub history: Option<History>,
}

/// [`index`], then the counts of `query`'s terms in every file; the history too when asked for.
pub fn index_for_task(
    ws: &mut Workspace,
    progress: Option<Progress>,
    query: &str,
    history: bool,
) -> Result<Indexed> {
    // From the store unless HEAD moved: `git log` runs once per HEAD.
    let history = history.then(|| History::cached(ws, crate::history::MAX_COMMITS)).flatten();
    let (files, stats) = index(ws, progress)?;
    let terms = crate::inverted::task_counts(ws, &files, task_terms(query))?;
    Ok(Indexed { files, stats, terms, history })
}

/// Keep in the store what a hook ranks with but has no time to make: the
/// words of every content of `files` (a prompt's terms are then counted from
/// postings) and the history at this HEAD. Whatever indexes the whole tree
/// (`ctx init`, `ctx map`, `ctx build`, `ctx watch`) calls it, so the prompt
/// hook of a session after any of them ranks on contents as `ctx rank` does.
/// Only new contents are read; an unchanged tree at the same HEAD costs a
/// read of the stored postings' table and `git rev-parse`. Derived data: a
/// store that cannot be written, or no git, costs the hook these, never the
/// caller its answer.
pub fn keep_for_hooks(ws: &mut Workspace, files: &[IndexedFile]) {
    let _ = crate::inverted::task_counts(ws, files, Vec::new());
    keep_history_for_hooks(ws);
}

/// [`keep_for_hooks`]' history alone, for a caller that knows the contents
/// are those whose words were last kept.
pub fn keep_history_for_hooks(ws: &mut Workspace) {
    History::cached(ws, crate::history::MAX_COMMITS);
}

/// Drop `value` on a thread of its own: freeing the index of a large
/// repository takes milliseconds a caller about to answer (or to exit)
/// need not wait for.
pub(crate) fn drop_in_background<T: Send + 'static>(value: T) {
    // When no thread can be made, `spawn` drops it here.
    let _ = std::thread::Builder::new().name("ctx-drop".into()).spawn(move || drop(value));
}

/// Scan `ws` and return the tags of every source file, sorted by path.
pub fn index(ws: &mut Workspace, progress: Option<Progress>) -> Result<(Vec<IndexedFile>, IndexStats)> {
    let started = Instant::now();
    ws.scan_files()?;
    let scan_ms = started.elapsed().as_millis() as u64;
    let (files, stats) = index_scanned(ws, progress)?;
    Ok((files, IndexStats { scan_ms, ..stats }))
}

/// The tags of every source file the store knows (as the last scan left
/// it), sorted by path: cached ones decoded, the rest parsed and cached.
pub fn index_scanned(
    ws: &mut Workspace,
    progress: Option<Progress>,
) -> Result<(Vec<IndexedFile>, IndexStats)> {
    index_scanned_parsing(ws, progress, usize::MAX)
}

/// The index as fresh as a hook can afford: the tree scanned (one `stat` a
/// file), at most `max_parses` new contents parsed and cached (the rest are
/// left out until the next call, or `ctx map`, `ctx build`, parses them).
/// A store that cannot be scanned into (another writer holds it) gives
/// what it has ([`stored`]).
pub fn refreshed(ws: &mut Workspace, max_parses: usize) -> Result<Vec<IndexedFile>> {
    if ws.scan_files().is_err() {
        return stored(ws);
    }
    match index_scanned_parsing(ws, None, max_parses) {
        Ok((files, _)) => Ok(files),
        Err(_) => stored(ws),
    }
}

/// [`index_scanned`], parsing at most `max_parses` new contents (in path order).
fn index_scanned_parsing(
    ws: &mut Workspace,
    progress: Option<Progress>,
    max_parses: usize,
) -> Result<(Vec<IndexedFile>, IndexStats)> {
    let mut stats = IndexStats::default();
    let started = Instant::now();
    let sources = mapped_sources(ws)?;
    let (mut cache, unused) = cached_tags(ws, &sources)?;
    let mut files: Vec<Option<IndexedFile>> = Vec::with_capacity(sources.len());
    let mut to_parse = Vec::new();
    // Where each cached entry went: a content two files share is decoded once, then copied.
    let mut taken: HashMap<([u8; 32], String), usize> = HashMap::default();
    for source in &sources {
        let lang = source.lang.clone().unwrap_or_default();
        let key = (source.hash, lang.clone());
        let tags = match cache.remove(&key) {
            Some(tags) => {
                taken.insert(key, files.len());
                Some(tags)
            }
            None => taken.get(&key).and_then(|&slot| files[slot].as_ref()).map(|f| f.tags.clone()),
        };
        match tags {
            Some(tags) => {
                stats.cached += 1;
                files.push(Some(IndexedFile {
                    path: source.path.clone(),
                    lang,
                    size: source.size,
                    hash: source.hash,
                    tags,
                }));
            }
            None => {
                to_parse.push((files.len(), source));
                files.push(None);
            }
        }
    }

    // Left unparsed: left out (`files` keeps their `None`).
    to_parse.truncate(max_parses);
    let root = ws.root().to_path_buf();
    let detector = ws.detector();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = to_parse.len();
    // (slot, the content's hash and its file; None if it could not be read)
    type Parsed = (usize, Option<([u8; 32], IndexedFile)>);
    let parsed: Vec<Parsed> = to_parse
        .par_iter()
        .map(|&(slot, source)| {
            // Never through a link out of the workspace the file may have become since the scan.
            let result = ctxkeep_core::read_within(&root, &source.path).ok().map(|bytes| {
                let text = String::from_utf8_lossy(&bytes);
                let lang = source.lang.clone().unwrap_or_default();
                let tags = match Lang::from_name(&lang) {
                    _ if crate::lang::looks_minified(&text) => Ok(FileTags::default()),
                    Some(grammar) => tags::extract(grammar, &text),
                    None => Ok(fallback::extract(&text)),
                };
                // A constant's signature line carries its value: never a secret one,
                // in the map or in the cache.
                let tags = tags.map(|mut tags| {
                    tags.generated = ctxkeep_core::generated_notice(&text);
                    for def in &mut tags.defs {
                        if let std::borrow::Cow::Owned(redacted) =
                            detector.redact_in(&source.path, &def.signature)
                        {
                            def.signature = redacted;
                        }
                    }
                    tags
                });
                // The content read may be newer than the scan's: cache it under its own hash.
                let hash = *blake3::hash(&bytes).as_bytes();
                tags.map(|tags| {
                    let size = bytes.len() as u64;
                    (hash, IndexedFile { path: source.path.clone(), lang, size, hash, tags })
                })
            });
            if let Some(progress) = progress {
                progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total);
            }
            (slot, result.transpose())
        })
        .map(|(slot, result)| result.map(|r| (slot, r)))
        .collect::<std::result::Result<_, String>>()
        .map_err(Error::Tags)?;

    let mut fresh = Vec::new();
    for (slot, result) in parsed {
        match result {
            Some((hash, file)) => {
                stats.parsed += 1;
                fresh.push((hash, file.lang.clone(), codec::encode(&file.tags)));
                files[slot] = Some(file);
            }
            None => stats.unreadable += 1,
        }
    }
    // Write only when there is news: new tags, or cached ones no file uses any more.
    if !fresh.is_empty() || unused > 0 {
        ws.save_tags(TAGS_VERSION, &fresh)?;
    }
    let files: Vec<IndexedFile> = files.into_iter().flatten().collect();
    stats.files = files.len();
    stats.line_scanned = files.iter().filter(|f| Lang::from_name(&f.lang).is_none()).count();
    stats.syntax_errors = files.iter().filter(|f| f.tags.syntax_errors).count();
    stats.parse_ms = started.elapsed().as_millis() as u64;
    Ok((files, stats))
}

/// A Python file of `source` at `path`, its tags extracted: for unit tests.
#[cfg(test)]
pub(crate) fn python_file(path: &str, source: &str) -> IndexedFile {
    IndexedFile::parsed(path, crate::lang::Lang::Python, source)
}
