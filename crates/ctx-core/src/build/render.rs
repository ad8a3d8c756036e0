//! Rendering context docs through the handlebars templates.
//!
//! A context file is its sections in a fixed order, each rendered by its own
//! template against the whole doc: `header`, `boot`, `scope_chain`,
//! `current`, `contents`, `decisions`, `navigation`, `omitted`, `footer`.
//! Rendering sections apart lets the budget fitter re-render and recount only
//! the section it changed. Every section template is parsed up front (see
//! [`crate::templates`] for overrides), so a broken override fails the build
//! before any file is written, with an error that names the file and line.

use std::path::Path;

use handlebars::Context;
use serde_json::Value;

use super::model::ContextDoc;
use crate::error::Result;
use crate::paths::display_name;

/// The template of each section, in order.
const SECTION_TEMPLATES: [&str; 9] = [
    "header.md.hbs",
    "boot.md.hbs",
    "scope_chain.md.hbs",
    "current.md.hbs",
    "contents.md.hbs",
    "decisions.md.hbs",
    "navigation.md.hbs",
    "omitted.md.hbs",
    "footer.md.hbs",
];

/// A section's index in [`SECTION_TEMPLATES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    Header,
    Boot,
    ScopeChain,
    Current,
    Contents,
    Decisions,
    Navigation,
    Omitted,
    Footer,
}

impl Section {
    pub const ALL: [Section; 9] = [
        Section::Header,
        Section::Boot,
        Section::ScopeChain,
        Section::Current,
        Section::Contents,
        Section::Decisions,
        Section::Navigation,
        Section::Omitted,
        Section::Footer,
    ];

    fn template(self) -> &'static str {
        SECTION_TEMPLATES[self as usize]
    }
}

/// The parsed section templates of a workspace.
pub(crate) struct Templates(crate::templates::Templates);

impl Templates {
    /// The built-in section templates, with the overrides found in `overrides_dir`.
    pub fn load(overrides_dir: &Path) -> Result<Templates> {
        crate::templates::Templates::load(overrides_dir, &SECTION_TEMPLATES).map(Templates)
    }

    /// Hash of every section template's source: part of every source hash.
    pub fn digest(&self) -> &str {
        self.0.digest()
    }

    /// The data every section template sees: the doc as JSON, made once per
    /// change, with its one-line texts as [`display_name`] shows them.
    pub fn context(&self, doc: &ContextDoc) -> Result<Context> {
        let Ok(mut data) = serde_json::to_value(doc) else {
            // Plain structs always serialize; if not, the template layer reports it.
            return self.0.context(doc, Section::Header.template());
        };
        show_names(&mut data);
        mark_plain_files(&mut data);
        Ok(Context::from(data))
    }

    pub fn render_section(&self, section: Section, data: &Context) -> Result<String> {
        self.0.render_with_context(section.template(), data)
    }

    /// The whole file: every section, in order.
    pub fn render(&self, doc: &ContextDoc) -> Result<String> {
        let data = self.context(doc)?;
        Section::ALL.iter().map(|&section| self.render_section(section, &data)).collect()
    }
}

/// Mark the files a context lists by name alone (no summary, no
/// definitions, no size: `.editorconfig`, `LICENSE`, a folder of images)
/// `plain`, and gather their names in `plain_files`: the template lists
/// them on one line after the files that say something.
fn mark_plain_files(data: &mut Value) {
    let Some(files) = data.get_mut("files").and_then(Value::as_array_mut) else { return };
    let mut plain_files = Vec::new();
    for file in files.iter_mut() {
        let said = |key: &str| match file.get(key) {
            Some(Value::String(text)) => !text.is_empty(),
            Some(Value::Array(items)) => !items.is_empty(),
            Some(Value::Bool(flag)) => *flag,
            _ => false,
        };
        let plain = !said("summary") && !said("definitions") && !said("detailed") && !said("secret");
        if plain {
            plain_files.push(file.get("name").cloned().unwrap_or(Value::Null));
        }
        if let Some(fields) = file.as_object_mut() {
            fields.insert("plain".into(), Value::Bool(plain));
        }
    }
    let others = plain_files.len() < files.len();
    if let Some(fields) = data.as_object_mut() {
        fields.insert("plain_files".into(), Value::Array(plain_files));
        fields.insert("other_files".into(), Value::Bool(others));
    }
}

/// The doc's fields that hold Markdown of many lines, written by people and
/// agents: shown as written. Every other string is one line (a name, a path,
/// a title, a description) and may hold a file or folder name.
const MARKDOWN_FIELDS: [&str; 2] = ["content", "rationale"];

/// Escape the control characters of every one-line string in `value`, so a
/// name cannot start a line of its own (a fake `## Decisions`) or reach a
/// terminal as an escape sequence.
fn show_names(value: &mut Value) {
    match value {
        Value::String(text) => {
            if let std::borrow::Cow::Owned(shown) = display_name(text) {
                *text = shown;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(show_names),
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if !MARKDOWN_FIELDS.contains(&key.as_str()) {
                    show_names(field);
                }
            }
        }
        _ => {}
    }
}
