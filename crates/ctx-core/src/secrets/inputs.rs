//! What people and agents hand to ctx, redacted before it is stored: the
//! one place that knows which fields of each input are free text.

use super::Detector;
use crate::folders::FolderEdit;
use crate::frames::{NewAttempt, NewFrame, NewTask};
use crate::knowledge::items::Item;
use crate::memory::{NewRecord, Record};
use crate::records::NewDecision;

/// An input with its secrets redacted.
pub(crate) trait Redacted {
    fn redacted(&self, detector: &Detector) -> Self;
}

fn all(detector: &Detector, texts: &[String]) -> Vec<String> {
    texts.iter().map(|text| detector.redacted(text)).collect()
}

fn some(detector: &Detector, text: &Option<String>) -> Option<String> {
    text.as_deref().map(|text| detector.redacted(text))
}

impl Redacted for NewDecision {
    fn redacted(&self, d: &Detector) -> Self {
        NewDecision {
            title: d.redacted(&self.title),
            rationale: d.redacted(&self.rationale),
            tags: all(d, &self.tags),
        }
    }
}

impl Redacted for FolderEdit {
    fn redacted(&self, d: &Detector) -> Self {
        FolderEdit { description: some(d, &self.description), content_md: some(d, &self.content_md) }
    }
}

impl Redacted for NewFrame {
    fn redacted(&self, d: &Detector) -> Self {
        NewFrame { goal: d.redacted(&self.goal), title: some(d, &self.title), ..self.clone() }
    }
}

impl Redacted for NewTask {
    fn redacted(&self, d: &Detector) -> Self {
        NewTask {
            title: d.redacted(&self.title),
            description: some(d, &self.description),
            criteria: all(d, &self.criteria),
            ..self.clone()
        }
    }
}

impl Redacted for NewAttempt {
    fn redacted(&self, d: &Detector) -> Self {
        NewAttempt {
            reason: d.redacted(&self.reason),
            observations: all(d, &self.observations),
            avoid: all(d, &self.avoid),
        }
    }
}

impl Redacted for NewRecord {
    fn redacted(&self, d: &Detector) -> Self {
        NewRecord {
            text: d.redacted(&self.text),
            refs: all(d, &self.refs),
            tags: all(d, &self.tags),
            session_id: some(d, &self.session_id),
            meta: meta(d, &self.meta),
            ..self.clone()
        }
    }
}

impl Redacted for Record {
    fn redacted(&self, d: &Detector) -> Self {
        Record {
            text: d.redacted(&self.text),
            refs: all(d, &self.refs),
            tags: all(d, &self.tags),
            session_id: some(d, &self.session_id),
            meta: meta(d, &self.meta),
            ..self.clone()
        }
    }
}

/// A record's metadata, every string in it redacted (a cwd or a branch name can hold a token).
fn meta(d: &Detector, meta: &crate::memory::Meta) -> crate::memory::Meta {
    meta.iter().map(|(key, value)| (key.clone(), json_redacted(d, value))).collect()
}

fn json_redacted(d: &Detector, value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(text) => Value::String(d.redacted(text)),
        Value::Array(items) => Value::Array(items.iter().map(|v| json_redacted(d, v)).collect()),
        Value::Object(map) => Value::Object(meta(d, map)),
        other => other.clone(),
    }
}

/// A knowledge file's item: a hand edit or a merge can bring a secret in.
impl Redacted for Item {
    fn redacted(&self, d: &Detector) -> Self {
        let mut item = self.clone();
        match &mut item {
            Item::Folder(front, content) => {
                front.description = d.redacted(&front.description);
                *content = d.redacted(content);
                for related in &mut front.related {
                    related.note = d.redacted(&related.note);
                }
            }
            Item::Decision(front, rationale) => {
                front.title = d.redacted(&front.title);
                front.tags = all(d, &front.tags);
                *rationale = d.redacted(rationale);
            }
            Item::Frame(front, goal) => {
                front.title = d.redacted(&front.title);
                front.summary = d.redacted(&front.summary);
                front.criteria = all(d, &front.criteria);
                front.artifacts = all(d, &front.artifacts);
                *goal = d.redacted(goal);
                for attempt in &mut front.attempts {
                    attempt.reason = d.redacted(&attempt.reason);
                    attempt.observations = all(d, &attempt.observations);
                    attempt.avoid = all(d, &attempt.avoid);
                }
            }
            Item::Pin(_, text) => *text = d.redacted(text),
            // Slugs, a path and flags: nothing a person writes prose in.
            Item::Artifact(..) => {}
        }
        item
    }
}
