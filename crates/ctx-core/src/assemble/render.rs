//! The renderings of one assembled context: XML (the flame seed's shape),
//! markdown, JSON, and the cub task prompt.
//!
//! Each ancestor, sibling and the current frame is rendered on its own (an
//! [`Item`]) and counted, so that selection knows exactly what each costs in
//! the text that will be printed; the document then places the items'
//! texts as they are. XML, markdown and the prompt go through the
//! handlebars templates (overridable, see [`crate::templates`]); JSON is
//! written with serde, one frame per line.

use std::borrow::Cow;

use serde::Serialize;

use super::select::{cut_tokens, cut_words};
use super::{FrameInput, Inputs, Rendering};
use crate::budget::Budget;
use crate::error::Result;
use crate::frames::FrameStatus;
use crate::paths::display_name;
use crate::templates::Templates;
use crate::tokens::Tokenizer;

/// Field caps are scaled in steps of 1/[`FULL_SCALE`] when an item must shrink.
pub(crate) const FULL_SCALE: usize = 64;

/// A prompt's epic description is cut to about this many words (cub's "~200 words").
const EPIC_WORDS: usize = 200;

/// The templates a rendering uses: (document, ancestor, sibling, current).
fn template_names(rendering: Rendering) -> [&'static str; 4] {
    match rendering {
        Rendering::Xml => {
            ["frame-context.xml.hbs", "frame.xml.hbs", "frame.xml.hbs", "current-frame.xml.hbs"]
        }
        Rendering::Md => ["frame-context.md.hbs", "frame.md.hbs", "frame.md.hbs", "current-frame.md.hbs"],
        Rendering::Prompt => {
            ["task-prompt.md.hbs", "task-epic.md.hbs", "task-line.md.hbs", "task-current.md.hbs"]
        }
        Rendering::Json => ["", "", "", ""],
    }
}

/// The prompt's previous-attempt section, counted with the current task.
const ATTEMPT_TEMPLATE: &str = "task-attempt.md.hbs";

/// The templates `rendering` loads (none for JSON).
pub(crate) fn templates_of(rendering: Rendering) -> Vec<&'static str> {
    let mut names: Vec<&str> = template_names(rendering).into_iter().filter(|n| !n.is_empty()).collect();
    if rendering == Rendering::Prompt {
        names.push(ATTEMPT_TEMPLATE);
    }
    names.dedup();
    names
}

/// One rendered ancestor, sibling or current frame.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub text: String,
    /// The prompt's current task: its previous-attempt section, placed apart.
    pub attempt: Option<String>,
    /// Of `text` and `attempt`.
    pub tokens: usize,
    /// How many of its fields were cut.
    pub truncated: usize,
    /// The current frame: how many of its finished subframes it shows.
    pub subframes: usize,
}

/// An ancestor or sibling as its template sees it.
#[derive(Debug, Serialize)]
struct FrameView<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    frame_type: &'a str,
    status: FrameStatus,
    /// Only when it says more than the goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    goal: String,
    #[serde(skip_serializing_if = "is_false")]
    goal_truncated: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    summary: String,
    #[serde(skip_serializing_if = "is_false")]
    summary_truncated: bool,
    /// Joined with ", ".
    #[serde(skip_serializing_if = "String::is_empty")]
    artifacts: String,
    #[serde(skip_serializing_if = "is_false")]
    artifacts_truncated: bool,
}

/// The current frame as its template sees it.
#[derive(Debug, Serialize)]
struct CurrentView<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    frame_type: &'a str,
    status: FrameStatus,
    title: String,
    /// The title says more than the goal's start.
    #[serde(skip_serializing_if = "is_false")]
    show_title: bool,
    /// The goal is the title (a task added without a description).
    #[serde(skip_serializing_if = "is_false")]
    goal_is_title: bool,
    goal: String,
    #[serde(skip_serializing_if = "is_false")]
    goal_truncated: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    summary: String,
    #[serde(skip_serializing_if = "is_false")]
    summary_truncated: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    criteria: Vec<String>,
    #[serde(skip_serializing_if = "is_false")]
    criteria_truncated: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    artifacts: String,
    #[serde(skip_serializing_if = "is_false")]
    artifacts_truncated: bool,
    /// Newest first, joined with "; ".
    #[serde(skip_serializing_if = "String::is_empty")]
    decisions: String,
    #[serde(skip_serializing_if = "is_false")]
    decisions_truncated: bool,
    /// Its finished child frames, most recent first: what its own sub-work found.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    subframes: Vec<SubframeView>,
    subframes_omitted: usize,
    /// The last failed attempt, when this is a retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_attempt: Option<AttemptView>,
}

/// A finished child of the current frame.
#[derive(Debug, Serialize)]
struct SubframeView {
    id: String,
    status: FrameStatus,
    goal: String,
    #[serde(skip_serializing_if = "is_false")]
    goal_truncated: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    summary: String,
    #[serde(skip_serializing_if = "is_false")]
    summary_truncated: bool,
}

#[derive(Debug, Serialize)]
struct AttemptView {
    /// Which attempt it was (1 for the first).
    number: usize,
    reason: String,
    observations: Vec<String>,
    /// What not to do again: what the attempt said, and earlier attempts' reasons.
    avoid: Vec<String>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// Counts a document shows.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct SectionView {
    pub count: usize,
    pub omitted: usize,
    pub filtered: usize,
    /// Rendered items, in display order.
    pub items: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct TruncationView {
    pub ancestors_omitted: usize,
    pub siblings_filtered: usize,
    pub siblings_omitted: usize,
    pub fields_truncated: usize,
}

/// What a document template sees.
#[derive(Debug, Serialize)]
pub(crate) struct DocView<'a> {
    pub frame: &'a str,
    pub title: &'a str,
    #[serde(rename = "type")]
    pub frame_type: &'a str,
    pub budget: Budget,
    pub truncation: TruncationView,
    pub ancestors: SectionView,
    pub siblings: SectionView,
    /// The prompt's remaining (not completed) sibling tasks.
    pub remaining: SectionView,
    /// The prompt's epic: the rendered parent.
    pub epic: Option<String>,
    pub current: String,
    /// The prompt's previous-attempt section, on a retry.
    pub previous_attempt: Option<String>,
}

/// Renders the items and the document of one rendering.
pub(crate) struct Renderer<'a> {
    pub rendering: Rendering,
    templates: &'a Templates,
    tok: &'a dyn Tokenizer,
    budget: Budget,
}

impl<'a> Renderer<'a> {
    pub fn new(
        rendering: Rendering,
        templates: &'a Templates,
        tok: &'a dyn Tokenizer,
        budget: Budget,
    ) -> Self {
        Renderer { rendering, templates, tok, budget }
    }

    /// An ancestor, its fields cut to their caps scaled by `scale`/[`FULL_SCALE`].
    pub fn ancestor(&self, frame: &FrameInput, scale: usize) -> Result<Item> {
        let b = self.budget.ancestors;
        if self.rendering == Rendering::Prompt {
            return self.epic(frame, scale);
        }
        self.frame_item(frame, 1, [b / 6, b / 4, b / 10], scale)
    }

    /// A completed sibling (for the prompt: one line).
    pub fn sibling(&self, frame: &FrameInput, scale: usize) -> Result<Item> {
        let b = self.budget.siblings;
        if self.rendering == Rendering::Prompt {
            return self.line(frame, scale);
        }
        self.frame_item(frame, 2, [b / 8, b / 6, b / 10], scale)
    }

    /// A remaining sibling task of the prompt: one line.
    pub fn remaining(&self, frame: &FrameInput, scale: usize) -> Result<Item> {
        self.line(frame, scale)
    }

    fn frame_item(
        &self,
        frame: &FrameInput,
        template: usize,
        caps: [usize; 3],
        scale: usize,
    ) -> Result<Item> {
        let [goal_cap, summary_cap, artifacts_cap] = caps.map(|cap| scaled(cap, scale));
        let (goal, goal_truncated) = cut_tokens(self.tok, &frame.goal, goal_cap);
        let (summary, summary_truncated) = cut_tokens(self.tok, &frame.summary, summary_cap);
        let (artifacts, artifacts_truncated) = cut_tokens(self.tok, &self.artifacts(frame), artifacts_cap);
        let view = FrameView {
            id: &frame.id,
            frame_type: &frame.frame_type,
            status: frame.status,
            title: shows_title(frame).then(|| cut_tokens(self.tok, &frame.title, goal_cap).0),
            goal,
            goal_truncated,
            summary,
            summary_truncated,
            artifacts,
            artifacts_truncated,
        };
        let truncated =
            [goal_truncated, summary_truncated, artifacts_truncated].iter().filter(|t| **t).count();
        self.item(template, &view, truncated)
    }

    /// The frame's artifacts on one line. They are paths: markdown shows
    /// them as [`display_name`] does; XML escapes them itself, JSON keeps them.
    fn artifacts(&self, frame: &FrameInput) -> String {
        let markdown = matches!(self.rendering, Rendering::Md | Rendering::Prompt);
        let shown = frame
            .artifacts
            .iter()
            .map(|a| if markdown { display_name(a) } else { Cow::Borrowed(a.as_str()) });
        shown.collect::<Vec<_>>().join(", ")
    }

    fn epic(&self, frame: &FrameInput, scale: usize) -> Result<Item> {
        let (words, cut_by_words) = cut_words(&frame.goal, EPIC_WORDS);
        let (goal, cut_by_tokens) = cut_tokens(self.tok, &words, scaled(self.budget.ancestors, scale));
        let (title, _) = cut_tokens(self.tok, &frame.title, scaled(self.budget.ancestors / 4, scale));
        let view = serde_json::json!({
            "id": frame.id, "type": frame.frame_type, "status": frame.status, "title": title,
            "goal": goal, "goal_truncated": cut_by_words || cut_by_tokens,
            "goal_is_title": frame.goal == frame.title,
        });
        self.item(1, &view, usize::from(cut_by_words || cut_by_tokens))
    }

    fn line(&self, frame: &FrameInput, scale: usize) -> Result<Item> {
        let (title, truncated) = cut_tokens(self.tok, &frame.title, scaled(self.budget.siblings / 10, scale));
        let view = serde_json::json!({ "id": frame.id, "type": frame.frame_type, "status": frame.status, "title": title });
        self.item(2, &view, usize::from(truncated))
    }

    /// The current frame: goal, summary, criteria, artifacts, decisions,
    /// finished subframes (and, in the prompt, the previous attempt), each cut
    /// to its share of the current budget scaled by `scale`/[`FULL_SCALE`].
    pub fn current(&self, inputs: &Inputs, scale: usize) -> Result<Item> {
        let b = self.budget.current;
        let cap = |share: usize| scaled(b / share, scale);
        let templated = self.rendering != Rendering::Json;
        let frame = &inputs.focus;
        let (goal, goal_truncated) = cut_tokens(self.tok, &frame.goal, cap(2));
        let (summary, summary_truncated) = cut_tokens(self.tok, &frame.summary, cap(4));
        let (criteria, criteria_truncated) = self.cut_list(&frame.criteria, cap(4));
        let (artifacts, artifacts_truncated) = cut_tokens(self.tok, &self.artifacts(frame), cap(8));
        let (decisions, decisions_truncated) = cut_tokens(self.tok, &inputs.decisions.join("; "), cap(4));
        let previous_attempt =
            if self.rendering == Rendering::Prompt && frame.status != FrameStatus::Completed {
                self.previous_attempt(inputs, cap(4))
            } else {
                None
            };
        let attempt_truncated = previous_attempt.as_ref().is_some_and(|a| a.truncated);
        let (subframes, subframes_truncated) = self.subframes(&inputs.children, cap(4));
        let truncated = [
            goal_truncated,
            summary_truncated,
            criteria_truncated,
            artifacts_truncated,
            decisions_truncated,
            attempt_truncated,
        ]
        .iter()
        .filter(|t| **t)
        .count()
            + subframes_truncated;
        let shown_subframes = subframes.len();
        let view = CurrentView {
            id: &frame.id,
            frame_type: &frame.frame_type,
            status: frame.status,
            title: cut_tokens(self.tok, &frame.title, cap(8)).0,
            // Flags for templates only: false is left out of the JSON.
            show_title: templated && shows_title(frame),
            goal_is_title: templated && frame.goal == frame.title,
            goal,
            goal_truncated,
            summary,
            summary_truncated,
            criteria,
            criteria_truncated,
            artifacts,
            artifacts_truncated,
            decisions,
            decisions_truncated,
            subframes,
            subframes_omitted: inputs.children.len() - shown_subframes,
            previous_attempt,
        };
        let mut item = self.item(3, &view, truncated)?;
        item.subframes = shown_subframes;
        if self.rendering == Rendering::Prompt
            && let Some(attempt) = &view.previous_attempt
        {
            let text = self.templates.render(ATTEMPT_TEMPLATE, attempt)?;
            item.tokens += self.tok.count(&text);
            item.attempt = Some(text);
        }
        Ok(item)
    }

    /// The finished children, most recent first, as many as fit `cap`
    /// tokens (each goal and summary cut to a share of it); and how many
    /// texts were cut.
    fn subframes(&self, children: &[FrameInput], cap: usize) -> (Vec<SubframeView>, usize) {
        /// What a subframe's id, status and markup cost besides its texts.
        const MARKUP_TOKENS: usize = 16;
        let mut shown = Vec::new();
        let (mut used, mut truncated) = (0, 0);
        for child in children {
            let (goal, goal_truncated) = cut_tokens(self.tok, &child.goal, cap / 8);
            let (summary, summary_truncated) = cut_tokens(self.tok, &child.summary, cap / 4);
            let tokens = self.tok.count(&goal) + self.tok.count(&summary) + MARKUP_TOKENS;
            if used + tokens > cap {
                break;
            }
            used += tokens;
            truncated += usize::from(goal_truncated) + usize::from(summary_truncated);
            shown.push(SubframeView {
                id: child.id.clone(),
                status: child.status,
                goal,
                goal_truncated,
                summary,
                summary_truncated,
            });
        }
        (shown, truncated)
    }

    /// The newest attempt, its texts within `cap` tokens together.
    fn previous_attempt(&self, inputs: &Inputs, cap: usize) -> Option<AttemptView> {
        let last = inputs.attempts.last()?;
        let (reason, reason_cut) = cut_tokens(self.tok, &last.reason, cap / 3);
        let (observations, observations_cut) = self.cut_list(&last.observations, cap / 3);
        let mut avoid = last.avoid.clone();
        let earlier = &inputs.attempts[..inputs.attempts.len() - 1];
        avoid.extend(earlier.iter().rev().map(|a| format!("attempt {}: {}", a.number, a.reason)));
        let (avoid, avoid_cut) = self.cut_list(&avoid, cap / 3);
        Some(AttemptView {
            number: last.number,
            reason,
            observations,
            avoid,
            truncated: reason_cut || observations_cut || avoid_cut,
        })
    }

    /// The first items of `items` that fit `cap` tokens together (at least
    /// the first, cut), and whether any was left out or cut.
    fn cut_list(&self, items: &[String], cap: usize) -> (Vec<String>, bool) {
        let mut kept = Vec::new();
        let mut used = 0;
        for item in items {
            let tokens = self.tok.count(item) + 1;
            if used + tokens > cap {
                let (cut, _) = cut_tokens(self.tok, item, cap.saturating_sub(used + 1));
                if kept.is_empty() && !cut.is_empty() {
                    kept.push(cut);
                }
                return (kept, true);
            }
            used += tokens;
            kept.push(item.clone());
        }
        (kept, false)
    }

    /// Render item `template` (an index into [`template_names`]) with `view`, and count it.
    fn item<T: Serialize>(&self, template: usize, view: &T, truncated: usize) -> Result<Item> {
        let text = match self.rendering {
            Rendering::Json => serde_json::to_string(view).map_err(json_error)?,
            _ => self.templates.render(template_names(self.rendering)[template], view)?,
        };
        let tokens = self.tok.count(&text);
        Ok(Item { text, attempt: None, tokens, truncated, subframes: 0 })
    }

    /// The whole document.
    pub fn document(&self, doc: &DocView<'_>) -> Result<String> {
        match self.rendering {
            Rendering::Json => json_document(doc),
            _ => self.templates.render(template_names(self.rendering)[0], doc),
        }
    }
}

/// Whether a frame's title says more than the start of its goal.
fn shows_title(frame: &FrameInput) -> bool {
    !frame.goal.starts_with(frame.title.trim_end_matches('…'))
}

/// `cap` scaled by `scale`/[`FULL_SCALE`].
fn scaled(cap: usize, scale: usize) -> usize {
    cap * scale.min(FULL_SCALE) / FULL_SCALE
}

/// The JSON rendering: valid JSON, one frame a line, the frames exactly as
/// they were counted.
fn json_document(doc: &DocView<'_>) -> Result<String> {
    let json = |value: serde_json::Value| value.to_string();
    let mut out = String::new();
    out.push_str(&format!(
        "{{\"frame\":{},\"metadata\":{{\"budget\":{},\"truncation\":{}}},\n",
        json(doc.frame.into()),
        serde_json::to_string(&doc.budget).map_err(json_error)?,
        serde_json::to_string(&doc.truncation).map_err(json_error)?
    ));
    let section = |out: &mut String, name: &str, section: &SectionView, filtered: bool| {
        out.push_str(&format!("\"{name}\":{{\"count\":{},\"omitted\":{}", section.count, section.omitted));
        if filtered {
            out.push_str(&format!(",\"filtered\":{}", section.filtered));
        }
        out.push_str(",\"frames\":[");
        for (i, item) in section.items.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            out.push_str(item);
        }
        out.push_str("]},\n");
    };
    section(&mut out, "ancestors", &doc.ancestors, false);
    section(&mut out, "completed_siblings", &doc.siblings, true);
    out.push_str("\"current_frame\":");
    out.push_str(&doc.current);
    out.push_str("}\n");
    Ok(out)
}

fn json_error(err: serde_json::Error) -> crate::Error {
    crate::Error::InvalidInput(format!("cannot write JSON: {err}"))
}
