//! A file's one-line summary, taken from what its author wrote at its top:
//! a README's first paragraph, a Python module docstring, Rust `//!` docs, a
//! JS/TS leading doc comment, a manifest's `description`; for code without
//! those, the docs of its main type (the public class, struct, enum, trait
//! or interface named like the file, or its only one). The build uses these
//! to describe files and, for folders nobody has described, the folder.
//!
//! Extraction is cheap and only runs on files the scan reads anyway.

/// Longest summary kept, in characters; longer ones are cut at a word.
const MAX_SUMMARY_CHARS: usize = 200;

/// How much of a file's top is looked at (a manifest is read whole up to this).
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Whether the file `name` is a README (`README.md`, `readme.rst`, `README`).
pub(crate) fn is_readme(name: &str) -> bool {
    name.get(..6).is_some_and(|start| start.eq_ignore_ascii_case("readme"))
}

/// The summary of the text file `name` (language `lang`) with content `bytes`.
pub(crate) fn summarize(name: &str, lang: Option<&str>, bytes: &[u8]) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let known = matches!(lower.as_str(), "cargo.toml" | "pyproject.toml" | "package.json")
        || is_readme(name)
        || matches!(lang, Some("markdown" | "rst" | "python" | "rust" | "typescript" | "tsx" | "javascript"));
    if !known {
        return None;
    }
    // ctx's own section (in AGENTS.md, CLAUDE.md) says nothing of the project: what
    // the file holds around it does, if anything.
    let own;
    let bytes = match lang {
        Some("markdown") => match crate::agents::section::outside_section(bytes) {
            Some(rest) => {
                own = rest;
                own.as_slice()
            }
            None => bytes,
        },
        _ => bytes,
    };
    let head = &bytes[..bytes.len().min(MAX_HEAD_BYTES)];
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        // Cut inside a character, or not UTF-8 at all: use what decodes.
        Err(err) => std::str::from_utf8(&head[..err.valid_up_to()]).ok()?,
    };
    let raw = match (lower.as_str(), lang) {
        ("cargo.toml", _) => toml_description(text, &["package"]),
        ("pyproject.toml", _) => {
            toml_description(text, &["project"]).or_else(|| toml_description(text, &["tool", "poetry"]))
        }
        ("package.json", _) => json_description(text),
        (_, Some("markdown" | "rst")) => markdown_paragraph(text),
        (_, Some("python")) => python_docstring(text).or_else(|| python_class_docstring(name, text)),
        (_, Some("rust")) => rust_inner_docs(text).or_else(|| rust_type_docs(name, text)),
        (_, Some("typescript" | "tsx" | "javascript")) => {
            js_leading_comment(text).or_else(|| js_type_docs(name, text))
        }
        _ if is_readme(name) => markdown_paragraph(text),
        _ => None,
    }?;
    one_line(&raw)
}

/// Collapse whitespace, drop inline markup (see [`inline_markup`]), and
/// cut to [`MAX_SUMMARY_CHARS`].
fn one_line(raw: &str) -> Option<String> {
    // A terminal's escapes (a fixture's colours) are no prose: `\x1b[38;2;…m` goes whole.
    let raw = ansi_escape().replace_all(raw, "");
    let raw: String = raw.chars().filter(|c| !c.is_control() || c.is_whitespace()).collect();
    let raw = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let unmarked =
        inline_markup().replace_all(&raw, "$text$doc$reftext$path$link$role$html$attrs$lead$short$trail");
    let mut line = unmarked.split_whitespace().collect::<Vec<_>>().join(" ");
    line.retain(|c| c != '`' && c != '*');
    // HTML's entities for what Markdown would have written plainly (`&#x27;` for `'`).
    for (entity, plain) in [
        ("&#x27;", "'"),
        ("&#39;", "'"),
        ("&quot;", "\""),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&nbsp;", " "),
        ("&amp;", "&"),
    ] {
        if line.contains(entity) {
            line = line.replace(entity, plain);
        }
    }
    // reST's `::` that introduces a literal block reads as one colon.
    let line = line.trim();
    let line = line.strip_suffix("::").map_or(line.to_string(), |l| format!("{l}:"));
    // A bare address says where, not what.
    if line.is_empty()
        || (!line.contains(' ') && (line.starts_with("http://") || line.starts_with("https://")))
    {
        return None;
    }
    if line.chars().count() <= MAX_SUMMARY_CHARS {
        return Some(line.to_string());
    }
    let cut: String = line.chars().take(MAX_SUMMARY_CHARS).collect();
    let at_word = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    Some(format!("{}…", at_word.trim_end_matches([',', ';', ':', ' '])))
}

/// An ANSI escape sequence (colours, cursor moves).
fn ansi_escape() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
            .unwrap_or_else(|_| unreachable!("the pattern is a constant"))
    })
}

/// Inline markup whose text is kept and whose syntax goes: Markdown images
/// (all of them) and links `[text](url)`, `[text][ref]`, rustdoc links `` [`Name`] ``
/// and `[crate::config::Config]`, reST links `` `text <url>`_ `` and
/// `` `text`_ ``, reST roles `` :role:`text` `` (`:py:class:` and the like),
/// inline HTML tags (`<b>`, `<abbr title=…>`; not `Vec<u8>`), and attribute
/// lists (`{.internal-link target=_blank}`, `{: #id }`), text and all, and
/// a shortcut reference's brackets (rustdoc's `working with [fields]`).
fn inline_markup() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"!\[[^\]]*\]\([^)]*\)|\[(?P<text>[^\]]+)\]\([^)]*\)|\[`(?P<doc>[^`\]]+)`\](?:\[[^\]]*\])?|\[(?P<reftext>[^\]]+)\]\[[^\]]*\]|\[(?P<path>[A-Za-z_]\w*(?:::\w+)+)\]|`(?P<link>[^`<\s][^`<]*?)\s*(?:<[^>`]*>)?`__?|(?::[\w.-]+)+:`(?P<role>[^`]*)`|</?(?:a|b|i|u|s|em|strong|code|img|br|span|sup|sub|kbd|small|abbr|dfn|mark|ins|del|tt|var|samp|cite|q|font)\b[^>]*>(?P<html>)|\{\s*[:.#][^{}]*\}(?P<attrs>)|(?P<lead>^|\s)\[(?P<short>[A-Za-z][\w -]*)\](?P<trail>[^(\[\w]|$)",
        )
        .unwrap_or_else(|_| unreachable!("the pattern is a constant"))
    })
}

/// The first paragraph of prose: not a heading (ATX, setext or reST), badge,
/// HTML, table, reST directive (with its options and content), field list,
/// code fence or front matter. Falls back to the first heading's text.
fn markdown_paragraph(text: &str) -> Option<String> {
    prose_paragraph(text.lines())
}

/// [`markdown_paragraph`] over lines as written (their indentation tells a
/// directive's content from the text after it). Docstrings and doc comments
/// are read this way too: their authors write Markdown or reST.
fn prose_paragraph<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    let raw: Vec<&str> = lines.collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    // Drop each directive (`.. name::`, `.. _target:`, a comment) with the
    // lines indented below it.
    // So is an admonition: MkDocs' `!!! note` with its indented lines, PyMdown's
    // `/// warning` block to its closing `///`.
    // And a `<style>` or `<script>` element, to its closing tag: CSS is no prose.
    let mut kept: Vec<&str> = Vec::with_capacity(raw.len());
    let mut directive: Option<usize> = None;
    let mut in_block = false;
    let mut in_element: Option<&str> = None;
    for line in &raw {
        let explicit = line.trim_start();
        if let Some(close) = in_element {
            in_element = (!explicit.contains(close)).then_some(close);
            continue;
        }
        if let Some(close) = raw_element(explicit) {
            in_element = (!explicit.contains(close)).then_some(close);
            continue;
        }
        if in_block {
            in_block = explicit.trim_end() != "///";
            continue;
        }
        if let Some(at) = directive {
            if line.trim().is_empty() || indent(line) > at {
                continue;
            }
            directive = None;
        }
        if explicit == ".." || explicit.starts_with(".. ") || is_admonition(explicit) {
            in_block = explicit.starts_with("///") && explicit.trim_end() != "///";
            directive = Some(indent(line));
            continue;
        }
        kept.push(line);
    }
    let mut lines: Vec<&str> = kept.into_iter().map(str::trim).collect();
    if lines.first() == Some(&"---") {
        // YAML front matter.
        let end = lines.iter().skip(1).position(|l| *l == "---").map_or(lines.len(), |i| i + 2);
        lines.drain(..end.min(lines.len()));
    }
    let is_underline =
        |l: &str| l.len() >= 3 && l.chars().all(|c| matches!(c, '=' | '-' | '~' | '^' | '*' | '#'));
    let mut heading = None;
    let mut paragraph: Vec<&str> = Vec::new();
    let mut in_fence = false;
    let mut in_list = false;
    // Whether a list or a label was passed over: the next release's title (one with a
    // version in it) ends the search, for that release's notes say nothing of the file
    // either; a README's next section (`## About`, after a list of links) may.
    let mut passed_over = false;
    let mut leads_into_code = false;
    let mut i = 0;
    while i < lines.len() {
        // A Markdown quote is read for its text; a doctest's prompt is code.
        let doctest = lines[i].starts_with(">>>");
        let line = lines[i].strip_prefix('>').map_or(lines[i], str::trim);
        i += 1;
        // A list is no description (a changelog's entries, a checklist's boxes): it
        // ends a paragraph, and is skipped to the blank line after it.
        if in_list || (!in_fence && is_list_item(line)) {
            in_list = !line.is_empty();
            if !paragraph.is_empty() {
                break;
            }
            passed_over = true;
            continue;
        }
        if line.starts_with("```") || line.starts_with("~~~") {
            // A paragraph a code block follows at once ends there.
            if !in_fence && !paragraph.is_empty() {
                leads_into_code = true;
                break;
            }
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // A line underlined by the next one is a title (setext markdown, reST).
        let titled = lines.get(i).is_some_and(|next| is_underline(next));
        // HTML is skipped, but for a title or paragraph on one line (a README's centred header).
        let html = html_element(line);
        let title = if let Some((true, text)) = html {
            Some(text)
        } else if titled {
            i += 1;
            Some(line)
        } else {
            line.starts_with('#').then(|| line.trim_start_matches('#').trim())
        };
        // A bare address describes nothing, nor does "See the registry:" before it.
        if !line.contains(' ') && (line.starts_with("http://") || line.starts_with("https://")) {
            let see =
                |l: &&str| l.ends_with(':') && l.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("see "));
            if paragraph.last().is_some_and(see) {
                paragraph.pop();
            }
            continue;
        }
        let skip = title.is_some()
            || is_field(line)
            || is_metadata(line)
            || doctest
            || is_code_line(line)
            || (line.contains("{{") && line.contains("}}"))
            || is_link_definition(line)
            || (line.starts_with('<') && html.is_none() && !is_inline_prose(line))
            || line.starts_with("[!")
            || line.starts_with("![")
            || line.starts_with('|')
            || is_underline(line)
            || (paragraph.is_empty() && is_link_row(line));
        if line.is_empty() || skip {
            // A one-word label on a line of its own before more text (a changelog's
            // `Unreleased`) says what comes next, not what the file is.
            let label = paragraph.len() == 1
                && paragraph[0].split_whitespace().count() == 1
                && !paragraph[0].ends_with(['.', '!', '?'])
                && lines[i..].iter().any(|l| !l.trim().is_empty());
            if label {
                paragraph.clear();
                passed_over = true;
            }
            if !paragraph.is_empty() {
                let next = lines[i..].iter().map(|l| l.trim()).find(|l| !l.is_empty());
                leads_into_code = next.is_some_and(|l| l.starts_with("```") || l.starts_with("~~~"));
                break;
            }
            let release = title.is_some_and(|t| t.chars().any(|c| c.is_ascii_digit()));
            if passed_over && heading.is_some() && release {
                break;
            }
            heading = heading.or(title.filter(|t| !t.is_empty()));
            continue;
        }
        paragraph.push(html.map_or(line, |(_, text)| text));
    }
    let mut paragraph = paragraph.join(" ");
    // "Run with" before a command, "Example:" before code: an introduction, not a description.
    if leads_into_code && (paragraph.ends_with(':') || paragraph.split_whitespace().count() <= 4) {
        paragraph.clear();
    }
    match heading {
        // "To use it in its simplest form:" introduces what follows; the title says more.
        Some(heading) if paragraph.is_empty() || paragraph.ends_with(':') => Some(heading.to_string()),
        _ if paragraph.is_empty() => None,
        _ => Some(paragraph),
    }
}

/// A line of text that opens with an inline tag (`<em>Typer, build great
/// CLIs.</em>` inside a centred `<p>` of its own lines): prose, its tags
/// dropped later. A link or an image opening a line is a badge's.
fn is_inline_prose(line: &str) -> bool {
    const INLINE: &[&str] = &["<em>", "<i>", "<b>", "<strong>", "<span", "<small>", "<code>"];
    if !INLINE.iter().any(|tag| line.starts_with(tag)) {
        return false;
    }
    let mut text = String::new();
    let mut in_tag = false;
    for c in line.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.chars().any(char::is_alphanumeric)
}

/// An HTML heading or paragraph on one line with some text in it: whether
/// it is a heading, and what it holds (inline tags are dropped later).
fn html_element(line: &str) -> Option<(bool, &str)> {
    let tag = line.strip_prefix('<')?.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
    let heading = matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
    if !heading && tag != "p" {
        return None;
    }
    let inner = line[line.find('>')? + 1..].strip_suffix(&format!("</{tag}>"))?.trim();
    let only_markup = inner.is_empty() || (inner.starts_with('<') && inner.ends_with('>'));
    (!only_markup).then_some((heading, inner))
}

/// A line that opens or closes an admonition block: MkDocs' `!!! note`,
/// `??? tip`, and PyMdown's `/// warning` … `///`.
fn is_admonition(line: &str) -> bool {
    ["!!!", "???", "///"].iter().any(|mark| line.starts_with(mark))
}

/// A line of links and nothing else but separators: a README's navigation
/// (`[Website](https://…) | [Chat](https://…)`), no description.
fn is_link_row(line: &str) -> bool {
    static LINK: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let link = LINK.get_or_init(|| {
        regex::Regex::new(r"!?\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])")
            .unwrap_or_else(|_| unreachable!("the pattern is a constant"))
    });
    link.is_match(line)
        && link.replace_all(line, "").chars().all(|c| c.is_whitespace() || "|·•-–—,/".contains(c))
}

/// A Markdown link reference definition: `[label]: https://…`.
fn is_link_definition(line: &str) -> bool {
    line.strip_prefix('[')
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(label, _)| !label.contains('['))
}

/// A reST field or directive option: `:orphan:`, `:align: center`; not a
/// role opening a sentence (`:class:`ContextVar` holds …`).
fn is_field(line: &str) -> bool {
    line.strip_prefix(':').and_then(|rest| rest.split_once(':')).is_some_and(|(name, value)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || "_- ".contains(c))
            && !value.starts_with('`')
    })
}

/// A line of who and which rather than what: `Original definitions by: …`
/// (DefinitelyTyped's header), `Author: …`, `Version: …`.
fn is_metadata(line: &str) -> bool {
    const LABELS: &[&str] = &[
        "original definitions by",
        "definitions by",
        "author",
        "authors",
        "maintainer",
        "maintainers",
        "contributors",
        "version",
        "created by",
        "written by",
    ];
    line.split_once(':')
        .is_some_and(|(label, _)| LABELS.contains(&label.trim().to_ascii_lowercase().as_str()))
}

/// A line of code in a docstring's example, outside a fence: an assignment
/// (`templates = Jinja2Templates("templates")`), a bare call (`app.run()`),
/// a statement's keyword, a shell's prompt (`$ `).
fn is_code_line(line: &str) -> bool {
    static CODE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let code = CODE.get_or_init(|| {
        regex::Regex::new(concat!(
            // `x = f(…)`, `x[k] += 1`, `app.run()`
            r"^[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*(?:=|\+=|:=)\s*[\w\x22'(\[{]|^[A-Za-z_][\w.]*\(.*\)[;:]?$",
            // `import x`, `from x import y`, `def f(`, `$ cmd`
            r"|^import [\w.]+(?:, ?[\w.]+)*(?: as \w+)?;?$|^from [\w.]+ import |^(?:async )?def \w+\(|^\$ \S",
            // `return f(x)`, `const x = …`: a keyword, then code's punctuation
            r"|^(?:return|await|const|let|var) [\w.$]+\s*[(=\[{;]",
        ))
        .unwrap_or_else(|_| unreachable!("the pattern is a constant"))
    });
    code.is_match(line)
}

/// A Markdown or reST list item: `- x`, `* x`, `+ x`, `1. x`, `2) x`.
fn is_list_item(line: &str) -> bool {
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return true;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// The closing tag of a raw HTML element `line` opens (`<style>`, `<script>`), if any.
fn raw_element(line: &str) -> Option<&'static str> {
    let lower = line.get(..7).unwrap_or(line).to_ascii_lowercase();
    if lower.starts_with("<style") {
        Some("</style>")
    } else if lower.starts_with("<script") {
        Some("</script>")
    } else {
        None
    }
}

/// The first paragraph of a Python module docstring.
fn python_docstring(text: &str) -> Option<String> {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if rest.starts_with('#') {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    let rest = rest.trim_start_matches(['r', 'R', 'u', 'U']);
    let quote = ["\"\"\"", "'''", "\"", "'"].into_iter().find(|q| rest.starts_with(q))?;
    let body = &rest[quote.len()..];
    let body = body.split_once(quote).map_or(body, |(inside, _)| inside);
    prose_paragraph(body.lines())
}

/// The docs of a file's main type, given its public top-level types (name,
/// docs): the one named like the file (`user_agent.py`: `UserAgent`), or
/// else its only one. A file of many types is summarized by none of them.
fn main_type_docs(file: &str, types: Vec<(&str, Option<String>)>) -> Option<String> {
    let stem = file.split('.').next().unwrap_or(file);
    // A Rust or JS module's root file (`timer/mod.rs`, `index.ts`) stands for its
    // folder: the docs of the one type it happens to define say what that type is,
    // not what the folder is. (A package's `__init__.py` defining one class, as
    // werkzeug's `DebuggedApplication`, is mostly that class: its docs say it.)
    let root = matches!(file, "mod.rs" | "lib.rs" | "main.rs")
        || stem == "index"
            && [".ts", ".tsx", ".js", ".mjs", ".cjs", ".mts"].iter().any(|e| file.ends_with(e));
    let main = types
        .iter()
        .position(|(name, _)| crate::paths::same_name(name, stem))
        .or((types.len() == 1 && !root).then_some(0))?;
    types.into_iter().nth(main)?.1
}

/// The name a type's declaration line gives after `keyword` (`class Shop(Base):` → `Shop`).
fn declared_name<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let rest = &line[line.find(keyword)? + keyword.len()..];
    let name = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
    (!name.is_empty()).then_some(name)
}

/// The docstring of the module's main class (see [`main_type_docs`]).
fn python_class_docstring(file: &str, text: &str) -> Option<String> {
    let mut types = Vec::new();
    let mut offset = 0;
    let mut header: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        offset += line.len();
        if line.starts_with("class ") && !line.starts_with("class _") {
            header = declared_name(line, "class ");
        }
        // The header ends at its colon (the bases may take several lines).
        if let Some(name) = header.filter(|_| line.trim_end().ends_with(':')) {
            types.push((name, python_docstring(&text[offset..])));
            header = None;
        }
    }
    main_type_docs(file, types)
}

/// The `///` docs of the file's main public struct, enum or trait (see [`main_type_docs`]).
fn rust_type_docs(file: &str, text: &str) -> Option<String> {
    let mut types = Vec::new();
    let mut docs: Vec<&str> = Vec::new();
    for line in text.lines() {
        if let Some(doc) = line.strip_prefix("///") {
            docs.push(doc);
            continue;
        }
        if line.starts_with("#[") {
            continue; // attributes between the docs and the item
        }
        if let Some(keyword) =
            ["pub struct ", "pub enum ", "pub trait "].into_iter().find(|k| line.starts_with(k))
            && let Some(name) = declared_name(line, keyword)
        {
            types.push((name, prose_paragraph(docs.drain(..))));
        }
        docs.clear();
    }
    main_type_docs(file, types)
}

/// The `/** */` docs of the file's main exported class or interface (see [`main_type_docs`]).
fn js_type_docs(file: &str, text: &str) -> Option<String> {
    let mut types = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    let mut docs: Vec<&str> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(lines) = &mut block {
            match trimmed.strip_suffix("*/") {
                Some(last) => {
                    lines.push(last);
                    docs = block.take().unwrap_or_default();
                }
                None => lines.push(trimmed),
            }
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("/**") {
            match rest.strip_suffix("*/") {
                Some(one) => docs = vec![one],
                None => block = Some(vec![rest]),
            }
            continue;
        }
        if trimmed.starts_with('@') || trimmed.is_empty() {
            continue; // decorators between the docs and the class
        }
        let keywords =
            ["export class ", "export default class ", "export abstract class ", "export interface "];
        if let Some(keyword) = keywords.into_iter().find(|k| line.starts_with(k))
            && let Some(name) = declared_name(line, keyword)
        {
            let lines =
                docs.iter().map(|l| l.trim().trim_start_matches('*').trim()).filter(|l| !l.starts_with('@'));
            types.push((name, prose_paragraph(lines)));
        }
        docs.clear();
    }
    main_type_docs(file, types)
}

/// The first paragraph of a Rust file's inner doc comments (`//!` or `/*! */`),
/// after any licence comment or crate attributes.
fn rust_inner_docs(text: &str) -> Option<String> {
    if let Some(block) = text.trim_start().strip_prefix("/*!") {
        let inside = block.split("*/").next()?;
        return prose_paragraph(inside.lines().map(|l| l.trim().trim_start_matches('*')));
    }
    let is_preamble =
        |l: &&str| l.is_empty() || l.starts_with("#![") || (l.starts_with("//") && !l.starts_with("//!"));
    let docs = text.lines().map(str::trim).skip_while(is_preamble).map_while(|l| l.strip_prefix("//!"));
    prose_paragraph(docs)
}

/// The first paragraph of a JS/TS file's leading `/** */` or `//` comment,
/// skipping a shebang, directives and license headers.
fn js_leading_comment(text: &str) -> Option<String> {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if rest.starts_with("#!") || rest.starts_with("'use ") || rest.starts_with("\"use ") {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
            continue;
        }
        let comment = if let Some(block) = rest.strip_prefix("/*") {
            let (inside, after) = block.split_once("*/")?;
            let lines = inside.lines().map(|l| l.trim().trim_start_matches('*').trim());
            let lines: Vec<&str> = lines.filter(|l| !l.starts_with('@')).collect();
            rest = after;
            lines
        } else if rest.starts_with("//") {
            let mut lines = Vec::new();
            while let Some(line) = rest.strip_prefix("//") {
                let (line, after) = line.split_once('\n').unwrap_or((line, ""));
                let line = line.trim_start_matches('/').trim();
                // A run of `//` lines may open with a directive (`// @ts-check`): that line goes.
                if !is_tool_directive(&line.to_ascii_lowercase()) {
                    lines.push(line);
                }
                rest = after.trim_start_matches([' ', '\t']);
            }
            // A comment on the declaration right below it (`// Allowed characters: …`
            // over a constant) is that declaration's, and a one- or two-word line over
            // code (`// Types`, `// Event`) labels a section: neither is the file's.
            if declares(rest) || (lines.len() == 1 && is_label(lines[0]) && !rest.starts_with(['\n', '\r'])) {
                return None;
            }
            lines
        } else {
            return None;
        };
        let joined = comment.join("\n");
        let lower = joined.to_ascii_lowercase();
        if lower.contains("copyright") || lower.contains("license") || is_tool_directive(&lower) {
            continue;
        }
        return prose_paragraph(comment.into_iter());
    }
}

/// Whether a JS/TS text starts with a declaration the module keeps to itself
/// (`const`, `function`, `declare const`, …): a comment right above it is an
/// implementation note on it. Above an export it may well be the file's
/// (hono's `// provide utility functions for css helper` over `export const`).
fn declares(text: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "const ",
        "let ",
        "var ",
        "function ",
        "function*",
        "async function",
        "class ",
        "abstract class ",
        "interface ",
        "type ",
        "enum ",
        "declare ",
    ];
    KEYWORDS.iter().any(|k| text.starts_with(k))
}

/// A line of one or two words and no sentence: a section's label.
fn is_label(line: &str) -> bool {
    line.split_whitespace().count() <= 2 && !line.ends_with(['.', '!', '?', ':'])
}

/// A comment that speaks to a tool, not to a reader (lowercased): `/* global hljs */`,
/// `/* eslint-disable … */`, `// @ts-check`, `/* istanbul ignore file */`.
fn is_tool_directive(lower: &str) -> bool {
    const TOOLS: &[&str] =
        &["global", "globals", "eslint", "jshint", "jslint", "istanbul", "c8", "prettier-ignore", "exported"];
    let first = lower.split_whitespace().next().unwrap_or("");
    lower.contains("eslint-") || first.starts_with("@ts-") || TOOLS.contains(&first)
}

fn toml_description(text: &str, table: &[&str]) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    let mut node = &toml::Value::Table(value);
    for key in table {
        node = node.get(key)?;
    }
    node.get("description")?.as_str().map(str::to_string)
}

fn json_description(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get("description")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests;
