//! Assembled work context: what an agent working on a frame should read,
//! chosen and fitted to a token budget, in one of four renderings.
//!
//! The pipeline, the same for every rendering:
//! 1. **Inputs**: the focus frame (with its decisions and attempts), its
//!    ancestors (root first) and its siblings, read in one transaction.
//! 2. **Current**: the focus frame with its finished subframes (most recent
//!    first: what its own sub-work found), its fields cut to shares of the
//!    current budget; if it still does not fit, every field is cut further together.
//! 3. **Ancestors**: the parent always (cut to fit the ancestors budget);
//!    the others by score ([`select::ancestor_score`]), each that fits the
//!    budget left; shown root first. The rest are counted as omitted.
//! 4. **Siblings**: completed and failed siblings scored by relevance to the
//!    current goal ([`select::sibling_score`]); those under the minimum
//!    score are filtered out, the rest chosen by score within the siblings
//!    budget and shown most recent first. The task prompt lists every
//!    completed sibling (most recent first) and the remaining ones as titles.
//! 5. **Document**: the items placed in the rendering's document, counted
//!    whole; over the total (the structure cost more than its share), the
//!    least valuable items go, then the current frame and the parent are
//!    cut further. The text never exceeds the total; a budget too small for
//!    even the shortest document is [`Error::ContextTooLarge`].
//!
//! Every cut text ends with [`select::TRUNCATION_MARKER`] and is counted
//! (XML: `truncated="true"`), and every count of what was left out reaches
//! the output and the [`AssemblyReport`].

pub(crate) mod cache;
mod render;
pub(crate) mod select;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::budget::{Budget, BudgetSources};
use crate::error::{Error, Result};
use crate::frames::{self, Attempt, FrameRow, FrameStatus};
use crate::templates::Templates;
use crate::tokens::Tokenizer;
pub use cache::CacheReport;
pub(crate) use render::templates_of;

#[cfg(test)]
mod tests;
use render::{DocView, FULL_SCALE, Item, Renderer, SectionView, TruncationView};

/// How an assembled context is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rendering {
    /// The flame seed's `<ctx-context>` document.
    Xml,
    /// The same, as markdown.
    Md,
    /// The same, as JSON (one frame a line).
    Json,
    /// The cub task prompt (`ctx task prompt`).
    Prompt,
}

impl Rendering {
    pub fn as_str(self) -> &'static str {
        match self {
            Rendering::Xml => "xml",
            Rendering::Md => "md",
            Rendering::Json => "json",
            Rendering::Prompt => "prompt",
        }
    }

    /// `xml`, `md` (or `markdown`), `json`, `prompt`.
    pub fn parse(text: &str) -> Option<Rendering> {
        match text.trim().to_ascii_lowercase().as_str() {
            "xml" => Some(Rendering::Xml),
            "md" | "markdown" => Some(Rendering::Md),
            "json" => Some(Rendering::Json),
            "prompt" => Some(Rendering::Prompt),
            _ => None,
        }
    }
}

/// An assembled context. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct AssembledContext {
    pub frame: String,
    pub rendering: Rendering,
    /// What to inject; never more than the total budget.
    pub text: String,
    pub report: AssemblyReport,
    pub cache: CacheReport,
}

/// What an assembly chose and what it cost. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssemblyReport {
    pub budget: Budget,
    pub budget_sources: BudgetSources,
    pub tokenizer: String,
    pub tokens: SectionTokens,
    pub ancestors: AncestorCounts,
    pub siblings: SiblingCounts,
    pub subframes: SubframeCounts,
    /// Text fields cut to fit (each ends with the truncation marker).
    pub fields_truncated: usize,
}

/// Tokens of the rendered text, by section. Stable JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionTokens {
    /// The whole text.
    pub total: usize,
    pub ancestors: usize,
    pub siblings: usize,
    pub current: usize,
    /// Everything else: root element, metadata, headings, separators.
    pub structure: usize,
}

/// Stable JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AncestorCounts {
    pub total: usize,
    pub included: usize,
    /// Left out for want of room (or, in the prompt, above the epic).
    pub omitted: usize,
}

/// Stable JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiblingCounts {
    /// Completed (and, but for the prompt, failed) siblings.
    pub candidates: usize,
    pub included: usize,
    /// Below the minimum relevance score.
    pub filtered: usize,
    /// Relevant enough, but no room.
    pub omitted: usize,
    /// The prompt's remaining sibling tasks: listed, and left out for want of room.
    pub remaining_included: usize,
    pub remaining_omitted: usize,
}

/// The current frame's finished children. Stable JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubframeCounts {
    /// Completed and failed children.
    pub total: usize,
    /// Shown in the current frame, most recent first.
    pub included: usize,
    pub omitted: usize,
}

/// One frame as assembly sees it.
#[derive(Debug, Clone, Default)]
pub(crate) struct FrameInput {
    pub id: String,
    pub seq: i64,
    pub frame_type: String,
    pub title: String,
    pub goal: String,
    pub status: FrameStatus,
    pub summary: String,
    pub artifacts: Vec<String>,
    pub criteria: Vec<String>,
    /// When it ended, or else last changed: milliseconds since the epoch.
    pub changed_ms: i64,
}

impl FrameInput {
    fn from_row(row: FrameRow, artifacts: Vec<String>) -> FrameInput {
        let changed = row.ended_at.as_deref().unwrap_or(&row.updated_at);
        FrameInput {
            id: row.id(),
            seq: row.seq,
            changed_ms: parse_ms(changed),
            frame_type: row.frame_type,
            title: row.title,
            goal: row.goal,
            status: row.status,
            summary: row.summary,
            artifacts,
            criteria: row.criteria,
        }
    }
}

fn parse_ms(iso: &str) -> i64 {
    humantime::parse_rfc3339_weak(iso.trim_end_matches('Z'))
        .map(|t| crate::time::unix_nanos(t) / 1_000_000)
        .unwrap_or(0)
}

/// Everything one assembly reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Inputs {
    pub focus: FrameInput,
    /// Titles of the focus frame's decisions, newest first.
    pub decisions: Vec<String>,
    /// Oldest first.
    pub attempts: Vec<Attempt>,
    /// Root first, parent last.
    pub ancestors: Vec<FrameInput>,
    /// The other children of the parent (of the top level, for a top-level frame), oldest first.
    pub siblings: Vec<FrameInput>,
    /// The focus frame's completed and failed children, most recent first.
    pub children: Vec<FrameInput>,
    pub now_ms: i64,
}

impl Inputs {
    /// Read the inputs of frame `focus` (inside the caller's read transaction).
    pub fn load(conn: &Connection, focus: &FrameRow, now_ms: i64) -> Result<Inputs> {
        let ancestors = frames::ancestors(conn, focus)?
            .into_iter()
            .map(|row| {
                let artifacts = frames::artifacts(conn, row.node_id)?;
                Ok(FrameInput::from_row(row, artifacts))
            })
            .collect::<Result<Vec<_>>>()?;

        let mut artifacts: rustc_hash::FxHashMap<i64, Vec<String>> = Default::default();
        let mut stmt = conn.prepare_cached(
            "SELECT a.node_id, a.path FROM frame_artifacts a JOIN nodes n ON n.id = a.node_id
             WHERE n.parent_id IS ?1 AND n.kind = 'frame' AND n.id <> ?2 ORDER BY a.added_at, a.path",
        )?;
        let mut rows = stmt.query(rusqlite::params![focus.parent_id, focus.node_id])?;
        while let Some(row) = rows.next()? {
            artifacts.entry(row.get(0)?).or_default().push(row.get(1)?);
        }
        let sql = format!(
            "SELECT {} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
             WHERE n.parent_id IS ?1 AND n.kind = 'frame' AND n.id <> ?2 ORDER BY n.seq",
            frames::FRAME_COLUMNS
        );
        let siblings = conn
            .prepare_cached(&sql)?
            .query_map(rusqlite::params![focus.parent_id, focus.node_id], FrameRow::read)?
            .map(|row| {
                let row = row?;
                let artifacts = artifacts.remove(&row.node_id).unwrap_or_default();
                Ok(FrameInput::from_row(row, artifacts))
            })
            .collect::<Result<Vec<_>>>()?;

        let sql = format!(
            "SELECT {} FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
             WHERE n.parent_id = ?1 AND n.kind = 'frame' AND n.status IN ('completed', 'failed')",
            frames::FRAME_COLUMNS
        );
        let mut children = conn
            .prepare_cached(&sql)?
            .query_map([focus.node_id], FrameRow::read)?
            .map(|row| Ok(FrameInput::from_row(row?, Vec::new())))
            .collect::<Result<Vec<_>>>()?;
        children.sort_by(|a, b| b.changed_ms.cmp(&a.changed_ms).then(b.seq.cmp(&a.seq)));

        let decisions =
            crate::records::decisions_of(conn, Some(focus.node_id))?.into_iter().map(|d| d.title).collect();
        let attempts = frames::attempts(conn, focus.node_id)?;
        let focus = FrameInput::from_row(focus.clone(), frames::artifacts(conn, focus.node_id)?);
        Ok(Inputs { focus, decisions, attempts, ancestors, siblings, children, now_ms })
    }
}

/// What an assembly is made with besides its inputs.
pub(crate) struct Settings<'a> {
    pub budget: Budget,
    pub budget_sources: BudgetSources,
    pub min_sibling_score: f64,
    pub tok: &'a dyn Tokenizer,
    pub templates: &'a Templates,
}

/// An item chosen for a section, with what it is worth when room runs out.
#[derive(Debug, Clone)]
struct Chosen {
    item: Item,
    score: f64,
    /// Where it is shown among its section's items (lowest first).
    order: (i64, i64),
}

/// After this many items in a row did not fit, a section is full.
const MAX_MISSES: usize = 16;

/// Assemble the context of `inputs.focus` in `rendering`: the text and its report.
pub(crate) fn assemble(
    inputs: &Inputs,
    rendering: Rendering,
    settings: &Settings<'_>,
) -> Result<(String, AssemblyReport)> {
    let budget = settings.budget;
    let renderer = Renderer::new(rendering, settings.templates, settings.tok, budget);

    let mut current =
        fit_item(budget.current, |scale| renderer.current(inputs, scale))?.ok_or_else(|| {
            too_small(format!("the current budget ({} tokens) cannot hold the current frame", budget.current))
        })?;

    let (mut parent, mut ancestors, mut ancestor_counts) = choose_ancestors(inputs, &renderer, budget)?;
    let (mut siblings, mut remaining, mut counts) = choose_siblings(inputs, &renderer, settings)?;

    // The document, fitted to the total.
    let frame = &inputs.focus;
    for _ in 0..64 {
        ancestors.sort_by_key(|c| c.order);
        siblings.sort_by_key(|c| c.order);
        remaining.sort_by_key(|c| c.order);
        let chosen_ancestors: Vec<&Chosen> = ancestors.iter().chain(parent.as_ref()).collect();
        let fields_truncated = current.truncated
            + chosen_ancestors
                .iter()
                .copied()
                .chain(&siblings)
                .chain(&remaining)
                .map(|c| c.item.truncated)
                .sum::<usize>();
        let truncation = TruncationView {
            ancestors_omitted: ancestor_counts.omitted,
            siblings_filtered: counts.filtered,
            siblings_omitted: counts.omitted,
            fields_truncated,
        };
        let items = |chosen: &[&Chosen]| chosen.iter().map(|c| c.item.text.clone()).collect::<Vec<_>>();
        let (ancestor_items, epic) = if rendering == Rendering::Prompt {
            (Vec::new(), parent.as_ref().map(|p| p.item.text.clone()))
        } else {
            (items(&chosen_ancestors), None)
        };
        let doc = DocView {
            frame: &frame.id,
            title: &frame.title,
            frame_type: &frame.frame_type,
            budget,
            truncation,
            ancestors: SectionView {
                count: ancestor_counts.included,
                omitted: ancestor_counts.omitted,
                filtered: 0,
                items: ancestor_items,
            },
            siblings: SectionView {
                count: siblings.len(),
                omitted: counts.omitted,
                filtered: counts.filtered,
                items: items(&siblings.iter().collect::<Vec<_>>()),
            },
            remaining: SectionView {
                count: remaining.len(),
                omitted: counts.remaining_omitted,
                filtered: 0,
                items: items(&remaining.iter().collect::<Vec<_>>()),
            },
            epic,
            current: current.text.clone(),
            previous_attempt: current.attempt.clone(),
        };
        let text = renderer.document(&doc)?;
        let total = settings.tok.count(&text);
        if total <= budget.total {
            let tokens = |chosen: &[&Chosen]| chosen.iter().map(|c| c.item.tokens).sum::<usize>();
            let section = SectionTokens {
                total,
                ancestors: tokens(&chosen_ancestors),
                siblings: tokens(&siblings.iter().chain(&remaining).collect::<Vec<_>>()),
                current: current.tokens,
                structure: 0,
            };
            let structure = total.saturating_sub(section.ancestors + section.siblings + section.current);
            let report = AssemblyReport {
                budget,
                budget_sources: settings.budget_sources.clone(),
                tokenizer: settings.tok.name().to_string(),
                tokens: SectionTokens { structure, ..section },
                ancestors: ancestor_counts,
                siblings: SiblingCounts { included: siblings.len(), ..counts },
                subframes: SubframeCounts {
                    total: inputs.children.len(),
                    included: current.subframes,
                    omitted: inputs.children.len() - current.subframes,
                },
                fields_truncated,
            };
            return Ok((text, report));
        }
        // Over the total: let the least valuable material go.
        let mut excess = total - budget.total;
        while excess > 0 {
            if let Some(dropped) = remaining.pop() {
                excess = excess.saturating_sub(dropped.item.tokens);
                counts.remaining_omitted += 1;
            } else if let Some(i) = lowest(&siblings) {
                excess = excess.saturating_sub(siblings.remove(i).item.tokens);
                counts.omitted += 1;
            } else if let Some(i) = lowest(&ancestors) {
                excess = excess.saturating_sub(ancestors.remove(i).item.tokens);
                ancestor_counts.omitted += 1;
                ancestor_counts.included -= 1;
            } else {
                break;
            }
        }
        if excess > 0 {
            // Nothing left to drop: cut the current frame, then the parent, further.
            let shrunk = match current.tokens.checked_sub(excess + 1) {
                Some(max) => fit_item(max, |scale| renderer.current(inputs, scale))?,
                None => None,
            };
            match shrunk {
                Some(item) if item.tokens < current.tokens => current = item,
                _ => {
                    let Some(p) = parent.as_mut() else { break };
                    let shrunk = match p.item.tokens.checked_sub(excess + 1) {
                        Some(max) => fit_item(max, |scale| {
                            renderer.ancestor(&inputs.ancestors[inputs.ancestors.len() - 1], scale)
                        })?,
                        None => None,
                    };
                    match shrunk {
                        Some(item) if item.tokens < p.item.tokens => p.item = item,
                        _ => break,
                    }
                }
            }
        }
    }
    Err(too_small(format!(
        "the total budget ({} tokens) cannot hold even the shortest context of {}",
        budget.total, frame.id
    )))
}

/// The parent (always, cut to fit the ancestors budget), and the other
/// ancestors by score, each that fits what is left; the prompt shows the
/// epic (the parent) alone.
fn choose_ancestors(
    inputs: &Inputs,
    renderer: &Renderer<'_>,
    budget: Budget,
) -> Result<(Option<Chosen>, Vec<Chosen>, AncestorCounts)> {
    let mut counts = AncestorCounts { total: inputs.ancestors.len(), ..Default::default() };
    let Some((last, rest)) = inputs.ancestors.split_last() else { return Ok((None, Vec::new(), counts)) };
    let item = fit_item(budget.ancestors, |scale| renderer.ancestor(last, scale))?.ok_or_else(|| {
        too_small(format!("the ancestors budget ({} tokens) cannot hold the parent frame", budget.ancestors))
    })?;
    let mut room = budget.ancestors - item.tokens;
    let parent = Chosen { item, score: f64::INFINITY, order: (rest.len() as i64, 0) };
    let mut ancestors = Vec::new();
    if renderer.rendering != Rendering::Prompt {
        let n = inputs.ancestors.len();
        let mut scored: Vec<(f64, usize)> = rest
            .iter()
            .enumerate()
            .map(|(i, a)| (select::ancestor_score(a, n - i, i == 0, inputs.now_ms), i))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // Shown root first.
        let candidates = scored.iter().map(|&(score, i)| (score, (i as i64, 0), &rest[i]));
        ancestors = fill(candidates, &mut room, |a| renderer.ancestor(a, FULL_SCALE))?;
    }
    counts.included = ancestors.len() + 1;
    counts.omitted = counts.total - counts.included;
    Ok((Some(parent), ancestors, counts))
}

/// The siblings to show, and (for the prompt) the remaining tasks.
///
/// Frame context: completed and failed siblings scored by relevance,
/// filtered below the minimum score, chosen by score within the siblings
/// budget, shown most recent first. The prompt: every completed task of the
/// epic, most recent first, in two thirds of the budget; the others as
/// titles in what is left.
fn choose_siblings(
    inputs: &Inputs,
    renderer: &Renderer<'_>,
    settings: &Settings<'_>,
) -> Result<(Vec<Chosen>, Vec<Chosen>, SiblingCounts)> {
    let budget = settings.budget;
    let mut counts = SiblingCounts::default();
    if renderer.rendering == Rendering::Prompt {
        // A task without an epic has no tasks "in this epic".
        let in_epic = if inputs.ancestors.is_empty() { &[][..] } else { &inputs.siblings[..] };
        let (mut completed, open): (Vec<&FrameInput>, Vec<&FrameInput>) =
            in_epic.iter().partition(|s| s.status == FrameStatus::Completed);
        completed.sort_by(|a, b| b.changed_ms.cmp(&a.changed_ms).then(b.seq.cmp(&a.seq)));
        counts.candidates = completed.len();
        let mut room = budget.siblings * 2 / 3;
        let candidates = completed.iter().enumerate().map(|(i, s)| (-(i as f64), (i as i64, 0), *s));
        let siblings = fill(candidates, &mut room, |s| renderer.sibling(s, FULL_SCALE))?;
        let mut room = budget.siblings - siblings.iter().map(|c| c.item.tokens).sum::<usize>();
        let candidates = open.iter().enumerate().map(|(i, s)| (-(i as f64), (i as i64, 0), *s));
        let remaining = fill(candidates, &mut room, |s| renderer.remaining(s, FULL_SCALE))?;
        counts.included = siblings.len();
        counts.omitted = completed.len() - siblings.len();
        counts.remaining_included = remaining.len();
        counts.remaining_omitted = open.len() - remaining.len();
        return Ok((siblings, remaining, counts));
    }
    let focus = select::Focus::new(&inputs.focus);
    let mut scored: Vec<(f64, &FrameInput)> = inputs
        .siblings
        .iter()
        .filter(|s| matches!(s.status, FrameStatus::Completed | FrameStatus::Failed))
        .map(|s| (select::sibling_score(s, &focus, inputs.now_ms), s))
        .collect();
    counts.candidates = scored.len();
    scored.retain(|(score, _)| *score >= settings.min_sibling_score);
    counts.filtered = counts.candidates - scored.len();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.changed_ms.cmp(&a.1.changed_ms)));
    let mut room = budget.siblings;
    // Shown most recent first.
    let candidates = scored.iter().map(|&(score, s)| (score, (-s.changed_ms, -s.seq), s));
    let siblings = fill(candidates, &mut room, |s| renderer.sibling(s, FULL_SCALE))?;
    counts.included = siblings.len();
    counts.omitted = scored.len() - siblings.len();
    Ok((siblings, Vec::new(), counts))
}

fn too_small(message: String) -> Error {
    Error::ContextTooLarge(format!(
        "{message}; raise the budget (CTX_TOKEN_BUDGET_* or [budget] in .ctx/config.toml)"
    ))
}

/// The index of the lowest-scored item.
fn lowest(chosen: &[Chosen]) -> Option<usize> {
    chosen.iter().enumerate().min_by(|a, b| a.1.score.total_cmp(&b.1.score)).map(|(i, _)| i)
}

/// Choose from `candidates` (score, display order, frame), best first, each
/// whose rendering fits the `room` left; stop when room runs out or
/// [`MAX_MISSES`] in a row did not fit.
fn fill<'f>(
    candidates: impl Iterator<Item = (f64, (i64, i64), &'f FrameInput)>,
    room: &mut usize,
    render: impl Fn(&FrameInput) -> Result<Item>,
) -> Result<Vec<Chosen>> {
    /// No frame renders in fewer tokens than this.
    const MIN_ITEM_TOKENS: usize = 4;
    let mut chosen = Vec::new();
    let mut misses = 0;
    for (score, order, frame) in candidates {
        if *room < MIN_ITEM_TOKENS || misses >= MAX_MISSES {
            break;
        }
        let item = render(frame)?;
        if item.tokens <= *room {
            *room -= item.tokens;
            chosen.push(Chosen { item, score, order });
            misses = 0;
        } else {
            misses += 1;
        }
    }
    Ok(chosen)
}

/// The item `render` makes at the largest scale whose tokens are at most
/// `max`; `None` when even the smallest does not fit.
fn fit_item(max: usize, render: impl Fn(usize) -> Result<Item>) -> Result<Option<Item>> {
    let full = render(FULL_SCALE)?;
    if full.tokens <= max {
        return Ok(Some(full));
    }
    let smallest = render(0)?;
    if smallest.tokens > max {
        return Ok(None);
    }
    let (mut fits, mut too_big) = (0, FULL_SCALE);
    let mut best = smallest;
    while too_big - fits > 1 {
        let mid = (fits + too_big) / 2;
        let item = render(mid)?;
        if item.tokens <= max {
            fits = mid;
            best = item;
        } else {
            too_big = mid;
        }
    }
    Ok(Some(best))
}
