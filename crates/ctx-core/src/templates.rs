//! Handlebars templates: the built-in ones, embedded in the binary, and the
//! user's overrides in `.ctx/templates/`. Every rendering of ctx (context
//! files, frame context, task prompts) goes through here.
//!
//! Where the template called `frame.xml.hbs` comes from, highest priority first:
//! 1. `.ctx/templates/frame.xml.hbs`;
//! 2. the built-in template of that name ([`BUILTIN`]).
//!
//! A `.hbs` file in `.ctx/templates/` that no built-in template is called is
//! an error (a typo would otherwise be ignored in silence). A template is
//! parsed when a rendering loads it, so a broken override fails that
//! rendering, with its file name and line, before anything is written; the
//! other renderings are unaffected.
//!
//! Templates whose name ends in `.xml.hbs` escape what they print for XML
//! (`& < > "`; characters XML cannot hold become U+FFFD); the markdown
//! templates print text as it is.
//!
//! Partials (`{{> frame.md.hbs}}`, inline ones) must not include each other
//! in a cycle: handlebars has no depth limit, so a cycle would recurse until
//! the stack overflowed. A set of templates with one is refused when it is
//! loaded, naming the cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use handlebars::template::{Parameter, Template, TemplateElement};
use handlebars::{Context, Handlebars, JsonRender, handlebars_helper};
use serde::Serialize;

use crate::error::{Error, Result};

/// Every built-in template: (file name, text).
pub(crate) const BUILTIN: &[(&str, &str)] = &[
    // Context files, one template a section (see build/render.rs).
    ("header.md.hbs", include_str!("../templates/header.md.hbs")),
    ("boot.md.hbs", include_str!("../templates/boot.md.hbs")),
    ("scope_chain.md.hbs", include_str!("../templates/scope_chain.md.hbs")),
    ("current.md.hbs", include_str!("../templates/current.md.hbs")),
    ("contents.md.hbs", include_str!("../templates/contents.md.hbs")),
    ("decisions.md.hbs", include_str!("../templates/decisions.md.hbs")),
    ("navigation.md.hbs", include_str!("../templates/navigation.md.hbs")),
    ("omitted.md.hbs", include_str!("../templates/omitted.md.hbs")),
    ("footer.md.hbs", include_str!("../templates/footer.md.hbs")),
    // Work context of a frame (see assemble/): the document, one ancestor or
    // sibling, the current frame; in XML and in markdown.
    ("frame-context.xml.hbs", include_str!("../templates/frame-context.xml.hbs")),
    ("frame.xml.hbs", include_str!("../templates/frame.xml.hbs")),
    ("current-frame.xml.hbs", include_str!("../templates/current-frame.xml.hbs")),
    ("frame-context.md.hbs", include_str!("../templates/frame-context.md.hbs")),
    ("frame.md.hbs", include_str!("../templates/frame.md.hbs")),
    ("current-frame.md.hbs", include_str!("../templates/current-frame.md.hbs")),
    // The task prompt: the document, the task, its previous attempt, the
    // epic, one line per sibling task.
    ("task-prompt.md.hbs", include_str!("../templates/task-prompt.md.hbs")),
    ("task-current.md.hbs", include_str!("../templates/task-current.md.hbs")),
    ("task-attempt.md.hbs", include_str!("../templates/task-attempt.md.hbs")),
    ("task-epic.md.hbs", include_str!("../templates/task-epic.md.hbs")),
    ("task-line.md.hbs", include_str!("../templates/task-line.md.hbs")),
    // The managed section of AGENTS.md and the like, and of CLAUDE.md (see agents/).
    ("section-agents.md.hbs", include_str!("../templates/section-agents.md.hbs")),
    ("section-claude.md.hbs", include_str!("../templates/section-claude.md.hbs")),
    // Artifacts (see artifact/agent.rs): an agent context in Markdown, the
    // chat and research prompts.
    ("artifact-context.md.hbs", include_str!("../templates/artifact-context.md.hbs")),
    ("artifact-chat.md.hbs", include_str!("../templates/artifact-chat.md.hbs")),
    ("artifact-research.md.hbs", include_str!("../templates/artifact-research.md.hbs")),
];

/// A parsed set of templates.
pub(crate) struct Templates {
    markdown: Handlebars<'static>,
    xml: Handlebars<'static>,
    /// (file name, where it came from) of each loaded template.
    origins: Vec<(String, String)>,
    digest: String,
}

handlebars_helper!(join: |list: array, separator: str| {
    list.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect::<Vec<_>>().join(separator)
});
handlebars_helper!(indent: |text: str| text.trim_end().replace('\n', "\n  "));
handlebars_helper!(count: |n: u64, noun: str| crate::wording::count(usize::try_from(n).unwrap_or(usize::MAX), noun));

/// The texts of a set of templates, read but not compiled: enough to know
/// their digest (a cached rendering needs no more).
pub(crate) struct Sources {
    /// (file name, text, where it came from).
    entries: Vec<(String, String, String)>,
    digest: String,
}

impl Sources {
    /// The built-in templates called `names`, each replaced by its override
    /// in `overrides_dir` (if the folder exists and has one).
    pub fn read(overrides_dir: &Path, names: &[&str]) -> Result<Sources> {
        let overrides = read_overrides(overrides_dir)?;
        let mut hasher = blake3::Hasher::new();
        let mut entries = Vec::with_capacity(names.len());
        for &name in names {
            let (text, origin) = match overrides.iter().find(|(n, _)| n == name) {
                Some((_, text)) => (text.clone(), format!(".ctx/templates/{name}")),
                None => {
                    let builtin = BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, text)| *text);
                    (builtin.unwrap_or_default().to_string(), format!("built-in {name}"))
                }
            };
            hasher.update(name.as_bytes()).update(b"\0").update(text.as_bytes()).update(b"\0");
            entries.push((name.to_string(), text, origin));
        }
        let digest = hasher.finalize().to_hex()[..16].to_string();
        Ok(Sources { entries, digest })
    }

    /// A hash of every template's text.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// Parse every template; an error names the template's file and line.
    pub fn compile(self) -> Result<Templates> {
        let mut markdown = registry(handlebars::no_escape);
        let mut xml = registry(xml_escape);
        let mut origins = Vec::with_capacity(self.entries.len());
        for (name, text, origin) in self.entries {
            let target = if is_xml(&name) { &mut xml } else { &mut markdown };
            target.register_template_string(&name, &text).map_err(|err| Error::Template {
                template: origin.clone(),
                line: err.pos().map(|(line, _)| line),
                message: err.reason().to_string(),
            })?;
            origins.push((name, origin));
        }
        let origin_of = |name: &str| {
            origins.iter().find(|(n, _)| n == name).map_or_else(|| name.to_string(), |(_, o)| o.clone())
        };
        for registry in [&markdown, &xml] {
            check_partials(registry).map_err(|(template, message)| Error::Template {
                template: origin_of(&template),
                line: None,
                message,
            })?;
        }
        Ok(Templates { markdown, xml, origins, digest: self.digest })
    }
}

/// Which partials each template and inline partial of `registry` includes
/// (by name, as handlebars looks them up), and where each inline one is defined.
#[derive(Default)]
struct Partials {
    includes: BTreeMap<String, BTreeSet<String>>,
    defined_in: BTreeMap<String, String>,
}

/// A cycle of partials in `registry` (or a partial whose name is computed,
/// which could close one) as (the template to blame, the message).
fn check_partials(registry: &Handlebars<'static>) -> std::result::Result<(), (String, String)> {
    let mut partials = Partials::default();
    let mut names: Vec<&String> = registry.get_templates().keys().collect();
    names.sort();
    for name in &names {
        partials.includes.entry(name.to_string()).or_default();
        if let Some(template) = registry.get_template(name) {
            partials.collect(template, name, name).map_err(|message| (name.to_string(), message))?;
        }
    }
    // Depth-first, keeping the path: an edge back into it closes a cycle.
    fn visit<'a>(
        partials: &'a Partials,
        node: &'a str,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node);
            return Some(cycle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in partials.includes.get(node).into_iter().flatten() {
            if partials.includes.contains_key(next.as_str())
                && let Some(cycle) = visit(partials, next, path, done)
            {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for name in names {
        if let Some(cycle) = visit(&partials, name, &mut Vec::new(), &mut done) {
            let blame = cycle
                .iter()
                .find(|n| registry.get_template(n).is_some())
                .map(|n| n.to_string())
                .or_else(|| partials.defined_in.get(cycle[0]).cloned())
                .unwrap_or_else(|| name.to_string());
            return Err((blame, format!("partials include each other without end: {}", cycle.join(" > "))));
        }
    }
    Ok(())
}

impl Partials {
    /// Record what `template` includes as `node` includes it (a template's
    /// own name, or an inline partial's); `file` is the template it is in.
    fn collect(&mut self, template: &Template, node: &str, file: &str) -> std::result::Result<(), String> {
        for element in &template.elements {
            match element {
                TemplateElement::PartialExpression(partial) | TemplateElement::PartialBlock(partial) => {
                    let name = static_name(&partial.name)
                        .ok_or("a partial's name must be written out, not computed (`{{> name}}`)")?;
                    // The block of the partial that includes this one: rendered before it, no recursion.
                    if name != "@partial-block" {
                        self.includes.entry(node.to_string()).or_default().insert(name);
                    }
                    if let Some(block) = &partial.template {
                        self.collect(block, node, file)?;
                    }
                }
                TemplateElement::DecoratorBlock(decorator)
                | TemplateElement::DecoratorExpression(decorator)
                    if decorator.name.as_name() == Some("inline") =>
                {
                    let name =
                        decorator.params.first().and_then(static_name).ok_or(
                            "an inline partial's name must be written out (`{{#*inline \"name\"}}`)",
                        )?;
                    self.includes.entry(name.clone()).or_default();
                    self.defined_in.entry(name.clone()).or_insert_with(|| file.to_string());
                    if let Some(body) = &decorator.template {
                        self.collect(body, &name, file)?;
                    }
                }
                TemplateElement::HelperBlock(helper) => {
                    for block in [&helper.template, &helper.inverse].into_iter().flatten() {
                        self.collect(block, node, file)?;
                    }
                }
                TemplateElement::DecoratorBlock(decorator) => {
                    if let Some(block) = &decorator.template {
                        self.collect(block, node, file)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The name a partial parameter stands for, as handlebars reads it; `None`
/// when it is computed at render time.
fn static_name(parameter: &Parameter) -> Option<String> {
    match parameter {
        Parameter::Literal(value) => Some(value.render()),
        Parameter::Subexpression(_) => None,
        other => other.as_name().map(str::to_string),
    }
}

impl Templates {
    /// [`Sources::read`], then [`Sources::compile`].
    pub fn load(overrides_dir: &Path, names: &[&str]) -> Result<Templates> {
        Sources::read(overrides_dir, names)?.compile()
    }

    /// A hash of every loaded template's text: part of what a rendering is cached or built by.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// Render template `name` with `data`.
    pub fn render<T: Serialize>(&self, name: &str, data: &T) -> Result<String> {
        self.registry_of(name).render(name, data).map_err(|err| self.error(name, err))
    }

    /// Render template `name` with data made once for many renderings.
    pub fn render_with_context(&self, name: &str, data: &Context) -> Result<String> {
        self.registry_of(name).render_with_context(name, data).map_err(|err| self.error(name, err))
    }

    /// `value` as the data of [`Templates::render_with_context`].
    pub fn context<T: Serialize>(&self, value: &T, name: &str) -> Result<Context> {
        Context::wraps(value).map_err(|err| self.error(name, err))
    }

    fn registry_of(&self, name: &str) -> &Handlebars<'static> {
        if is_xml(name) { &self.xml } else { &self.markdown }
    }

    fn error(&self, name: &str, err: handlebars::RenderError) -> Error {
        let name = err.template_name.clone().unwrap_or_else(|| name.to_string());
        let template =
            self.origins.iter().find(|(n, _)| *n == name).map_or_else(|| name.clone(), |(_, o)| o.clone());
        Error::Template { template, line: err.line_no, message: err.reason().to_string() }
    }
}

fn is_xml(name: &str) -> bool {
    name.ends_with(".xml.hbs")
}

fn registry(escape: fn(&str) -> String) -> Handlebars<'static> {
    let mut registry = Handlebars::new();
    registry.register_escape_fn(escape);
    registry.register_helper("join", Box::new(join));
    registry.register_helper("indent", Box::new(indent));
    registry.register_helper("count", Box::new(count));
    registry
}

/// The `.hbs` files of `dir`: (file name, text). A name no built-in has is an error.
fn read_overrides(dir: &Path) -> Result<Vec<(String, String)>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(Error::io(dir, err)),
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    let mut overrides = Vec::new();
    for path in paths {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        if !name.ends_with(".hbs") {
            continue;
        }
        if !BUILTIN.iter().any(|(n, _)| *n == name) {
            let known: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            return Err(Error::Template {
                template: format!(".ctx/templates/{name}"),
                line: None,
                message: format!("no such template; the templates are {}", known.join(", ")),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|err| Error::io(&path, err))?;
        overrides.push((name.to_string(), text));
    }
    Ok(overrides)
}

/// Text as XML character data or attribute value: `& < > "` escaped, and
/// the characters XML 1.0 cannot hold at all (most control characters,
/// U+FFFE, U+FFFF) replaced by U+FFFD.
pub(crate) fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_template_parses() {
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        let dir = tempfile::tempdir().unwrap();
        Templates::load(dir.path(), &names).unwrap();
    }

    #[test]
    fn xml_templates_escape_and_markdown_ones_do_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("frame.xml.hbs"), "<x a=\"{{v}}\">{{v}}</x>").unwrap();
        std::fs::write(dir.path().join("frame.md.hbs"), "{{v}}").unwrap();
        let templates = Templates::load(dir.path(), &["frame.xml.hbs", "frame.md.hbs"]).unwrap();
        let data = serde_json::json!({ "v": "a<b & \"c\"\u{1}" });
        assert_eq!(
            templates.render("frame.xml.hbs", &data).unwrap(),
            "<x a=\"a&lt;b &amp; &quot;c&quot;\u{FFFD}\">a&lt;b &amp; &quot;c&quot;\u{FFFD}</x>"
        );
        assert_eq!(templates.render("frame.md.hbs", &data).unwrap(), "a<b & \"c\"\u{1}");
    }

    #[test]
    fn unknown_override_is_an_error_and_others_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fram.xml.hbs"), "x").unwrap();
        let err = Templates::load(dir.path(), &["header.md.hbs"]).map(|_| ()).unwrap_err();
        assert!(err.to_string().contains("fram.xml.hbs: no such template"), "{err}");
        std::fs::remove_file(dir.path().join("fram.xml.hbs")).unwrap();
        // A broken override of a template this rendering does not load is not its business.
        std::fs::write(dir.path().join("frame.xml.hbs"), "{{#if}").unwrap();
        Templates::load(dir.path(), &["header.md.hbs"]).unwrap();
        let err = Templates::load(dir.path(), &["frame.xml.hbs"]).map(|_| ()).unwrap_err();
        assert!(err.to_string().starts_with("template .ctx/templates/frame.xml.hbs"), "{err}");
    }

    #[test]
    fn partials_may_nest_but_not_include_each_other_in_a_cycle() {
        let dir = tempfile::tempdir().unwrap();
        let names = ["frame.md.hbs", "current-frame.md.hbs", "frame-context.md.hbs"];
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        let load = || Templates::load(dir.path(), &names).map(|_| ());
        write("frame.md.hbs", "{{#*inline \"row\"}}- {{this}}{{/inline}}{{#each list}}{{> row}}{{/each}}");
        write("frame-context.md.hbs", "{{> frame.md.hbs}}{{#if x}}{{> current-frame.md.hbs}}{{/if}}");
        let templates = Templates::load(dir.path(), &names).unwrap();
        let data = serde_json::json!({ "list": ["a", "b"], "x": false });
        assert_eq!(templates.render("frame-context.md.hbs", &data).unwrap(), "- a- b");

        // Through a third template, inside a block: still a cycle.
        write("current-frame.md.hbs", "{{#each list}}{{> frame-context.md.hbs}}{{/each}}");
        let err = load().unwrap_err();
        assert_eq!(err.code(), "TEMPLATE_ERROR");
        assert!(
            err.to_string().ends_with("current-frame.md.hbs > frame-context.md.hbs > current-frame.md.hbs"),
            "{err}"
        );
        std::fs::remove_file(dir.path().join("current-frame.md.hbs")).unwrap();
        write(
            "frame.md.hbs",
            "{{#*inline \"a\"}}{{> b}}{{/inline}}{{#*inline \"b\"}}{{> a}}{{/inline}}{{> a}}",
        );
        let err = load().unwrap_err();
        assert!(err.to_string().starts_with("template .ctx/templates/frame.md.hbs: "), "{err}");
        assert!(err.to_string().ends_with("a > b > a"), "{err}");
    }
}
