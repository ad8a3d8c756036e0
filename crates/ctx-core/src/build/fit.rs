//! Fitting a context doc to its tier's token cap.
//!
//! Render, count; while over the cap, take away the least important material
//! still there — sibling names first, this folder's own description last —
//! in chunks sized to the overflow, and render again. What was taken away is
//! listed in the doc itself (`omitted`), so a reader knows what is missing.
//! If everything that may go is gone and the text is still too long (a
//! pathological path or description), the rendered text is cut at the cap.

use super::model::ContextDoc;
use super::render::Templates;
use crate::error::Result;
use crate::tokens::Tokenizer;

/// Below this many tokens a cut text is dropped instead: a stub says nothing.
const MIN_USEFUL_TOKENS: usize = 24;

/// Appended when the last resort cut the rendered text.
const CUT_NOTE: &str = "\n\n*[cut here to fit the tier's token cap; a larger tier holds the rest]*\n";

/// A rendered context file and what it took to fit it.
pub(crate) struct Fitted {
    pub doc: ContextDoc,
    pub text: String,
    pub tokens: usize,
}

/// Render `doc` within its cap (if it has one).
pub(crate) fn fit(mut doc: ContextDoc, templates: &Templates, tok: &dyn Tokenizer) -> Result<Fitted> {
    let Some(cap) = doc.cap else {
        let text = templates.render(&doc)?;
        let tokens = tok.count(&text);
        return Ok(Fitted { doc, text, tokens });
    };
    let original = doc.clone();
    let mut steps = STEPS.iter();
    let mut step = steps.next();
    loop {
        doc.omitted = omissions(&original, &doc, tok);
        let text = templates.render(&doc)?;
        let tokens = tok.count(&text);
        if tokens <= cap {
            return Ok(Fitted { doc, text, tokens });
        }
        let overflow = tokens - cap;
        // Apply the current step; when it has nothing left to take, move on.
        loop {
            let Some(current) = step else {
                let (text, tokens) = cut(&text, cap, tok);
                return Ok(Fitted { doc, text, tokens });
            };
            if current(&mut doc, overflow, tok) {
                break;
            }
            step = steps.next();
        }
    }
}

/// The last resort: the first `cap` tokens of `text`, and a note saying so.
fn cut(text: &str, cap: usize, tok: &dyn Tokenizer) -> (String, usize) {
    let note_tokens = tok.count(CUT_NOTE);
    let mut budget = cap.saturating_sub(note_tokens);
    loop {
        let kept = format!("{}{CUT_NOTE}", tok.truncate(text, budget).trim_end());
        let tokens = tok.count(&kept);
        // Tokens can merge across the seam: shrink until it fits.
        if tokens <= cap || budget == 0 {
            return (kept, tokens);
        }
        budget = budget.saturating_sub((tokens - cap).max(1));
    }
}

/// One way of making a doc smaller. Returns false when it has nothing left to take.
type Step = fn(&mut ContextDoc, usize, &dyn Tokenizer) -> bool;

/// Least important first.
const STEPS: &[Step] = &[
    |doc, over, tok| pop_until(&mut doc.navigation.siblings, over, |s| tok.count(s) + 1),
    |doc, over, tok| clear_until(doc.files.iter_mut().rev().map(|f| &mut f.summary), over, tok),
    |doc, over, tok| {
        let others = doc.decisions.iter_mut().filter(|g| !g.is_current).rev();
        clear_until(others.flat_map(|g| g.entries.iter_mut().rev()).map(|e| &mut e.rationale), over, tok)
    },
    |doc, over, tok| {
        // Decisions of ancestors and the pinned ones, the last group's oldest first.
        let Some(group) = doc.decisions.iter_mut().rev().find(|g| !g.is_current) else {
            return false;
        };
        pop_until(&mut group.entries, over, |e| tok.count(&e.title) + tok.count(&e.rationale) + 8);
        doc.decisions.retain(|g| !g.entries.is_empty());
        true
    },
    |doc, over, tok| {
        let current =
            doc.decisions.iter_mut().filter(|g| g.is_current).flat_map(|g| g.entries.iter_mut().rev());
        clear_until(current.map(|e| &mut e.rationale), over, tok)
    },
    |doc, over, tok| pop_until(&mut doc.navigation.related, over, |r| tok.count(&r.description) + 6),
    |doc, over, tok| pop_until(&mut doc.files, over, |f| tok.count(&f.name) + 4),
    |doc, over, tok| doc.boot.as_mut().is_some_and(|boot| shorten(&mut boot.content, over, tok)),
    |doc, over, tok| clear_until(doc.subfolders.iter_mut().rev().map(|s| &mut s.description), over, tok),
    |doc, over, tok| shorten(&mut doc.current.content, over, tok),
    |doc, over, tok| {
        let Some(group) = doc.decisions.iter_mut().find(|g| g.is_current) else {
            return false;
        };
        pop_until(&mut group.entries, over, |e| tok.count(&e.title) + 8);
        doc.decisions.retain(|g| !g.entries.is_empty());
        true
    },
    |doc, over, tok| pop_until(&mut doc.subfolders, over, |s| tok.count(&s.name) + 6),
    |doc, over, tok| pop_until(&mut doc.navigation.children, over, |c| tok.count(c) + 1),
    |doc, _, _| {
        // The scope chain between the root and the parent, nearest the root first.
        if doc.scope_chain.len() > 2 {
            doc.scope_chain.remove(1);
            true
        } else {
            false
        }
    },
    |doc, _, _| doc.boot.take().is_some(),
    |doc, _, _| doc.scope_chain.pop().is_some(),
    |doc, _, _| doc.navigation.parent.take().is_some(),
];

/// Remove items from the end of `list` until their estimated cost covers
/// `over` (at least one). False when the list is empty.
fn pop_until<T>(list: &mut Vec<T>, over: usize, cost: impl Fn(&T) -> usize) -> bool {
    if list.is_empty() {
        return false;
    }
    let mut removed = 0;
    while let Some(item) = list.pop() {
        removed += cost(&item);
        if removed >= over {
            break;
        }
    }
    true
}

/// Empty texts in order until their cost covers `over`. False when all are empty.
fn clear_until<'a>(texts: impl Iterator<Item = &'a mut String>, over: usize, tok: &dyn Tokenizer) -> bool {
    let mut removed = 0;
    let mut any = false;
    for text in texts.filter(|t| !t.is_empty()) {
        removed += tok.count(text);
        text.clear();
        any = true;
        if removed >= over {
            break;
        }
    }
    any
}

/// Cut `text` by `over` tokens (and a little more for the marker), or drop
/// it when what would remain is a stub. False when it is already empty.
fn shorten(text: &mut String, over: usize, tok: &dyn Tokenizer) -> bool {
    if text.is_empty() {
        return false;
    }
    let tokens = tok.count(text);
    let keep = tokens.saturating_sub(over + 4);
    if keep < MIN_USEFUL_TOKENS {
        text.clear();
    } else {
        let kept = tok.truncate(text, keep).trim_end().to_string();
        *text = format!("{kept} …");
    }
    true
}

/// What `fitted` lacks compared with `original`, one line each.
fn omissions(original: &ContextDoc, fitted: &ContextDoc, tok: &dyn Tokenizer) -> Vec<String> {
    let mut notes = Vec::new();
    let count = |notes: &mut Vec<String>, what: &str, before: usize, after: usize| {
        if after < before {
            notes.push(format!("{} of {before} {what}", before - after));
        }
    };
    count(
        &mut notes,
        "sibling folders",
        original.navigation.siblings.len(),
        fitted.navigation.siblings.len(),
    );
    count(
        &mut notes,
        "file summaries",
        original.files.iter().filter(|f| !f.summary.is_empty()).count(),
        fitted.files.iter().filter(|f| !f.summary.is_empty()).count(),
    );
    let entries = |doc: &ContextDoc| doc.decisions.iter().map(|g| g.entries.len()).sum::<usize>();
    let rationales = |doc: &ContextDoc| {
        doc.decisions.iter().flat_map(|g| &g.entries).filter(|e| !e.rationale.is_empty()).count()
    };
    count(&mut notes, "decisions", entries(original), entries(fitted));
    let lost_rationales = rationales(original).saturating_sub(rationales(fitted));
    let lost_with_decisions = entries(original) - entries(fitted);
    if lost_rationales > lost_with_decisions {
        notes.push(format!("the rationale of {} shown decisions", lost_rationales - lost_with_decisions));
    }
    count(&mut notes, "related folders", original.navigation.related.len(), fitted.navigation.related.len());
    count(&mut notes, "files", original.files.len(), fitted.files.len());
    count(
        &mut notes,
        "subfolder descriptions",
        original.subfolders.iter().filter(|s| !s.description.is_empty()).count(),
        fitted.subfolders.iter().filter(|s| !s.description.is_empty()).count(),
    );
    count(&mut notes, "subfolders", original.subfolders.len(), fitted.subfolders.len());
    count(
        &mut notes,
        "child folder names",
        original.navigation.children.len(),
        fitted.navigation.children.len(),
    );
    count(&mut notes, "scope chain entries", original.scope_chain.len(), fitted.scope_chain.len());
    let text = |notes: &mut Vec<String>, what: &str, before: &str, after: Option<&str>| match after {
        _ if before.is_empty() => {}
        None | Some("") => notes.push(format!("{what} ({} tokens)", tok.count(before))),
        Some(after) if after != before => {
            notes.push(format!("{what} cut to {} of {} tokens", tok.count(after), tok.count(before)))
        }
        Some(_) => {}
    };
    let boot_content = |doc: &ContextDoc| doc.boot.as_ref().map(|b| b.content.clone());
    let (boot_before, boot_after) = (boot_content(original).unwrap_or_default(), boot_content(fitted));
    text(&mut notes, "the project's context", &boot_before, boot_after.as_deref());
    text(&mut notes, "this folder's context", &original.current.content, Some(&fitted.current.content));
    if original.boot.is_some() && fitted.boot.is_none() {
        notes.push("the project boot".into());
    }
    if original.navigation.parent.is_some() && fitted.navigation.parent.is_none() {
        notes.push("the parent link".into());
    }
    notes
}
