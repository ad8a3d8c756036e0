//! Rendering context docs through handlebars templates.
//!
//! A context file is its sections in a fixed order, each rendered by its own
//! template against the whole doc: `header`, `boot`, `scope_chain`,
//! `current`, `contents`, `decisions`, `navigation`, `omitted`, `footer`.
//! Rendering sections apart lets the budget fitter re-render and recount only
//! the section it changed. The built-in templates are embedded in the binary;
//! a file of the same name in `.ctx/templates/` (`contents.md.hbs`) replaces
//! one. Every template is parsed up front, so a broken override fails the
//! build before any file is written, with an error that names the file and line.

use std::path::Path;

use handlebars::{Context, Handlebars, handlebars_helper};

use super::model::ContextDoc;
use crate::error::{Error, Result};

/// The sections of a context file, in order: (name, built-in template).
pub(crate) const SECTIONS: &[(&str, &str)] = &[
    ("header", include_str!("../../templates/header.md.hbs")),
    ("boot", include_str!("../../templates/boot.md.hbs")),
    ("scope_chain", include_str!("../../templates/scope_chain.md.hbs")),
    ("current", include_str!("../../templates/current.md.hbs")),
    ("contents", include_str!("../../templates/contents.md.hbs")),
    ("decisions", include_str!("../../templates/decisions.md.hbs")),
    ("navigation", include_str!("../../templates/navigation.md.hbs")),
    ("omitted", include_str!("../../templates/omitted.md.hbs")),
    ("footer", include_str!("../../templates/footer.md.hbs")),
];

/// A section's index in [`SECTIONS`].
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

    fn name(self) -> &'static str {
        SECTIONS[self as usize].0
    }
}

/// What a template file is called, on disk and in errors.
fn file_name(name: &str) -> String {
    format!("{name}.md.hbs")
}

/// The parsed template set of a workspace.
pub(crate) struct Templates {
    registry: Handlebars<'static>,
    /// Where each template came from (`built-in context.md.hbs`, `.ctx/templates/header.md.hbs`).
    origins: Vec<(String, String)>,
    /// Hash of every template's source: part of every source hash.
    digest: String,
}

handlebars_helper!(join: |list: array, separator: str| {
    list.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect::<Vec<_>>().join(separator)
});
handlebars_helper!(indent: |text: str| text.trim_end().replace('\n', "\n  "));
handlebars_helper!(count: |n: u64, noun: str| if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") });

impl Templates {
    /// The built-in templates, with the overrides found in `overrides_dir` (if it exists).
    pub fn load(overrides_dir: &Path) -> Result<Templates> {
        let mut sources: Vec<(String, String, String)> = SECTIONS
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string(), format!("built-in {}", file_name(name))))
            .collect();
        match std::fs::read_dir(overrides_dir) {
            Ok(entries) => {
                let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
                entries.sort();
                for path in entries {
                    let Some(file) = path.file_name().and_then(|n| n.to_str()) else { continue };
                    let Some(name) = file.strip_suffix(".md.hbs") else { continue };
                    let shown = format!(".ctx/templates/{file}");
                    let Some(slot) = sources.iter_mut().find(|(n, _, _)| n == name) else {
                        let known: Vec<String> = SECTIONS.iter().map(|(n, _)| file_name(n)).collect();
                        return Err(Error::Template {
                            template: shown,
                            line: None,
                            message: format!("no such template; the templates are {}", known.join(", ")),
                        });
                    };
                    slot.1 = std::fs::read_to_string(&path).map_err(|err| Error::io(&path, err))?;
                    slot.2 = shown;
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(Error::io(overrides_dir, err)),
        }

        let mut registry = Handlebars::new();
        registry.register_escape_fn(handlebars::no_escape);
        registry.register_helper("join", Box::new(join));
        registry.register_helper("indent", Box::new(indent));
        registry.register_helper("count", Box::new(count));
        let mut hasher = blake3::Hasher::new();
        let mut origins = Vec::new();
        for (name, text, origin) in sources {
            registry.register_template_string(&name, &text).map_err(|err| Error::Template {
                template: origin.clone(),
                line: err.pos().map(|(line, _)| line),
                message: err.reason().to_string(),
            })?;
            hasher.update(name.as_bytes()).update(b"\0").update(text.as_bytes()).update(b"\0");
            origins.push((name, origin));
        }
        let digest = hasher.finalize().to_hex()[..16].to_string();
        Ok(Templates { registry, origins, digest })
    }

    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The data every section template sees: the doc as JSON, made once per change.
    pub fn context(&self, doc: &ContextDoc) -> Result<Context> {
        Context::wraps(doc).map_err(|err| self.error(err))
    }

    pub fn render_section(&self, section: Section, data: &Context) -> Result<String> {
        self.registry.render_with_context(section.name(), data).map_err(|err| self.error(err))
    }

    /// The whole file: every section, in order.
    pub fn render(&self, doc: &ContextDoc) -> Result<String> {
        let data = self.context(doc)?;
        Section::ALL.iter().map(|&section| self.render_section(section, &data)).collect()
    }

    fn error(&self, err: handlebars::RenderError) -> Error {
        let name = err.template_name.clone().unwrap_or_else(|| "header".into());
        let template = self
            .origins
            .iter()
            .find(|(n, _)| *n == name)
            .map_or_else(|| file_name(&name), |(_, origin)| origin.clone());
        Error::Template { template, line: err.line_no, message: err.reason().to_string() }
    }
}
