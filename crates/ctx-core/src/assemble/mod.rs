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
//!    the others by score (`select::ancestor_score`), each that fits the
//!    budget left; shown root first. The rest are counted as omitted.
//! 4. **Siblings**: completed and failed siblings scored by relevance to the
//!    current goal (`select::sibling_score`); those under the minimum
//!    score are filtered out, the rest chosen by score within the siblings
//!    budget and shown most recent first. The task prompt lists every
//!    completed sibling (most recent first) and the remaining ones as titles.
//! 5. **Document**: the items placed in the rendering's document, counted
//!    whole; over the total (the structure cost more than its share), the
//!    least valuable items go, then the current frame and the parent are
//!    cut further. The text never exceeds the total; a budget too small for
//!    even the shortest document is [`Error::ContextTooLarge`].
//!
//! Every cut text ends with the marker ` …[truncated]` and is counted
//! (XML: `truncated="true"`), and every count of what was left out reaches
//! the output and the [`AssemblyReport`].

pub(crate) mod cache;
mod choose;
mod inputs;
mod render;
pub(crate) mod select;

use serde::{Deserialize, Serialize};

use crate::budget::{Budget, BudgetSources};
use crate::error::{Error, Result};
use crate::templates::Templates;
use crate::tokens::Tokenizer;
use crate::wording::count;
pub use cache::CacheReport;
pub(crate) use inputs::{FrameInput, Inputs};

use choose::{Chosen, choose_ancestors, choose_siblings, fit_item, lowest};
pub(crate) use render::templates_of;

use render::{DocView, Renderer, SectionView, TruncationView};

/// How an assembled context is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AncestorCounts {
    pub total: usize,
    pub included: usize,
    /// Left out for want of room (or, in the prompt, above the epic).
    pub omitted: usize,
}

/// Stable JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubframeCounts {
    /// Completed and failed children.
    pub total: usize,
    /// Shown in the current frame, most recent first.
    pub included: usize,
    pub omitted: usize,
}

/// What an assembly is made with besides its inputs.
pub(crate) struct Settings<'a> {
    pub budget: Budget,
    pub budget_sources: BudgetSources,
    pub min_sibling_score: f64,
    pub tok: &'a dyn Tokenizer,
    pub templates: &'a Templates,
}

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
            too_small(format!(
                "the current budget ({}) cannot hold the current frame",
                count(budget.current, "token")
            ))
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
        "the total budget ({}) cannot hold even the shortest context of {}",
        count(budget.total, "token"),
        frame.id
    )))
}

fn too_small(message: String) -> Error {
    Error::ContextTooLarge(format!(
        "{message}; raise the budget (CTX_TOKEN_BUDGET_* or [budget] in .ctx/config.toml)"
    ))
}

#[cfg(test)]
mod tests {
    // The pipeline on trees made in memory: selection rules, and a property
    // test that no tree, text or budget makes a rendering exceed its total or
    // stop being valid XML or JSON.

    use std::path::Path;

    use super::*;
    use crate::frames::{Attempt, FrameStatus};
    use crate::tokens::{CharEstimate, O200k};

    const HOUR: i64 = 3_600_000;
    const NOW: i64 = 1_800_000_000_000;

    fn frame(seq: i64, goal: &str, status: FrameStatus) -> FrameInput {
        FrameInput {
            id: format!("F{seq}"),
            seq,
            frame_type: "frame".into(),
            title: goal.lines().next().unwrap_or_default().to_string(),
            goal: goal.into(),
            status,
            changed_ms: NOW - 48 * HOUR,
            ..FrameInput::default()
        }
    }

    fn templates(rendering: Rendering) -> Templates {
        Templates::load(Path::new("/nonexistent/ctx-templates"), &templates_of(rendering)).unwrap()
    }

    fn run(
        inputs: &Inputs,
        rendering: Rendering,
        budget: Budget,
        tok: &dyn Tokenizer,
    ) -> Result<(String, AssemblyReport)> {
        let templates = templates(rendering);
        let sources = BudgetSources {
            total: "default".into(),
            ancestors: "default".into(),
            siblings: "default".into(),
            current: "default".into(),
            overhead: "default".into(),
        };
        let settings =
            Settings { budget, budget_sources: sources, min_sibling_score: 30.0, tok, templates: &templates };
        assemble(inputs, rendering, &settings)
    }

    /// A chain of `depth` ancestors above F{depth+1}, each with a summary.
    fn chain(depth: i64) -> Inputs {
        let ancestors = (1..=depth)
            .map(|seq| {
                let mut a = frame(seq, &format!("Level {seq} of the plan"), FrameStatus::InProgress);
                a.summary = format!("What level {seq} found out. ").repeat(20);
                a
            })
            .collect();
        Inputs {
            focus: frame(depth + 1, "Build the API routes", FrameStatus::InProgress),
            ancestors,
            now_ms: NOW,
            ..Default::default()
        }
    }

    /// The ids of the `<frame>` elements under element `section` of the XML.
    fn ids_in(xml: &str, section: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(xml).unwrap();
        let node = doc.descendants().find(|n| n.has_tag_name(section)).unwrap();
        node.children()
            .filter(|n| n.has_tag_name("frame"))
            .map(|n| n.attribute("id").unwrap().to_string())
            .collect()
    }

    #[test]
    fn the_parent_is_always_kept_and_ancestors_stay_root_first() {
        let inputs = chain(40);
        let budget = Budget { total: 1500, ancestors: 600, siblings: 300, current: 300, overhead: 200 };
        let (xml, report) = run(&inputs, Rendering::Xml, budget, &O200k).unwrap();
        let ids = ids_in(&xml, "ancestors");
        assert_eq!(ids.last().map(String::as_str), Some("F40"), "{xml}");
        let seqs: Vec<i64> = ids.iter().map(|id| id[1..].parse().unwrap()).collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "root first: {seqs:?}");
        // The root states the mission: it outlasts the middle of the chain.
        assert_eq!(seqs.first(), Some(&1), "{seqs:?}");
        assert!(report.ancestors.omitted > 0 && report.ancestors.omitted + ids.len() == 40, "{report:?}");
        assert!(xml.contains(&format!("ancestors-omitted=\"{}\"", report.ancestors.omitted)), "{xml}");
        assert!(report.tokens.ancestors <= budget.ancestors, "{report:?}");

        // Even a parent far over the ancestors budget is kept, cut.
        let mut inputs = chain(3);
        inputs.ancestors[2].goal = "An enormous goal. ".repeat(2000);
        let (xml, report) = run(&inputs, Rendering::Xml, budget, &O200k).unwrap();
        assert_eq!(ids_in(&xml, "ancestors").last().map(String::as_str), Some("F3"));
        assert!(xml.contains("<goal truncated=\"true\">An enormous goal."), "{xml}");
        assert!(xml.contains(select::TRUNCATION_MARKER.trim()), "{xml}");
        assert!(report.fields_truncated >= 1 && report.tokens.ancestors <= budget.ancestors, "{report:?}");
    }

    #[test]
    fn irrelevant_siblings_are_filtered_and_counted() {
        let mut inputs = chain(1);
        inputs.focus.artifacts = vec!["src/api/routes.rs".into()];
        let relevant = ["Route table for the API", "Session routes", "Auth middleware"];
        let mut seq = 10;
        for goal in relevant {
            let mut s = frame(seq, goal, FrameStatus::Completed);
            if goal.starts_with("Auth") {
                s.artifacts = vec!["src/api/*".into()];
            }
            inputs.siblings.push(s);
            seq += 1;
        }
        for goal in ["Write the changelog", "Bump the version", "Tidy the README", "Logo colours"] {
            let mut s = frame(seq, goal, FrameStatus::Completed);
            s.summary = "Done and dusted.".into();
            inputs.siblings.push(s);
            seq += 1;
        }
        // Planned and in-progress siblings are not candidates at all.
        inputs.siblings.push(frame(seq, "API routes, part two", FrameStatus::Planned));
        // One irrelevant sibling that ended minutes ago: recency alone carries it.
        let mut recent = frame(seq + 1, "Update the licence", FrameStatus::Completed);
        recent.changed_ms = NOW - 60_000;
        inputs.siblings.push(recent);

        let (xml, report) = run(&inputs, Rendering::Xml, Budget::default(), &O200k).unwrap();
        let shown = ids_in(&xml, "completed-siblings");
        assert_eq!(report.siblings.candidates, 8);
        assert_eq!(report.siblings.filtered, 4, "{report:?}");
        assert_eq!(shown.len(), 4, "{shown:?}");
        // Most recent first.
        assert_eq!(shown[0], format!("F{}", seq + 1));
        assert!(xml.contains("siblings-filtered=\"4\"") && xml.contains("filtered=\"4\""), "{xml}");
    }

    #[test]
    fn siblings_past_their_budget_are_omitted_not_filtered() {
        let mut inputs = chain(1);
        for seq in 10..200 {
            let mut s = frame(seq, &format!("API route number {seq}"), FrameStatus::Completed);
            s.summary = "Added the route with its handler, tests and docs. ".repeat(4);
            inputs.siblings.push(s);
        }
        let budget = Budget::default();
        let (xml, report) = run(&inputs, Rendering::Xml, budget, &O200k).unwrap();
        assert_eq!(report.siblings.filtered, 0);
        assert!(report.siblings.omitted > 100, "{report:?}");
        assert_eq!(ids_in(&xml, "completed-siblings").len(), report.siblings.included);
        assert!(report.tokens.siblings <= budget.siblings, "{report:?}");
        // What the report says a section costs is what its items cost in the text.
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let section = doc.descendants().find(|n| n.has_tag_name("completed-siblings")).unwrap();
        let items =
            &xml[section.first_child().unwrap().range().end..section.last_child().unwrap().range().start];
        assert!(O200k.count(items) <= budget.siblings + 2, "{}", O200k.count(items));
    }

    #[test]
    fn the_prompt_lists_completed_siblings_newest_first_and_the_rest_by_title() {
        let mut inputs = chain(1);
        inputs.ancestors[0].frame_type = "epic".into();
        inputs.ancestors[0].goal = "word ".repeat(400);
        inputs.focus.frame_type = "task".into();
        for (seq, status, age) in [
            (3, FrameStatus::Completed, 5),
            (4, FrameStatus::Completed, 1),
            (5, FrameStatus::Failed, 2),
            (6, FrameStatus::Planned, 0),
        ] {
            let mut s = frame(seq, &format!("Task {seq}"), status);
            s.changed_ms = NOW - age * HOUR;
            inputs.siblings.push(s);
        }
        inputs.attempts = vec![
            Attempt {
                id: "A-1".into(),
                number: 1,
                reason: "tests timed out".into(),
                observations: vec![],
                avoid: vec![],
                ts: String::new(),
            },
            Attempt {
                id: "A-2".into(),
                number: 2,
                reason: "flaky network in CI".into(),
                observations: vec!["the mock server starts late".into()],
                avoid: vec!["sleeping in tests".into()],
                ts: String::new(),
            },
        ];
        let (prompt, report) = run(&inputs, Rendering::Prompt, Budget::default(), &O200k).unwrap();
        let completed = prompt.find("Completed tasks in this epic:").unwrap();
        let remaining = prompt.find("Remaining tasks after this one:").unwrap();
        let (f4, f3) = (prompt.find("- F4: Task 4").unwrap(), prompt.find("- F3: Task 3").unwrap());
        assert!(completed < f4 && f4 < f3 && f3 < remaining, "{prompt}");
        assert!(prompt[remaining..].contains("- F5: Task 5") && prompt[remaining..].contains("- F6: Task 6"));
        // The epic's description is cut to about 200 words.
        assert!(
            prompt.contains(&format!("{}{}", "word ".repeat(200).trim_end(), select::TRUNCATION_MARKER)),
            "{prompt}"
        );
        // The retry carries the last failure, and what failed before.
        for expected in [
            "## PREVIOUS ATTEMPT",
            "(attempt 2)",
            "Failure reason: flaky network in CI",
            "- the mock server starts late",
            "- sleeping in tests",
            "- attempt 1: tests timed out",
        ] {
            assert!(prompt.contains(expected), "{expected} in {prompt}");
        }
        assert_eq!((report.siblings.included, report.siblings.remaining_included), (2, 2));
    }

    #[test]
    fn finished_subframes_are_shown_in_the_current_frame_most_recent_first() {
        let mut inputs = chain(1);
        for seq in 10..60 {
            let mut child = frame(seq, &format!("Sub-step {seq}"), FrameStatus::Completed);
            child.summary = format!("Found out thing {seq}. ").repeat(3);
            child.changed_ms = NOW - (100 - seq) * 60_000;
            inputs.children.push(child);
        }
        inputs.children.sort_by_key(|c| std::cmp::Reverse(c.changed_ms));
        let budget = Budget::default();
        let (xml, report) = run(&inputs, Rendering::Xml, budget, &O200k).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let subframes = doc.descendants().find(|n| n.has_tag_name("subframes")).unwrap();
        let ids: Vec<&str> = subframes.children().filter_map(|n| n.attribute("id")).collect();
        assert_eq!(ids.first(), Some(&"F59"), "most recent first: {ids:?}");
        assert_eq!(report.subframes.total, 50);
        assert!(
            report.subframes.included == ids.len() && report.subframes.omitted == 50 - ids.len(),
            "{report:?}"
        );
        assert!(report.subframes.omitted > 0 && report.tokens.current <= budget.current, "{report:?}");
        assert_eq!(subframes.attribute("omitted"), Some(report.subframes.omitted.to_string().as_str()));
    }

    #[test]
    fn a_long_epic_says_how_many_tasks_the_prompt_left_out() {
        let mut inputs = chain(1);
        for seq in 10..400 {
            let status = if seq % 3 == 0 { FrameStatus::Planned } else { FrameStatus::Completed };
            inputs.siblings.push(frame(seq, &format!("Port module number {seq} to the new API"), status));
        }
        let budget = Budget::default();
        let (prompt, report) = run(&inputs, Rendering::Prompt, budget, &O200k).unwrap();
        let s = report.siblings;
        assert!(s.omitted > 0 && s.remaining_omitted > 0, "{s:?}");
        assert_eq!(s.included + s.omitted, 260);
        assert!(prompt.contains(&format!("- … and {} more\n", s.omitted)), "{prompt}");
        assert!(prompt.contains(&format!("- … and {} more\n", s.remaining_omitted)), "{prompt}");
        assert!(
            report.tokens.siblings <= budget.siblings && report.tokens.total <= budget.total,
            "{report:?}"
        );
    }

    /// A small deterministic generator, so proptest shrinks parameters, not megabytes.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }

        /// Text of up to about `max_len` characters: words, markup XML must
        /// escape, control characters, quotes, emoji, long runs.
        fn text(&mut self, max_len: usize) -> String {
            let len = self.below(max_len);
            const PIECES: &[&str] = &[
                "route",
                "session",
                "API",
                "<tag>",
                "&amp;",
                "\"quoted\"",
                "it's",
                "\u{1}",
                "\u{b}",
                "\u{FFFF}",
                "🚀",
                "ünïcödé",
                "\n",
                "  ",
                "]]>",
                "--",
                "{{handlebars}}",
                "snake_case",
                "camelCase",
                "\t",
                "/src/api/*",
            ];
            let mut out = String::new();
            while out.len() < len {
                if self.below(200) == 0 {
                    out.push_str(&"x".repeat(self.below(3000)));
                } else {
                    out.push_str(PIECES[self.below(PIECES.len())]);
                }
                out.push(' ');
            }
            out
        }

        fn frame(&mut self, seq: i64, long: bool) -> FrameInput {
            let len = if long { 20_000 } else { 200 };
            let statuses = FrameStatus::ALL;
            FrameInput {
                id: format!("F{seq}"),
                seq,
                frame_type: ["frame", "task", "epic"][self.below(3)].into(),
                title: self.text(60).replace('\n', " "),
                goal: self.text(len),
                status: statuses[self.below(statuses.len())],
                summary: if self.below(2) == 0 { String::new() } else { self.text(len) },
                artifacts: (0..self.below(4)).map(|i| format!("src/m{}/f{i}.rs", self.below(5))).collect(),
                criteria: (0..self.below(4)).map(|_| self.text(80).replace('\n', " ")).collect(),
                changed_ms: NOW - self.below(100) as i64 * HOUR / 4,
            }
        }
    }

    fn random_inputs(seed: u64, depth: usize, siblings: usize, long_every: usize) -> Inputs {
        let mut rng = Rng(seed | 1);
        let mut seq = 0;
        // One frame in 16^long_every has long texts (long_every 0: none).
        let mut next = |rng: &mut Rng| {
            seq += 1;
            let long = long_every > 0 && rng.below(16usize.pow(long_every as u32)) == 0;
            rng.frame(seq, long)
        };
        let ancestors = (0..depth).map(|_| next(&mut rng)).collect();
        let focus = next(&mut rng);
        let siblings = (0..siblings).map(|_| next(&mut rng)).collect();
        let decisions = (0..rng.below(30)).map(|_| rng.text(200)).collect();
        let attempts = (0..rng.below(3))
            .map(|i| Attempt {
                id: format!("A-{i}"),
                number: i + 1,
                reason: rng.text(300),
                observations: (0..rng.below(5)).map(|_| rng.text(100)).collect(),
                avoid: (0..rng.below(3)).map(|_| rng.text(50)).collect(),
                ts: String::new(),
            })
            .collect();
        let children = (0..rng.below(40)).map(|_| next(&mut rng)).collect();
        Inputs { focus, decisions, attempts, ancestors, siblings, children, now_ms: NOW }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

        #[test]
        fn no_tree_breaks_the_budget_or_the_format(
            seed in proptest::prelude::any::<u64>(),
            depth in proptest::prop_oneof![0usize..8, 990usize..=1000],
            siblings in proptest::prop_oneof![0usize..50, 9_990usize..=10_000],
            long_every in 0usize..3,
            shares in (50usize..3000, 50usize..3000, 50usize..2000, 50usize..400),
            slack in 0usize..2000,
            estimate in proptest::prelude::any::<bool>(),
        ) {
            let inputs = random_inputs(seed, depth, siblings, long_every);
            let (ancestors, siblings_share, current, overhead) = shares;
            let budget = Budget {
                total: ancestors + siblings_share + current + overhead + slack,
                ancestors,
                siblings: siblings_share,
                current,
                overhead,
            };
            let tok: &dyn Tokenizer = if estimate { &CharEstimate } else { &O200k };
            for rendering in [Rendering::Xml, Rendering::Json, Rendering::Md, Rendering::Prompt] {
                let (text, report) = match run(&inputs, rendering, budget, tok) {
                    Ok(done) => done,
                    // A budget too small for the shortest context says so (a
                    // small total, or a current share too small for the
                    // current frame at its shortest); it never overflows.
                    Err(Error::ContextTooLarge(message)) => {
                        let small = budget.total < 600 || (budget.current < 150 && message.contains("current budget"));
                        proptest::prop_assert!(small, "{:?}: {}", rendering, message);
                        continue;
                    }
                    Err(err) => panic!("{rendering:?}: {err}"),
                };
                let tokens = tok.count(&text);
                proptest::prop_assert!(tokens <= budget.total, "{:?}: {} > {}", rendering, tokens, budget.total);
                proptest::prop_assert_eq!(tokens, report.tokens.total);
                proptest::prop_assert!(report.tokens.current <= budget.current);
                proptest::prop_assert!(report.tokens.ancestors <= budget.ancestors);
                proptest::prop_assert!(report.tokens.siblings <= budget.siblings);
                match rendering {
                    Rendering::Xml => {
                        let doc = roxmltree::Document::parse(&text);
                        proptest::prop_assert!(doc.is_ok(), "{:?}\n{}", doc.err(), text);
                        let doc = doc.unwrap();
                        let parent = doc.descendants().find(|n| n.has_tag_name("ancestors")).unwrap()
                            .children().rfind(|n| n.has_tag_name("frame")).and_then(|n| n.attribute("id"));
                        proptest::prop_assert_eq!(parent, inputs.ancestors.last().map(|a| a.id.as_str()));
                    }
                    Rendering::Json => {
                        let value: std::result::Result<serde_json::Value, _> = serde_json::from_str(&text);
                        proptest::prop_assert!(value.is_ok(), "{:?}\n{}", value.err(), text);
                    }
                    _ => {}
                }
            }
        }
    }
}
