//! Fitting a context doc to its tier's token cap.
//!
//! Render and count once, section by section; a doc within its cap is done.
//! Otherwise cut the least important material first — sibling names first,
//! this folder's own description never — one kind of material ([`Cut`]) at a
//! time: drop all of it if even that does not fit, else search how much of
//! it can stay.
//! Only the section a cut touches is re-rendered and recounted. What was cut
//! is listed in the doc itself (`omitted`), so a reader knows what is missing.
//! If everything that may go is gone and the text is still too long (a
//! pathological path or description), the text is cut at the cap.
//!
//! Sections are counted apart (counts are memoized per chunk, so recounting
//! is cheap); their sum can differ from the whole file's by a few tokens
//! where sections meet, so the whole file is counted at the end and cut
//! further if that is what it takes: the cap holds for the file as written.

use std::cell::RefCell;
use std::rc::Rc;

use super::model::{ContextDoc, DecisionGroup, FileLine, SubfolderLine};
use super::render::{Section, Templates};
use crate::error::Result;
use crate::tokens::{self, Tokenizer};
use crate::wording::count;

/// Below this many tokens a cut text is dropped instead: a stub says nothing.
const MIN_USEFUL_TOKENS: usize = 24;

/// Appended when the last resort cut the rendered text.
const CUT_NOTE: &str = "\n\n*[cut here to fit the tier's token cap; a larger tier holds the rest]*\n";

/// A rendered context file.
pub(crate) struct Fitted {
    pub doc: ContextDoc,
    pub text: String,
    /// Tokens of `text`, counted exactly.
    pub tokens: usize,
}

/// Render `doc` within its cap (if it has one).
pub(crate) fn fit(doc: ContextDoc, templates: &Templates, tok: &dyn Tokenizer) -> Result<Fitted> {
    match doc.cap {
        // Rendered by sections from the start: a doc over its cap (a root's
        // thousands of definitions) is not rendered and counted whole first.
        Some(cap) => {
            let fitter = Fitter::new(doc, templates, tok)?;
            // The sections' counts can sum a little over the whole's: the whole decides.
            if fitter.total() <= cap + cap / 8 {
                let text = fitter.sections.concat();
                let tokens = tok.count(&text);
                if tokens <= cap {
                    return Ok(Fitted { doc: fitter.doc, text, tokens });
                }
            }
            fitter.run(cap)
        }
        None => {
            let text = templates.render(&doc)?;
            let tokens = tok.count(&text);
            Ok(Fitted { doc, text, tokens })
        }
    }
}

/// Kinds of material that can be cut, least important first. A long text
/// (the boot, this folder's content) is cut before short, dense items (an
/// architectural decision, the file list): its tail says less per token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    Siblings,
    /// Each file's definitions after its first, the least important first.
    MoreDefinitions,
    FileSummaries,
    AncestorRationales,
    CurrentRationales,
    Related,
    BootContent,
    CurrentContent,
    /// This folder's files that define nothing (`.editorconfig`, `LICENSE`, a
    /// lockfile), dotfiles first: less than what a subfolder is for.
    FilesWithoutCode,
    /// The navigation's names of the subfolders, which the contents list
    /// too, and what they are for.
    Children,
    SubfolderDescriptions,
    AncestorDecisions,
    /// Each file's most important definition, of the files no other file uses.
    Definitions,
    /// This folder's files with code that no other file uses (a root's
    /// `setup.py`, `noxfile.py`).
    Files,
    /// The code named below each subfolder: where the code an agent reads lives.
    SubfolderCode,
    /// Each file's most important definition, of the files others use.
    UsedDefinitions,
    /// This folder's files with code that other files use, those fewer files
    /// use first: a root's entry point (`fastify.js`) is worth more than a
    /// name below a subfolder.
    UsedFiles,
    CurrentDecisions,
    PinnedDecisions,
    Subfolders,
    /// The root's commands (its stack stays): how to build and test, what
    /// every session that starts there needs.
    Commands,
    MiddleScopes,
    ScopeChain,
    Parent,
}

const CUTS: [Cut; 24] = [
    Cut::Siblings,
    Cut::MoreDefinitions,
    Cut::FileSummaries,
    Cut::AncestorRationales,
    Cut::CurrentRationales,
    Cut::Related,
    Cut::BootContent,
    Cut::CurrentContent,
    Cut::FilesWithoutCode,
    Cut::Children,
    Cut::SubfolderDescriptions,
    Cut::AncestorDecisions,
    Cut::Definitions,
    Cut::Files,
    Cut::SubfolderCode,
    Cut::UsedDefinitions,
    Cut::UsedFiles,
    Cut::CurrentDecisions,
    Cut::PinnedDecisions,
    Cut::Subfolders,
    Cut::Commands,
    Cut::MiddleScopes,
    Cut::ScopeChain,
    Cut::Parent,
];

impl Cut {
    fn section(self) -> Section {
        match self {
            Cut::Siblings | Cut::Related | Cut::Children | Cut::Parent => Section::Navigation,
            Cut::MoreDefinitions
            | Cut::FileSummaries
            | Cut::Definitions
            | Cut::UsedDefinitions
            | Cut::Files
            | Cut::UsedFiles
            | Cut::FilesWithoutCode
            | Cut::SubfolderDescriptions
            | Cut::SubfolderCode
            | Cut::Subfolders => Section::Contents,
            Cut::AncestorRationales
            | Cut::AncestorDecisions
            | Cut::CurrentRationales
            | Cut::CurrentDecisions
            | Cut::PinnedDecisions => Section::Decisions,
            Cut::BootContent => Section::Boot,
            Cut::CurrentContent | Cut::Commands => Section::Current,
            Cut::MiddleScopes | Cut::ScopeChain => Section::ScopeChain,
        }
    }

    fn index(self) -> usize {
        CUTS.iter().position(|&c| c == self).unwrap_or(0)
    }
}

struct Fitter<'a> {
    original: ContextDoc,
    doc: ContextDoc,
    templates: &'a Templates,
    tok: &'a dyn Tokenizer,
    /// How much of each kind of material stays (items, or tokens for texts).
    keep: [usize; CUTS.len()],
    /// How much of each there is in the original.
    size: [usize; CUTS.len()],
    boot_ends: Rc<[usize]>,
    content_ends: Vec<usize>,
    sections: Vec<String>,
    counts: Vec<usize>,
}

impl<'a> Fitter<'a> {
    fn new(doc: ContextDoc, templates: &'a Templates, tok: &'a dyn Tokenizer) -> Result<Fitter<'a>> {
        let boot_ends =
            doc.boot.as_ref().map(|b| boot_token_ends(tok, &b.content)).unwrap_or_else(|| Rc::from([]));
        let content_ends = tok.token_ends(&doc.current.content);
        let (current, others): (Vec<&DecisionGroup>, Vec<&DecisionGroup>) =
            doc.decisions.iter().partition(|g| g.is_current);
        let (pinned, ancestors): (Vec<&DecisionGroup>, Vec<&DecisionGroup>) =
            others.into_iter().partition(|g| g.is_pinned);
        let entries = |groups: &[&DecisionGroup]| groups.iter().map(|g| g.entries.len()).sum::<usize>();
        let rationales = |groups: &[&DecisionGroup]| {
            groups.iter().flat_map(|g| &g.entries).filter(|e| !e.rationale.is_empty()).count()
        };
        let size = CUTS.map(|cut| match cut {
            Cut::Siblings => doc.navigation.siblings.len(),
            Cut::MoreDefinitions => doc.files.iter().map(|f| f.definitions.len().saturating_sub(1)).sum(),
            Cut::FileSummaries => doc.files.iter().filter(|f| !f.summary.is_empty()).count(),
            // The pinned decisions' rationales go with the ancestors': both are other folders' too.
            Cut::AncestorRationales => rationales(&ancestors) + rationales(&pinned),
            Cut::AncestorDecisions => entries(&ancestors),
            Cut::CurrentRationales => rationales(&current),
            Cut::Related => doc.navigation.related.len(),
            Cut::Definitions | Cut::Files => {
                doc.files.iter().filter(|f| !f.definitions.is_empty() && f.referenced_by == 0).count()
            }
            Cut::UsedDefinitions | Cut::UsedFiles => {
                doc.files.iter().filter(|f| !f.definitions.is_empty() && f.referenced_by > 0).count()
            }
            Cut::FilesWithoutCode => doc.files.iter().filter(|f| f.definitions.is_empty()).count(),
            Cut::Commands => doc.project.as_ref().map_or(0, |p| p.commands.len()),
            Cut::BootContent => boot_ends.len(),
            Cut::SubfolderDescriptions => doc.subfolders.iter().filter(|s| !s.description.is_empty()).count(),
            Cut::SubfolderCode => doc.subfolders.iter().filter(|s| !s.code.is_empty()).count(),
            Cut::CurrentContent => content_ends.len(),
            Cut::CurrentDecisions => entries(&current),
            Cut::PinnedDecisions => entries(&pinned),
            Cut::Subfolders => doc.subfolders.len(),
            Cut::Children => doc.navigation.children.len(),
            Cut::MiddleScopes => doc.scope_chain.len().saturating_sub(2),
            Cut::ScopeChain => usize::from(!doc.scope_chain.is_empty()),
            Cut::Parent => usize::from(doc.navigation.parent.is_some()),
        });
        let data = templates.context(&doc)?;
        let sections =
            Section::ALL.iter().map(|&s| templates.render_section(s, &data)).collect::<Result<Vec<_>>>()?;
        let counts = sections.iter().map(|s| tok.count(s)).collect();
        Ok(Fitter {
            original: doc.clone(),
            doc,
            templates,
            tok,
            keep: size,
            size,
            boot_ends,
            content_ends,
            sections,
            counts,
        })
    }

    fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    fn run(mut self, cap: usize) -> Result<Fitted> {
        /// Rounds of cutting deeper when the joined sections count more than their sum.
        const ROUNDS: usize = 4;
        let mut target = cap;
        for _ in 0..ROUNDS {
            self.cut_to(target)?;
            let text = self.sections.concat();
            let tokens = self.tok.count(&text);
            if tokens <= cap {
                return Ok(Fitted { doc: self.doc, text, tokens });
            }
            let excess = tokens - cap;
            if self.total() > target || excess >= target {
                break; // nothing left to cut: only the last resort remains
            }
            target -= excess;
        }
        let (text, tokens) = last_resort(&self.sections.concat(), cap, self.tok);
        Ok(Fitted { doc: self.doc, text, tokens })
    }

    /// Apply cuts, least important first, until the sections fit `target`.
    fn cut_to(&mut self, target: usize) -> Result<()> {
        for cut in CUTS {
            if self.total() <= target {
                return Ok(());
            }
            let before = self.kept(cut);
            if before == 0 {
                continue;
            }
            let all = self.total();
            self.set(cut, 0)?;
            if self.total() > target {
                continue;
            }
            // Keeping none fits and keeping what was there does not: find the most that fits.
            let none = self.total();
            let most = most_that_fits((0, none), (before, all), target, |n| {
                self.set(cut, n)?;
                Ok(self.total())
            })?;
            self.set(cut, most)?;
            return Ok(());
        }
        Ok(())
    }

    /// Keep `n` of `cut`'s material; re-render what that changes.
    fn set(&mut self, cut: Cut, n: usize) -> Result<()> {
        let i = cut.index();
        if self.keep[i] == n {
            return Ok(());
        }
        self.keep[i] = n;
        self.materialize(cut);
        self.doc.omitted = self.omissions();
        let data = self.templates.context(&self.doc)?;
        for section in [cut.section(), Section::Omitted] {
            let text = self.templates.render_section(section, &data)?;
            self.counts[section as usize] = self.tok.count(&text);
            self.sections[section as usize] = text;
        }
        Ok(())
    }

    fn kept(&self, cut: Cut) -> usize {
        self.keep[cut.index()]
    }

    /// Rebuild the part of the doc that `cut` governs from the original and the keep counts.
    fn materialize(&mut self, cut: Cut) {
        let (original, doc) = (&self.original, &mut self.doc);
        match cut.section() {
            Section::Navigation => {
                let nav = &original.navigation;
                doc.navigation.siblings = nav.siblings[..self.keep[Cut::Siblings.index()]].to_vec();
                doc.navigation.related = nav.related[..self.keep[Cut::Related.index()]].to_vec();
                doc.navigation.children = nav.children[..self.keep[Cut::Children.index()]].to_vec();
                doc.navigation.parent = nav.parent.clone().filter(|_| self.keep[Cut::Parent.index()] > 0);
            }
            Section::Contents => {
                // What goes first: a file with code before one without, the one more of
                // the repository uses first; then a README, a manifest or an entry point
                // before other files (`CHANGELOG.md`), a dotfile last; a small folder's line
                // before the one with the code (`.github/` before `src/`).
                let file_worth = |f: &FileLine| {
                    (
                        !f.definitions.is_empty(),
                        f.referenced_by,
                        is_key_file(&f.name),
                        !f.name.starts_with('.'),
                    )
                };
                let folder_worth =
                    |s: &SubfolderLine| (!s.code.is_empty(), !s.name.starts_with('.'), s.files_below);
                let code = |f: &FileLine| !f.definitions.is_empty();
                // The files others use are worth more (`file_worth`), and cut later: of
                // the two counts, the used files' is whole whenever the other is not 0.
                let keep_files = self.keep[Cut::UsedFiles.index()] + self.keep[Cut::Files.index()];
                let with_code = kept(&original.files, keep_files, code, file_worth);
                let keep = self.keep[Cut::FilesWithoutCode.index()];
                let without_code = kept(&original.files, keep, |f| !code(f), file_worth);
                doc.files = (original.files.iter().zip(with_code.into_iter().zip(without_code)))
                    .filter(|(_, (with, without))| *with || *without)
                    .map(|(file, _)| file.clone())
                    .collect();
                let summaries = kept(
                    &doc.files,
                    self.keep[Cut::FileSummaries.index()],
                    |f| !f.summary.is_empty(),
                    file_worth,
                );
                for (file, keep) in doc.files.iter_mut().zip(summaries) {
                    if !keep {
                        file.summary.clear();
                    }
                }
                let shares = definition_shares(
                    &doc.files.iter().map(|f| (f.definitions.len(), f.referenced_by)).collect::<Vec<_>>(),
                    self.keep[Cut::UsedDefinitions.index()] + self.keep[Cut::Definitions.index()],
                    self.keep[Cut::MoreDefinitions.index()],
                );
                for (file, share) in doc.files.iter_mut().zip(shares) {
                    file.definitions.truncate(share);
                }
                doc.subfolders =
                    kept_items(&original.subfolders, self.keep[Cut::Subfolders.index()], folder_worth);
                let descriptions = self.keep[Cut::SubfolderDescriptions.index()];
                let descriptions =
                    kept(&doc.subfolders, descriptions, |s| !s.description.is_empty(), folder_worth);
                let code = self.keep[Cut::SubfolderCode.index()];
                let code = kept(&doc.subfolders, code, |s| !s.code.is_empty(), folder_worth);
                for (sub, (description, code)) in
                    doc.subfolders.iter_mut().zip(descriptions.into_iter().zip(code))
                {
                    if !description {
                        sub.description.clear();
                    }
                    if !code {
                        sub.code.clear();
                    }
                }
            }
            Section::Decisions => {
                // Entries kept for the current folder, the ancestors and the pinned group;
                // rationales for the current folder and for the others.
                let mut entries_left = [
                    self.keep[Cut::CurrentDecisions.index()],
                    self.keep[Cut::AncestorDecisions.index()],
                    self.keep[Cut::PinnedDecisions.index()],
                ];
                let mut rationales_left =
                    [self.keep[Cut::CurrentRationales.index()], self.keep[Cut::AncestorRationales.index()]];
                doc.decisions = original
                    .decisions
                    .iter()
                    .filter_map(|group| {
                        let kind = if group.is_current {
                            0
                        } else if group.is_pinned {
                            2
                        } else {
                            1
                        };
                        let entries = &mut entries_left[kind];
                        let rationales = &mut rationales_left[usize::from(!group.is_current)];
                        let mut kept = group.clone();
                        kept.entries.truncate(*entries);
                        *entries -= kept.entries.len();
                        for entry in kept.entries.iter_mut().filter(|e| !e.rationale.is_empty()) {
                            if *rationales == 0 {
                                entry.rationale.clear();
                            }
                            *rationales = rationales.saturating_sub(1);
                        }
                        (!kept.entries.is_empty()).then_some(kept)
                    })
                    .collect();
            }
            Section::Boot => {
                let keep = self.keep[Cut::BootContent.index()];
                doc.boot = original.boot.as_ref().and_then(|boot| {
                    let content = cut_text(&boot.content, &self.boot_ends, keep)?;
                    Some(super::model::Boot { content })
                });
            }
            Section::Current => {
                let keep = self.keep[Cut::CurrentContent.index()];
                doc.current.content =
                    cut_text(&original.current.content, &self.content_ends, keep).unwrap_or_default();
                if let (Some(project), Some(kept)) = (&original.project, &mut doc.project) {
                    kept.commands = project.commands[..self.keep[Cut::Commands.index()]].to_vec();
                }
            }
            Section::ScopeChain => {
                let chain = &original.scope_chain;
                doc.scope_chain = if self.keep[Cut::ScopeChain.index()] == 0 {
                    Vec::new()
                } else if chain.len() > 2 {
                    // The root, the scopes nearest this folder, and the last one.
                    let middle = self.keep[Cut::MiddleScopes.index()];
                    let mut kept = vec![chain[0].clone()];
                    kept.extend_from_slice(&chain[chain.len() - 1 - middle..chain.len() - 1]);
                    kept.push(chain[chain.len() - 1].clone());
                    kept
                } else {
                    chain.clone()
                };
            }
            Section::Header | Section::Omitted | Section::Footer => {}
        }
    }

    /// What the cuts took, one line each.
    fn omissions(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for cut in CUTS {
            let (kept, size) = (self.kept(cut), self.size[cut.index()]);
            if kept >= size {
                continue;
            }
            let gone = size - kept;
            let of_size = |noun: &str| format!("{gone} of {}", count(size, noun));
            // `2 of this folder's 5 decisions`, `this folder's 5 decisions`.
            let of_this = |noun: &str| match gone == size {
                true => format!("this folder's {}", count(size, noun)),
                false => format!("{gone} of this folder's {}", count(size, noun)),
            };
            notes.push(match cut {
                Cut::Siblings => of_size("sibling folder"),
                Cut::MoreDefinitions => format!("{} of files", of_size("further definition")),
                Cut::Definitions => format!("the definitions of {} no other file uses", of_size("file")),
                Cut::UsedDefinitions => format!("the definitions of {} other files use", of_size("file")),
                Cut::Commands => format!("{gone} of the project's {}", count(size, "command")),
                Cut::FileSummaries => format!("the summaries of {}", of_size("file")),
                Cut::AncestorRationales => {
                    format!("the rationale of {} of other folders", count(gone, "decision"))
                }
                Cut::PinnedDecisions => of_size("architectural or breaking decision"),
                Cut::AncestorDecisions => format!("{} of ancestor folders", of_size("decision")),
                Cut::CurrentRationales => format!("the rationale of {}", of_this("decision")),
                Cut::Related => of_size("related folder"),
                Cut::Files => format!("{} with code no other file uses", of_size("file")),
                Cut::UsedFiles => format!("{} with code other files use", of_size("file")),
                Cut::FilesWithoutCode => format!("{} without code", of_size("file")),
                Cut::BootContent if kept == 0 => format!("the project's context ({})", count(size, "token")),
                Cut::BootContent => format!("the project's context after {kept} of {}", count(size, "token")),
                Cut::SubfolderDescriptions => format!("the descriptions of {}", of_size("subfolder")),
                Cut::SubfolderCode => format!("the code named below {}", of_size("subfolder")),
                Cut::CurrentContent if kept == 0 => {
                    format!("this folder's context ({})", count(size, "token"))
                }
                Cut::CurrentContent => {
                    format!("this folder's context after {kept} of {}", count(size, "token"))
                }
                Cut::CurrentDecisions => of_this("decision"),
                Cut::Subfolders => of_size("subfolder"),
                Cut::Children => of_size("child folder name"),
                Cut::MiddleScopes => format!("{} between the root and the parent", of_size("scope")),
                Cut::ScopeChain => "the scope chain".to_string(),
                Cut::Parent => "the parent link".to_string(),
            });
        }
        notes
    }
}

/// Which of `items` keep the material `has` says they have when only `n` may:
/// those worth most (`worth`; among equals, the earlier), in the items' order.
fn kept<T, K: Ord>(items: &[T], n: usize, has: impl Fn(&T) -> bool, worth: impl Fn(&T) -> K) -> Vec<bool> {
    let mut order: Vec<usize> = (0..items.len()).filter(|&i| has(&items[i])).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(worth(&items[i])));
    let mut keep = vec![false; items.len()];
    for &i in order.iter().take(n) {
        keep[i] = true;
    }
    keep
}

/// The `n` of `items` worth most ([`kept`]), in their order.
fn kept_items<T: Clone, K: Ord>(items: &[T], n: usize, worth: impl Fn(&T) -> K) -> Vec<T> {
    let keep = kept(items, n, |_| true, worth);
    items.iter().zip(keep).filter(|(_, keep)| *keep).map(|(item, _)| item.clone()).collect()
}

/// How many definitions each file keeps (`files`: how many it has, and how
/// many other files use it): the `first` files with any that the most files
/// use keep their first, then `more` are handed out one per file in turns, so
/// every file keeps its best ones before any file keeps its fourth.
pub(super) fn definition_shares(files: &[(usize, u32)], first: usize, more: usize) -> Vec<usize> {
    let counts: Vec<usize> = files.iter().map(|f| f.0).collect();
    let mut shares = vec![0; counts.len()];
    let mut with_any: Vec<usize> = (0..files.len()).filter(|&j| files[j].0 > 0).collect();
    with_any.sort_by_key(|&j| std::cmp::Reverse(files[j].1));
    for j in with_any.into_iter().take(first) {
        shares[j] = 1;
    }
    let mut left = more;
    let mut round = 1;
    while left > 0 && counts.iter().zip(&shares).any(|(&n, &s)| s == round && n > round) {
        for (share, &n) in shares.iter_mut().zip(&counts) {
            if left > 0 && *share == round && n > round {
                *share += 1;
                left -= 1;
            }
        }
        round += 1;
    }
    shares
}

/// A file a reader opens first: a README, a manifest, an entry point.
fn is_key_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or(&lower);
    matches!(stem, "readme" | "index" | "main" | "lib" | "__init__" | "mod" | "app")
        || matches!(
            lower.as_str(),
            "package.json" | "cargo.toml" | "pyproject.toml" | "setup.py" | "go.mod" | "makefile"
        )
}

/// The largest `n` whose `total(n)` is within `target`, given two points
/// `(n, total(n))` on either side of it (`fits.1 <= target < too_many.1`)
/// and a `total` that grows with `n`. Each call of `total` re-renders a
/// section (a root's 2,000 definitions: milliseconds), so the next try is
/// where the count, about linear in what is kept, crosses the target; a try
/// that does not halve the range is followed by one that does.
fn most_that_fits(
    mut fits: (usize, usize),
    mut too_many: (usize, usize),
    target: usize,
    mut total: impl FnMut(usize) -> Result<usize>,
) -> Result<usize> {
    let mut halve = false;
    while too_many.0 > fits.0 + 1 {
        let range = too_many.0 - fits.0;
        let mid = if halve {
            fits.0 + range / 2
        } else {
            let per_item = too_many.1.saturating_sub(fits.1).max(1) as f64 / range as f64;
            let guess = fits.0 + (target.saturating_sub(fits.1) as f64 / per_item) as usize;
            guess.clamp(fits.0 + 1, too_many.0 - 1)
        };
        let at = (mid, total(mid)?);
        if at.1 <= target {
            fits = at
        } else {
            too_many = at
        }
        halve = !halve && (too_many.0 - fits.0) * 2 > range;
    }
    Ok(fits.0)
}

/// The token ends of the project boot, which every file of a tree shares:
/// tokenized once per thread, not once per file.
fn boot_token_ends(tok: &dyn Tokenizer, content: &str) -> Rc<[usize]> {
    /// The tokenizer's name, the boot, and its token ends.
    type Last = Option<(&'static str, String, Rc<[usize]>)>;
    thread_local! {
        static LAST: RefCell<Last> = const { RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| match last {
        Some((name, text, ends)) if *name == tok.name() && text == content => ends.clone(),
        _ => {
            let ends: Rc<[usize]> = tok.token_ends(content).into();
            *last = Some((tok.name(), content.to_string(), ends.clone()));
            ends
        }
    })
}

/// The first `keep` tokens of `text` (whose token ends are `ends`), marked as
/// cut; `None` when too little would remain to be worth reading.
fn cut_text(text: &str, ends: &[usize], keep: usize) -> Option<String> {
    if keep >= ends.len() {
        return Some(text.to_string()).filter(|t| !t.is_empty());
    }
    if keep < MIN_USEFUL_TOKENS {
        return None;
    }
    Some(format!("{} …", tokens::prefix(text, ends, keep).trim_end()))
}

/// The last resort: the most lines of `text` that fit in `cap` (and as much
/// of the next line as fits) with a note saying the rest was cut.
fn last_resort(text: &str, cap: usize, tok: &dyn Tokenizer) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let cut = |n: usize, part: &str| {
        let mut kept = lines[..n].concat();
        if !part.is_empty() {
            kept.push_str(part);
            kept.push('\n');
        }
        kept.push_str(CUT_NOTE);
        kept
    };
    let fits = |n: usize, part: &str| tok.count(&cut(n, part)) <= cap;
    // Binary search the number of whole lines; counts grow with lines.
    let (mut lo, mut hi) = (0, lines.len());
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid, "") { lo = mid } else { hi = mid - 1 }
    }
    let mut part = "";
    if let Some(line) = lines.get(lo) {
        let room = cap.saturating_sub(tok.count(&cut(lo, "")) + 1);
        part = tok.truncate(line.trim_end_matches('\n'), room);
        while !part.is_empty() && !fits(lo, part) {
            part = tok.truncate(part, tok.count(part) - 1);
        }
    }
    let kept = cut(lo, part);
    let tokens = tok.count(&kept);
    (kept, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_worth_most_stays_in_its_place_and_equals_go_in_order() {
        // (name, has the material, worth)
        let items = [(".a", true, 0), ("b", true, 2), ("c", false, 9), ("d", true, 2), ("e", true, 1)];
        let kept = |n| kept(&items, n, |i| i.1, |i| i.2);
        assert_eq!(kept(2), [false, true, false, true, false]);
        assert_eq!(kept(3), [false, true, false, true, true]);
        assert_eq!(kept(1), [false, true, false, false, false]);
        assert_eq!(kept(9), [true, true, false, true, true]);
        assert_eq!(kept(0), [false; 5]);
    }

    proptest::proptest! {
        #[test]
        fn the_search_finds_the_most_that_fits_in_few_tries(
            steps in proptest::collection::vec(0usize..40, 2..3000),
            at in 0.0f64..1.0,
        ) {
            // total(n): the sum of the first n steps, as each item kept adds its tokens.
            let totals: Vec<usize> = std::iter::once(0).chain(steps.iter().scan(0, |sum, s| {
                *sum += s;
                Some(*sum)
            })).collect();
            let last = totals.len() - 1;
            proptest::prop_assume!(totals[last] > 0);
            let target = ((totals[last] - 1) as f64 * at) as usize;
            let expected = totals.iter().rposition(|&t| t <= target).unwrap();
            let mut tries = 0;
            let found = most_that_fits((0, 0), (last, totals[last]), target, |n| {
                tries += 1;
                Ok(totals[n])
            })
            .unwrap();
            proptest::prop_assert_eq!(found, expected);
            // Never more than twice a halving search's.
            proptest::prop_assert!(tries <= 2 * (usize::BITS - last.leading_zeros()) as usize, "{tries} tries");
        }
    }

    #[test]
    fn every_file_keeps_its_best_definitions_before_any_keeps_more() {
        // (definitions, files using it): the third file is the most used.
        let counts = [(3, 1), (0, 9), (1, 5), (4, 0)];
        assert_eq!(definition_shares(&counts, 3, 5), [3, 0, 1, 4]);
        assert_eq!(definition_shares(&counts, 3, 4), [3, 0, 1, 3]);
        assert_eq!(definition_shares(&counts, 3, 2), [2, 0, 1, 2]);
        assert_eq!(definition_shares(&counts, 3, 1), [2, 0, 1, 1]);
        // Too few for all: the most used files' first definitions, not the first files'.
        assert_eq!(definition_shares(&counts, 2, 0), [1, 0, 1, 0]);
        assert_eq!(definition_shares(&counts, 1, 0), [0, 0, 1, 0]);
        assert_eq!(definition_shares(&counts, 0, 0), [0, 0, 0, 0]);
    }

    #[test]
    fn a_reader_s_first_files_are_key() {
        for key in
            ["README.md", "readme.rst", "package.json", "Cargo.toml", "index.js", "__init__.py", "lib.rs"]
        {
            assert!(is_key_file(key), "{key}");
        }
        for other in ["CHANGELOG.md", "CODE_OF_CONDUCT.md", "karma.conf.cjs", ".eslintrc"] {
            assert!(!is_key_file(other), "{other}");
        }
    }
}
