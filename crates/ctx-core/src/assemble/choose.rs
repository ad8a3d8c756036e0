//! Choosing what goes into each section: the ancestors and siblings by
//! score, each rendered at the largest scale that fits the room left.

use super::render::{FULL_SCALE, Item, Renderer};
use super::{AncestorCounts, FrameInput, Inputs, Rendering, Settings, SiblingCounts, select, too_small};
use crate::budget::Budget;
use crate::error::Result;
use crate::frames::FrameStatus;
use crate::wording::count;

/// An item chosen for a section, with what it is worth when room runs out.
#[derive(Debug, Clone)]
pub(super) struct Chosen {
    pub item: Item,
    pub score: f64,
    /// Where it is shown among its section's items (lowest first).
    pub order: (i64, i64),
}

/// After this many items in a row did not fit, a section is full.
const MAX_MISSES: usize = 16;

/// The parent (always, cut to fit the ancestors budget), and the other
/// ancestors by score, each that fits what is left; the prompt shows the
/// epic (the parent) alone.
pub(super) fn choose_ancestors(
    inputs: &Inputs,
    renderer: &Renderer<'_>,
    budget: Budget,
) -> Result<(Option<Chosen>, Vec<Chosen>, AncestorCounts)> {
    let mut counts = AncestorCounts { total: inputs.ancestors.len(), ..Default::default() };
    let Some((last, rest)) = inputs.ancestors.split_last() else { return Ok((None, Vec::new(), counts)) };
    let item = fit_item(budget.ancestors, |scale| renderer.ancestor(last, scale))?.ok_or_else(|| {
        too_small(format!(
            "the ancestors budget ({}) cannot hold the parent frame",
            count(budget.ancestors, "token")
        ))
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
pub(super) fn choose_siblings(
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

/// The index of the lowest-scored item.
pub(super) fn lowest(chosen: &[Chosen]) -> Option<usize> {
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
pub(super) fn fit_item(max: usize, render: impl Fn(usize) -> Result<Item>) -> Result<Option<Item>> {
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
