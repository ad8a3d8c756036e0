//! A file's one-line summary, taken from what its author wrote at its top:
//! a README's first paragraph, a Python module docstring, Rust `//!` docs, a
//! JS/TS leading doc comment, a manifest's `description`. The build uses these
//! to describe files and, for folders nobody has described, the folder.
//!
//! Extraction is cheap and only runs on files the scan reads anyway.

/// Longest summary kept, in characters; longer ones are cut at a word.
const MAX_SUMMARY_CHARS: usize = 200;

/// How much of a file's top is looked at (a manifest is read whole up to this).
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// The summary of the text file `name` (language `lang`) with content `bytes`.
pub(crate) fn summarize(name: &str, lang: Option<&str>, bytes: &[u8]) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let known = matches!(lower.as_str(), "cargo.toml" | "pyproject.toml" | "package.json")
        || lower.starts_with("readme")
        || matches!(lang, Some("markdown" | "rst" | "python" | "rust" | "typescript" | "tsx" | "javascript"));
    if !known {
        return None;
    }
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
        (_, Some("python")) => python_docstring(text),
        (_, Some("rust")) => rust_inner_docs(text),
        (_, Some("typescript" | "tsx" | "javascript")) => js_leading_comment(text),
        _ if lower.starts_with("readme") => markdown_paragraph(text),
        _ => None,
    }?;
    one_line(&raw)
}

/// Collapse whitespace, drop inline markup (see [`inline_markup`]), and
/// cut to [`MAX_SUMMARY_CHARS`].
fn one_line(raw: &str) -> Option<String> {
    let raw = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let unmarked = inline_markup().replace_all(&raw, "$text$doc$reftext$link$role");
    let mut line = unmarked.split_whitespace().collect::<Vec<_>>().join(" ");
    line.retain(|c| c != '`' && c != '*');
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    if line.chars().count() <= MAX_SUMMARY_CHARS {
        return Some(line.to_string());
    }
    let cut: String = line.chars().take(MAX_SUMMARY_CHARS).collect();
    let at_word = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    Some(format!("{}…", at_word.trim_end_matches([',', ';', ':', ' '])))
}

/// Inline markup whose text is kept and whose syntax goes: Markdown images
/// (all of them) and links `[text](url)`, `[text][ref]`, rustdoc links `` [`Name`] ``, reST links `` `text <url>`_ `` and
/// `` `text`_ ``, and reST roles `` :role:`text` `` (`:py:class:` and the like).
fn inline_markup() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"!\[[^\]]*\]\([^)]*\)|\[(?P<text>[^\]]+)\]\([^)]*\)|\[`(?P<doc>[^`\]]+)`\](?:\[[^\]]*\])?|\[(?P<reftext>[^\]]+)\]\[[^\]]*\]|`(?P<link>[^`<]+?)\s*(?:<[^>`]*>)?`__?|(?::[\w.-]+)+:`(?P<role>[^`]*)`",
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
    let mut kept: Vec<&str> = Vec::with_capacity(raw.len());
    let mut directive: Option<usize> = None;
    for line in &raw {
        if let Some(at) = directive {
            if line.trim().is_empty() || indent(line) > at {
                continue;
            }
            directive = None;
        }
        let explicit = line.trim_start();
        if explicit == ".." || explicit.starts_with(".. ") {
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
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.starts_with("```") || line.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // A line underlined by the next one is a title (setext markdown, reST).
        let titled = lines.get(i).is_some_and(|next| is_underline(next));
        let title = if titled {
            i += 1;
            Some(line)
        } else {
            line.starts_with('#').then(|| line.trim_start_matches('#').trim())
        };
        let skip = title.is_some()
            || is_field(line)
            || is_link_definition(line)
            || line.starts_with('<')
            || line.starts_with("[!")
            || line.starts_with("![")
            || line.starts_with('|')
            || is_underline(line);
        if line.is_empty() || skip {
            if !paragraph.is_empty() {
                break;
            }
            heading = heading.or(title.filter(|t| !t.is_empty()));
            continue;
        }
        paragraph.push(line);
    }
    let paragraph = paragraph.join(" ");
    match heading {
        // "To use it in its simplest form:" introduces what follows; the title says more.
        Some(heading) if paragraph.is_empty() || paragraph.ends_with(':') => Some(heading.to_string()),
        _ if paragraph.is_empty() => None,
        _ => Some(paragraph),
    }
}

/// A Markdown link reference definition: `[label]: https://…`.
fn is_link_definition(line: &str) -> bool {
    line.strip_prefix('[')
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(label, _)| !label.contains('['))
}

/// A reST field or directive option: `:orphan:`, `:align: center`.
fn is_field(line: &str) -> bool {
    line.strip_prefix(':').and_then(|rest| rest.split_once(':')).is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "_- ".contains(c))
    })
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
                lines.push(line.trim_start_matches('/').trim());
                rest = after.trim_start_matches([' ', '\t']);
            }
            lines
        } else {
            return None;
        };
        let joined = comment.join("\n");
        let lower = joined.to_ascii_lowercase();
        if lower.contains("copyright") || lower.contains("license") || lower.contains("eslint-") {
            continue;
        }
        return prose_paragraph(comment.into_iter());
    }
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
mod tests {
    use super::*;

    fn sum(name: &str, text: &str) -> Option<String> {
        summarize(name, super::super::language(name), text.as_bytes())
    }

    #[test]
    fn readme_first_paragraph_skips_headings_badges_and_html() {
        let text = "---\ntitle: x\n---\n# Project\n\n[![ci](x)](y)\n<p align=center>\n\nFast *context*\nfor `agents`.\n\nMore.\n";
        assert_eq!(sum("README.md", text).as_deref(), Some("Fast context for agents."));
        assert_eq!(sum("README.md", "# Only a title\n").as_deref(), Some("Only a title"));
        assert_eq!(sum("README", "Plain text readme.\n").as_deref(), Some("Plain text readme."));
        assert_eq!(sum("README.rst", "Title\n=====\n\nThe text.\n").as_deref(), Some("The text."));
        assert_eq!(sum("README.md", "Title\n-----\nThe text.\n").as_deref(), Some("The text."));
    }

    #[test]
    fn python_docstrings() {
        let text = "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\"\"\"HTTP client.\n\nDetails.\"\"\"\nimport x\n";
        assert_eq!(sum("__init__.py", text).as_deref(), Some("HTTP client."));
        assert_eq!(sum("m.py", "r'''Raw doc.'''\n").as_deref(), Some("Raw doc."));
        assert_eq!(sum("m.py", "import os\n\"\"\"not a docstring\"\"\"\n"), None);
    }

    #[test]
    fn rust_inner_docs_and_js_comments() {
        let rust = "//! The engine.\n//! Owns the store.\n//!\n//! More.\n#![deny(x)]\nmod a;\n";
        assert_eq!(sum("lib.rs", rust).as_deref(), Some("The engine. Owns the store."));
        assert_eq!(sum("lib.rs", "/*!\n * Block docs.\n */\n").as_deref(), Some("Block docs."));
        assert_eq!(sum("main.rs", "fn main() {}\n"), None);
        let ts = "/**\n * @license MIT\n * Copyright 2020\n */\n/**\n * Auth hooks for React.\n * @module auth\n */\nexport {}\n";
        assert_eq!(sum("index.ts", ts).as_deref(), Some("Auth hooks for React."));
        assert_eq!(
            sum("index.js", "'use strict';\n// Tiny router.\nmodule.exports = 1;\n").as_deref(),
            Some("Tiny router.")
        );
    }

    #[test]
    fn manifests() {
        let cargo = "[package]\nname = \"x\"\ndescription = \"A crate.\"\n";
        assert_eq!(sum("Cargo.toml", cargo).as_deref(), Some("A crate."));
        let pyproject = "[project]\nname = \"x\"\ndescription = \"A package.\"\n";
        assert_eq!(sum("pyproject.toml", pyproject).as_deref(), Some("A package."));
        assert_eq!(sum("package.json", "{\"description\": \"A module.\"}").as_deref(), Some("A module."));
        assert_eq!(sum("Cargo.toml", "not toml ["), None);
    }

    /// Openings in the shapes real projects write (reST module headers, Sphinx
    /// roles and directives, Markdown badges and links, doc-comment headings):
    /// the summary is the first sentence of prose, without markup.
    #[test]
    fn markup_never_reaches_a_summary() {
        let cases: &[(&str, &str, &str)] = &[
            // A module docstring with a reST title and underline (requests' style).
            (
                "adapters.py",
                "# -*- coding: utf-8 -*-\n\"\"\"\nshop.adapters\n~~~~~~~~~~~~~\n\nThis module holds the transport adapters.\n\"\"\"\n",
                "This module holds the transport adapters.",
            ),
            // Overlined title, then a role and a reST link.
            (
                "m.py",
                "\"\"\"\n=====\nTitle\n=====\n\nWraps :class:`Session` and :py:func:`shop.get`; see `the guide <https://x.invalid>`_.\n\"\"\"\n",
                "Wraps Session and shop.get; see the guide.",
            ),
            // A docs page: directives with options, a field list, then prose.
            (
                "index.rst",
                ":orphan:\n\n.. image:: logo.png\n   :align: center\n   :height: 200px\n\n.. _intro:\n\nWelcome\n=======\n\nShop is a toolkit for orders.\n",
                "Shop is a toolkit for orders.",
            ),
            // A directive's indented content is not the paragraph.
            (
                "guide.rst",
                ".. note::\n\n   This is a note, not the summary.\n\nThe real first sentence.\n",
                "The real first sentence.",
            ),
            // Markdown: badges, a linked title, inline links and an image.
            (
                "README.md",
                "# [Shop](https://x.invalid)\n\n[![CI](https://x.invalid/b.svg)](https://x.invalid)\n![logo](logo.png)\n\nA [fast](https://x.invalid/fast) shop ![icon](i.png) for **orders**.\n",
                "A fast shop for orders.",
            ),
            // A Rust crate's docs under a heading.
            (
                "lib.rs",
                "//! # shop\n//!\n//! Orders, carts and [`Invoice`]s.\n",
                "Orders, carts and Invoices.",
            ),
            // A JSDoc block with a Markdown heading first.
            (
                "index.ts",
                "/**\n * ## Shop\n *\n * Typed [client](./client.ts) for the shop API.\n */\n",
                "Typed client for the shop API.",
            ),
            // An ellipsis is prose, not a directive.
            ("notes.md", "...and then the shop opened.\n", "...and then the shop opened."),
            // Link reference definitions and reference links.
            (
                "lib.rs",
                "//! [![docs]][docs-rs]\n//!\n//! [docs]: https://img.invalid/badge.svg\n//! [docs-rs]: https://docs.invalid\n//!\n//! Define [commands][Command] and their [`Arg`]s.\n",
                "Define commands and their Args.",
            ),
            // A paragraph that only introduces what follows gives way to the title.
            (
                "pdb.py",
                "\"\"\"\nThe Shop Debugger\n=================\n\nTo use it in its simplest form:\n\n    >>> import shopdb\n\"\"\"\n",
                "The Shop Debugger",
            ),
            // Generic types keep their brackets.
            ("lib.rs", "//! Reads `Vec<u8>` buffers.\n", "Reads Vec<u8> buffers."),
        ];
        for (name, text, want) in cases {
            assert_eq!(sum(name, text).as_deref(), Some(*want), "{name}: {text:?}");
        }
    }

    #[test]
    fn long_summaries_are_cut_at_a_word() {
        let long = format!("{}\n", "word ".repeat(100));
        let got = sum("README.md", &long).unwrap();
        assert!(got.chars().count() <= MAX_SUMMARY_CHARS + 1 && got.ends_with("word…"), "{got}");
    }
}
