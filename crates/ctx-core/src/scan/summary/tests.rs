//! The summaries of real-world openings: docstrings, doc comments, READMEs, manifests.
//! Declared `#[cfg(test)] mod tests;` in `summary/mod.rs`: compiled for tests only.

use super::*;

fn sum(name: &str, text: &str) -> Option<String> {
    summarize(name, super::super::language(name), text.as_bytes())
}

#[test]
fn ctx_s_own_section_is_no_summary_of_a_file() {
    let section = "<!-- BEGIN CTX MANAGED SECTION v1 -->\n## ctx\n\nctx keeps what an agent should know.\n\
                   <!-- END CTX MANAGED SECTION -->\n";
    assert_eq!(sum("AGENTS.md", section), None);
    let theirs = format!("# Rules\n\nRun the linter before each commit.\n\n{section}");
    assert_eq!(sum("AGENTS.md", &theirs).as_deref(), Some("Run the linter before each commit."));
}

#[test]
fn readme_first_paragraph_skips_headings_badges_and_html() {
    let text = "---\ntitle: x\n---\n# Project\n\n[![ci](x)](y)\n<p align=center>\n\nFast *context*\nfor `agents`.\n\nMore.\n";
    assert_eq!(sum("README.md", text).as_deref(), Some("Fast context for agents."));
    assert_eq!(sum("README.md", "# Only a title\n").as_deref(), Some("Only a title"));
    assert_eq!(sum("README", "Plain text readme.\n").as_deref(), Some("Plain text readme."));
    assert_eq!(sum("README.rst", "Title\n=====\n\nThe text.\n").as_deref(), Some("The text."));
    assert_eq!(sum("README.md", "Title\n-----\nThe text.\n").as_deref(), Some("The text."));
    // A comment for the file's editors, over lines or on one, is not its text (black's CHANGES.md).
    let changes = "# Change Log\n\n## Unreleased\n\n<!-- PR authors:\n     Please include the PR number in \
                   the changelog entry, not the issue number -->\n\nEvery release, newest first.\n";
    assert_eq!(sum("README.md", changes).as_deref(), Some("Every release, newest first."));
    // A changelog's opening is its latest entry, nothing of the file's.
    assert_eq!(sum("CHANGES.md", changes), None);
    assert_eq!(
        sum("History.md", "5.1.0 / 2025-03-31\n==========\n\n* Fixed the behavior of res.send()\n"),
        None
    );
    let one_line = "<!-- markdownlint-disable MD041 -->\nThe text.\n";
    assert_eq!(sum("README.md", one_line).as_deref(), Some("The text."));
}

#[test]
fn a_section_marker_is_no_summary_of_a_file() {
    // express's lib/application.js: a licence, then a marker over the requires.
    let text = "/*!\n * express\n * Copyright(c) 2009-2013 TJ Holowaychuk\n * MIT Licensed\n */\n\n'use strict';\n\n\
                /**\n * Module dependencies.\n * @private\n */\n\nvar http = require('node:http');\n";
    assert_eq!(sum("application.js", text), None);
    let text = "/**\n * Module exports.\n */\n\n/**\n * Parse a cookie header into an object.\n */\n";
    assert_eq!(sum("cookie.js", text).as_deref(), Some("Parse a cookie header into an object."));
}

#[test]
fn python_docstrings() {
    let text =
        "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\"\"\"HTTP client.\n\nDetails.\"\"\"\nimport x\n";
    assert_eq!(sum("__init__.py", text).as_deref(), Some("HTTP client."));
    assert_eq!(sum("m.py", "r'''Raw doc.'''\n").as_deref(), Some("Raw doc."));
    assert_eq!(sum("m.py", "import os\n\"\"\"not a docstring\"\"\"\n"), None);
    assert_eq!(sum("test_startup.py", "\"\"\"https://x.invalid/issues/1\"\"\"\n"), None, "an address alone");
    // A licence is no module docstring (uvicorn's `_types.py`): the main class's docs stand in.
    let licence = "\"\"\"\nCopyright (c) Someone.\nAll rights reserved.\n\nRedistribution is permitted.\n\"\"\"\n\n\
                   class Types:\n    \"\"\"ASGI's types.\"\"\"\n";
    assert_eq!(sum("types.py", licence).as_deref(), Some("ASGI's types."));
    // A lone class is the module, unless the module has public functions besides (httpie's
    // `manager/compat.py`: its pip helpers, and a `PipError` whose docs said what the file was).
    let lone = "import sys\n\nclass PipError(Exception):\n    \"\"\"An exception pip raises.\"\"\"\n\n";
    assert_eq!(sum("compat.py", lone).as_deref(), Some("An exception pip raises."));
    assert_eq!(
        sum("compat.py", &format!("{lone}def _discover():\n    pass\n")).as_deref(),
        Some("An exception pip raises.")
    );
    assert_eq!(sum("compat.py", &format!("{lone}def run_pip(args):\n    pass\n")), None);
    // Named like the file, it still is (`pip_error.py`).
    assert_eq!(
        sum("pip_error.py", &format!("{lone}def run_pip(args):\n    pass\n")).as_deref(),
        Some("An exception pip raises.")
    );
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
    // A section's label over code, or the comment on the declaration below it, is not the file's.
    assert_eq!(
        sum("index.ts", "// Types\nexport * from \"./types\";\n\n// H3\nexport { H3 } from \"./h3\";\n"),
        None
    );
    let constant = "// Allowed characters: horizontal tabs, spaces or visible ascii characters\n\
                    const DISALLOWED = /[^\\u0009]/g;\n";
    assert_eq!(sum("sanitize.ts", constant), None);
    // A notice after a comment on its line; none after code, or in a bundle's one long line.
    let after = "/* eslint-disable */ // @generated by gen.ts\nexport const a = 1;\n";
    // A block comment below the notice is not part of it (fastify's `/* c8 ignore start */`).
    let below =
        "// This file is autogenerated by build.js, do not edit\n/* c8 ignore start */\n\"use strict\";\n";
    assert_eq!(
        super::generated_notice(below).as_deref(),
        Some("This file is autogenerated by build.js, do not edit")
    );
    // rich's Unicode tables.
    let rich = "# Auto generated by tools/make_width_tables.py\n\ncelltable = [\n]\n";
    assert_eq!(
        super::generated_notice(rich).as_deref(),
        Some("Auto generated by tools/make_width_tables.py")
    );
    assert_eq!(super::generated_notice(after).as_deref(), Some("@generated by gen.ts"));
    let bundle = "/*! lib v3 */!function(e){};\n// Code generated by rollup. DO NOT EDIT.\n";
    assert_eq!(super::generated_notice(bundle), None);
    let long = format!("// Code generated by gen.ts. DO NOT EDIT. {}\n", "x".repeat(5_000_000));
    assert_eq!(super::generated_notice(&long), None);
    // Below the first line of code, a comment is an item's, whatever it says (clap's
    // `/// Shell with auto-generated completion script available.`).
    let below =
        "use std::fmt;\n\n/// Shell with auto-generated completion script available.\npub enum Shell {}\n";
    assert_eq!(super::generated_notice(below), None);
    let first_item = "/// Shell with auto-generated completion script available.\npub enum Shell {}\n";
    assert_eq!(super::generated_notice(first_item), None);
    assert_eq!(
        sum("shell.rs", below).as_deref(),
        Some("Shell with auto-generated completion script available.")
    );
    let generated = "// Code generated by build.js. DO NOT EDIT.\nfunction validate10 (data) {}\n";
    assert_eq!(sum("validator.js", generated).as_deref(), Some("Code generated by build.js. DO NOT EDIT."));
    assert_eq!(
        sum("cors.ts", "// CORS helpers\n\nexport function cors() {}\n").as_deref(),
        Some("CORS helpers")
    );
    // bytes' `lib.rs`, whose crate docs follow a crate attribute over four lines, and
    // `buf_mut.rs`, whose one type is an unsafe trait.
    let lib = "#![warn(missing_docs)]\n#![doc(test(\n    no_crate_inject,\n    attr(deny(warnings))\n))]\n\n\
               //! Provides abstractions for working with bytes.\n";
    assert_eq!(sum("lib.rs", lib).as_deref(), Some("Provides abstractions for working with bytes."));
    let buf_mut = "use core::mem;\n\n/// A trait for values that provide sequential write access to bytes.\n\
                   pub unsafe trait BufMut {\n}\n";
    assert_eq!(
        sum("buf_mut.rs", buf_mut).as_deref(),
        Some("A trait for values that provide sequential write access to bytes.")
    );
    // immer's notes to its maintainers, over its imports or not.
    assert_eq!(sum("mapset.ts", "// types only!\nimport {ImmerState} from \"../internal\"\n"), None);
    // A template's logic says nothing (pluggy's towncrier template).
    let jinja = "{% for section in sections %}\n{% set underline = \"-\" %}\n{% if section %}\n{{section}}\n{% endif %}\n";
    assert_eq!(sum("_template.rst", jinja), None);
    // swr's to-do and its note on why the code casts.
    assert_eq!(
        sum("config.ts", "// TODO: fix SWRConfig re-use issue with bundler\n\nimport { x } from 'y'\n"),
        None
    );
    let why = "// We have to several type castings here because `useSWRInfinite` is a special\n\
               // hook where `key` and return type are not like the normal `useSWR` types.\n\nimport { a } from 'b'\n";
    assert_eq!(sum("index.ts", why), None);
    assert_eq!(
        sum("env.ts", "// Should be no imports here!\n\n/** The sentinel. */\nexport const NOTHING = 1\n"),
        None
    );
    let exported = "// provide utility functions for css helper\nexport const SELECTOR = ':global'\n";
    assert_eq!(sum("common.ts", exported).as_deref(), Some("provide utility functions for css helper"));
    // A module's root file is its folder's: the one type it defines does not speak for it.
    let timer =
        "mod unix;\n\n/// Used to indicate the result of running a command\npub struct TimerResult {\n}\n";
    assert_eq!(sum("mod.rs", timer), None);
    assert_eq!(sum("result.rs", timer).as_deref(), Some("Used to indicate the result of running a command"));
    let debug =
        "class DebuggedApplication:\n    \"\"\"Enables debugging support for a given application.\"\"\"\n";
    assert_eq!(
        sum("__init__.py", debug).as_deref(),
        Some("Enables debugging support for a given application.")
    );
}

#[test]
fn code_alone_is_no_summary() {
    assert_eq!(
        sum("blocking.rs", "//! `cargo run --example blocking --features=blocking`\n#![deny(warnings)]\n"),
        None
    );
    assert_eq!(sum("lib.rs", "//! `reqwest` is a client.\n").as_deref(), Some("reqwest is a client."));
}

#[test]
fn front_matter_says_what_a_page_is_about() {
    // A GitHub issue template: its body is a form to fill in.
    let template = "---\nname: Bug report\nabout: 'Report a possible bug in HTTPie'\nlabels: \"new, bug\"\n---\n\n\
                    ## Checklist\n\n1.\n2.\n3.\n";
    assert_eq!(sum("bug_report.md", template).as_deref(), Some("Report a possible bug in HTTPie"));
    let page = "---\ntitle: Install\ndescription: How to install the tool.\n---\n\nRun this.\n";
    assert_eq!(sum("install.md", page).as_deref(), Some("How to install the tool."));
    // A page's title is its heading (zustand's guides), over its first section's.
    let guide = "---\ntitle: Advanced TypeScript Guide\nnav: 13\n---\n\n## Basic usage\n\n\
                 Instead of `create(...)`, write `create<T>()(...)`. For example:\n\n```ts\nx\n```\n";
    assert_eq!(sum("advanced-typescript.md", guide).as_deref(), Some("Advanced TypeScript Guide"));
    // A callout is an aside, not what the page is.
    let noted = "---\ntitle: Setup with Next.js\n---\n\n> [!NOTE]\n> We will be updating this guide \
                 soon.\n\n[Next.js](https://nextjs.org) is a popular framework for React.\n";
    assert_eq!(sum("nextjs.md", noted).as_deref(), Some("Next.js is a popular framework for React."));
    let only_a_note = "---\ntitle: Setup with Next.js\n---\n\n> [!WARNING]\n> Soon.\n";
    assert_eq!(sum("nextjs.md", only_a_note).as_deref(), Some("Setup with Next.js"));
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
        // What Sphinx shows of a role: the last part after `~`, a reference's title (jinja's docs).
        (
            "nativetypes.rst",
            "The default :class:`~jinja2.Environment` renders to strings; see :doc:`/templates` and :ref:`the API <api>`.\n",
            "The default Environment renders to strings; see templates and the API.",
        ),
        // Markdown's underscore emphasis goes, a snake_case name stays (tracing's README).
        (
            "README.md",
            "tracing is maintained by the Tokio project, but does _not_ require the tokio runtime; see `max_level_info` and __init__.\n",
            "tracing is maintained by the Tokio project, but does not require the tokio runtime; see max_level_info and __init__.",
        ),
        // The default role with a title and a target (marshmallow's docs): the title.
        (
            "extending.rst",
            "Methods are registered using the `pre_load <marshmallow.decorators.pre_load>` and \
             `post_load <marshmallow.decorators.post_load>` decorators on a `Vec<u8>`.\n",
            "Methods are registered using the pre_load and post_load decorators on a Vec<u8>.",
        ),
        // An emoji's shortcode opening a paragraph (tracing's CONTRIBUTING.md) that thanks
        // the reader: the next says more.
        (
            "CONTRIBUTING.md",
            "# Contributing to Tracing\n\n:balloon: Thanks for your help improving the project! We are so happy to have\n\
             you!\n\nThere are opportunities to contribute.\n",
            "There are opportunities to contribute.",
        ),
        // loguru's: thanks, link targets, then its policy's first sentence.
        (
            "CONTRIBUTING.rst",
            "Thank you for considering improving `Loguru`, any contribution is much welcome!\n\n\
             .. _PEP 8: https://www.python.org/dev/peps/pep-0008/\n\n\nAutomated Contributions Policy\n\
             ------------------------------\n\nAI-generated content must be disclosed.\n",
            "AI-generated content must be disclosed.",
        ),
        // tenacity's and jotai's: a pointer to the documentation elsewhere, then what it is.
        (
            "README.rst",
            "Tenacity\n========\n.. image:: https://img.shields.io/pypi/v/tenacity.svg\n    :target: https://pypi.org/project/tenacity\n\n\
             **Please refer to the** `tenacity documentation <https://tenacity.readthedocs.io/en/latest/>`_ **for a better experience.**\n\n\
             Tenacity is a general-purpose retrying library.\n",
            "Tenacity is a general-purpose retrying library.",
        ),
        (
            "README.md",
            "<br>\n\nvisit [jotai.org](https://jotai.org) or `npm i jotai`\n\n\
             Jotai scales from a simple useState replacement to an enterprise TypeScript application.\n",
            "Jotai scales from a simple useState replacement to an enterprise TypeScript application.",
        ),
        // A docs page: directives with options, a field list, then prose.
        (
            "index.rst",
            ":orphan:\n\n.. image:: logo.png\n   :align: center\n   :height: 200px\n\n.. _intro:\n\nWelcome\n=======\n\nShop is a toolkit for orders.\n",
            "Shop is a toolkit for orders.",
        ),
        // Entries under version titles are no description, nor an older release's notes
        // (click's CHANGES.rst: `Released 2015-11-24, codename "pow pow"`): the first title
        // is. (A changelog by name has no summary at all: see `readme_first_paragraph_…`.)
        (
            "upgrading.rst",
            "Version 3.2.0\n-------------\n\nUnreleased\n\n-   Drop support for Python 3.9. :pr:`3098`\n\
             -   Remove previously deprecated code. :pr:`3099`\n\nVersion 3.1.0\n-------------\n\n\
             Released 2015-11-24, codename \"pow pow\"\n\n-   Something.\n",
            "Version 3.2.0",
        ),
        // HTML entities read as what they stand for.
        ("notes.md", "Adds &#x27;withXSRFToken&#x27; &amp; more.\n", "Adds 'withXSRFToken' & more."),
        // A doc comment's short first line is its summary (clap's `aot` module).
        (
            "mod.rs",
            "//! Prebuilt completions\n//!\n//! Shell is a convenience enum for an argument value type.\n",
            "Prebuilt completions",
        ),
        // Nor a checklist's boxes (bat's release checklist).
        (
            "release-checklist.md",
            "# Release checklist\n\n## Version bump\n\n- [ ] Update version in Cargo.toml.\n- [ ] Run tests.\n",
            "Release checklist",
        ),
        // A list ends the paragraph that introduces it; the prose after a list is read.
        ("notes.md", "- one\n- two\n\nThe prose after it.\n", "The prose after it."),
        // A README's list of links, then a section that says what the project is.
        (
            "README.md",
            "# Foo\n\n- [Docs](https://x.invalid)\n- [Chat](https://y.invalid)\n\n## About\n\nFoo is a tool.\n",
            "Foo is a tool.",
        ),
        // A terse docstring is still one.
        ("tokens.py", "\"\"\"Session tokens\"\"\"\n", "Session tokens"),
        // CSS in a `<style>` element is no prose (typer's docs index).
        (
            "index.md",
            "<style>\n.md-content .md-typeset h1 { display: none; }\n</style>\n\n<p align=\"center\">\n\
             <a href=\"https://x.invalid\"><img src=\"logo.svg\"></a>\n</p>\n\nTyper builds CLIs.\n",
            "Typer builds CLIs.",
        ),
        // A role opening a sentence is prose, not a reST field (werkzeug's local.py).
        (
            "local.py",
            "\"\"\"\n:class:`ContextVar` holds the data of each context. This wraps it.\n\"\"\"\n",
            "ContextVar holds the data of each context. This wraps it.",
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
        ("lib.rs", "//! # shop\n//!\n//! Orders, carts and [`Invoice`]s.\n", "Orders, carts and Invoices."),
        // A JSDoc tag's text runs on over the lines below it (h3's `error.ts`).
        (
            "error.ts",
            "/**\n * H3 Runtime Error\n * @class\n * @property {number} status\n * @property {DataT} data\n *   This can be used to pass additional information about the error.\n */\nexport class HTTPError {}\n",
            "H3 Runtime Error",
        ),
        // A tag that describes the file gives its text.
        (
            "util.js",
            "/**\n * @fileoverview Helpers for the shop's carts.\n * @author someone\n */\nexport const a = 1;\n",
            "Helpers for the shop's carts.",
        ),
        // A module's doc marked first (Hono's middleware): what follows the tag, not its name.
        (
            "index.ts",
            "/**\n * @module\n * CORS Middleware for Hono.\n */\nexport const cors = () => {}\n",
            "CORS Middleware for Hono.",
        ),
        (
            "index.ts",
            "/**\n * @module cors\n * CORS Middleware for Hono.\n */\n",
            "CORS Middleware for Hono.",
        ),
        // A Python module's leading comment that says a tool wrote it (sqlmodel's select overloads).
        (
            "_expression_select_gen.py",
            "# WARNING: do not modify this code, it is generated by\n# _expression_select_gen.py.jinja2\n\nfrom typing import Any\n",
            "WARNING: do not modify this code, it is generated by _expression_select_gen.py.jinja2",
        ),
        // A notice under a licence header, with the command that wrote the file after its colon
        // (regex's Unicode tables), past Rust's inner attributes.
        (
            "age.rs",
            "// Copyright 2024 The Authors.\n// Licensed under MIT.\n\n#![allow(missing_docs)]\n\
             // DO NOT EDIT THIS FILE. IT WAS AUTOMATICALLY GENERATED BY:\n//\n//   ucd-generate age ucd-16.0.0\n\
             //\n// Unicode version: 16.0.0.\n\npub const BY_NAME: &[u8] = &[];\n",
            "DO NOT EDIT THIS FILE. IT WAS AUTOMATICALLY GENERATED BY: ucd-generate age ucd-16.0.0",
        ),
        // A Python module's notice comes before its docstring (protobuf's `_pb2.py`).
        (
            "shop_pb2.py",
            "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n# source: shop.proto\n\
             \"\"\"Generated protocol buffer code.\"\"\"\n",
            "Generated by the protocol buffer compiler. DO NOT EDIT! source: shop.proto",
        ),
        // In a block comment, after a directive.
        (
            "client.gen.ts",
            "'use strict';\n/* eslint-disable */\n/**\n * This file is auto-generated by @hey-api/openapi-ts\n */\nexport const a = 1;\n",
            "This file is auto-generated by @hey-api/openapi-ts",
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
        // A reST module header right after the quotes, its underline shorter than the title.
        (
            "adapters.py",
            "\"\"\"pkg.adapters\n~~~~~~~~\n\nThis module contains the transport adapters that Requests-alikes use.\n\n:copyright: (c) 2012.\n\"\"\"\n",
            "This module contains the transport adapters that Requests-alikes use.",
        ),
        // A literal block's `::` in a package docstring.
        (
            "__init__.py",
            "\"\"\"Enables debugging support for a given application::\n\n    app = Debugged(app)\n\"\"\"\n",
            "Enables debugging support for a given application:",
        ),
        // A docs page: `:orphan:`, an image whose options are indented deeper, a target, a title.
        (
            "page.rst",
            ":orphan:\n\n.. image:: https://x.invalid/logo.png\n    :align: center\n    :height: 200px\n    :alt: the logo\n\n.. _api:\n\nAPI\n===\n\n.. module:: shop\n\nThis part of the documentation covers all the interfaces of Shop.\n",
            "This part of the documentation covers all the interfaces of Shop.",
        ),
        // reST substitution badges and a raw HTML block.
        (
            "README.rst",
            ".. |pypi| image:: https://img.invalid/pypi.svg\n   :target: https://pypi.invalid\n.. |ci| image:: https://img.invalid/ci.svg\n\n|pypi| |ci|\n\n.. raw:: html\n\n   <p align=\"center\">logo</p>\n\nShop ships orders.\n",
            "Shop ships orders.",
        ),
        // A README with a centred HTML header: the one-line paragraph is the summary.
        (
            "README.md",
            "<br><br>\n<div align=\"center\">\n   <a href=\"https://x.invalid\"><img src=\"logo.svg\" /></a><br>\n</div>\n\n<p align=\"center\">Promise based <b>HTTP client</b> for the browser</p>\n\n<p align=\"center\">\n    <a href=\"https://x.invalid\"><b>Website</b></a>\n</p>\n",
            "Promise based HTTP client for the browser",
        ),
        // An HTML title, badges on one line, a quoted tagline.
        (
            "README.md",
            "<h1 align=\"center\">Shop</h1>\n\n[![CI](https://x.invalid/ci.svg)](https://x.invalid) [![PyPI](https://x.invalid/v.svg)](https://x.invalid)\n\n> **Orders for Rust**\n\nMore.\n",
            "Orders for Rust",
        ),
        // No module docstring: the main class's docstring (named like the file; private ones aside).
        (
            "shop.py",
            "from x import y\n\nclass _Hidden:\n    \"\"\"Not this one.\"\"\"\n\nclass Shop(\n    Base,\n):\n    \"\"\"The shop object implements a WSGI application.\n\n    More.\n    \"\"\"\n",
            "The shop object implements a WSGI application.",
        ),
        // No `//!` docs: the first public type's `///` docs.
        (
            "pool.rs",
            "use std::sync::Arc;\n\n/// A pool of [`Conn`]s.\n#[derive(Debug)]\npub struct Pool {\n    inner: Arc<()>,\n}\n",
            "A pool of Conns.",
        ),
        // Its docs, not the example that attributes written over lines split off (mio's `SourceFd`).
        (
            "sourcefd.rs",
            "use std::io;\n\n/// Adapter for [`RawFd`] providing an [`event::Source`] implementation.\n///\n/// # Examples\n///\n\
             #[cfg_attr(\n    feature = \"os-poll\",\n    doc = \"```\"\n)]\n/// use mio::{Interest, Poll, Token};\n/// ```\n\
             #[derive(Debug)]\npub struct SourceFd<'a>(pub &'a RawFd);\n",
            "Adapter for RawFd providing an event::Source implementation.",
        ),
        // No leading comment: the exported class's JSDoc.
        (
            "client.ts",
            "import { x } from './x';\n\n/**\n * Create a new instance of the client.\n * @param config the defaults\n */\nexport class Client {}\n",
            "Create a new instance of the client.",
        ),
        // MkDocs docs pages: an admonition block, attribute lists, inline HTML.
        (
            "using-click.md",
            "/// warning\n\nThis is a warning.\n\n///\n\nShop's <abbr title=\"command line\">CLI</abbr> wraps [Click](https://x.invalid){.internal-link target=_blank}.\n",
            "Shop's CLI wraps Click.",
        ),
        ("tips.md", "!!! tip\n    Not this.\n\nShop runs anywhere.\n", "Shop runs anywhere."),
        // MyST's directives fenced by colons (structlog's docs).
        (
            "twisted.md",
            "# Twisted\n\n:::{warning}\nSince `sys.exc_clear` has been dropped, there is no way.\n:::\n\n::::{note}\nNested.\n::::\n\nShop logs through Twisted.\n",
            "Shop logs through Twisted.",
        ),
        // rustdoc paths in brackets keep their text.
        (
            "lib.rs",
            "//! Shows [crate::config::Config::show_all] lines.\n",
            "Shows crate::config::Config::show_all lines.",
        ),
        // A centred tagline in emphasis on its own line, badges after it.
        (
            "README.md",
            "<p align=\"center\">\n  <a href=\"https://x.invalid\"><img src=\"logo.svg\" alt=\"Shop\"></a>\n</p>\n<p align=\"center\">\n    <em>Shop, build great carts. Easy to code.</em>\n</p>\n<p align=\"center\">\n<a href=\"https://x.invalid/ci\" target=\"_blank\">\n    <img src=\"https://x.invalid/b.svg\" alt=\"Test\">\n</a>\n</p>\n\n---\n\n**Documentation**: <a href=\"https://x.invalid\">https://x.invalid</a>\n",
            "Shop, build great carts. Easy to code.",
        ),
        // A terminal fixture's colours are not prose.
        ("out.txt.md", "\u{1b}[38;2;253;151;31mhello\u{1b}[0m world\n", "hello world"),
        // A README's row of links is navigation; the overview says what it is.
        (
            "README.md",
            "![Shop][splash]\n\n[splash]: https://x.invalid/s.svg\n\n[Website](https://x.invalid) |\n[Chat](https://x.invalid/c)\n\n## Overview\n\n`shop` is a framework for carts.\n",
            "shop is a framework for carts.",
        ),
        // Shortcut reference links in a row, a hard break ending it (ratatui's README).
        (
            "README.md",
            "<div align=\"center\">\n\n[![Crate Badge]][Crate] [![Docs Badge]][Docs]  \\\n[Website] · [Docs] · [Changelog]  \\\n[Report a bug] · [Request a Feature]\n\n</div>\n\n[Shop][Website] is a crate for carts.\n",
            "Shop is a crate for carts.",
        ),
        // A badge row broken inside a badge, `<br>` between its rows (ratatui's `lib.rs`).
        (
            "lib.rs",
            "//! [![Crate Badge]][Crate] [![Deps.rs\n//! Badge]][Deps.rs]<br> [![License Badge]](./LICENSE) [![Sponsors\n//! Badge]][GitHub Sponsors]<br> [![Forum Badge]][Forum]\n//! [![Chat Badge]][Chat]<br>\n//!\n//! [Website] · [API Docs]<br>\n//! [Contributing] · [Report a bug]\n//!\n//! Shop is a crate for carts.\n",
            "Shop is a crate for carts.",
        ),
        // Dunder names in code spans keep their underscores.
        (
            "handlers.py",
            "\"\"\"Hooks to use with `__get_core_schema__` and `__get_json_schema__`.\"\"\"\n",
            "Hooks to use with __get_core_schema__ and __get_json_schema__.",
        ),
        // rustdoc's shortcut links keep their text; a type's brackets stay.
        (
            "field.rs",
            "//! Utilities for working with [fields] and [field visitors]: see [`Value`], `[u8]`.\n",
            "Utilities for working with fields and field visitors: see Value, [u8].",
        ),
        // A tool's directive is no summary (mdBook's book.js), nor DefinitelyTyped's credits.
        (
            "book.js",
            "'use strict';\n\n/* global default_theme, hljs, ClipboardJS */\n\n// Fix back button cache problem\nwindow.x = 1;\n",
            "Fix back button cache problem",
        ),
        (
            "index.d.ts",
            "// Type definitions for commander\n// Original definitions by: Alan Agius <https://github.com/alan-agius4>, \
             Marcelo Dezem <https://github.com/mdezem>\n\n/* eslint-disable @typescript-eslint/no-explicit-any */\n",
            "Type definitions for commander",
        ),
        ("check.ts", "// @ts-check\n// Checks the shop's orders.\nexport {}\n", "Checks the shop's orders."),
        // A template's placeholder in a `<div>` is no prose (mdBook's guide).
        (
            "README.md",
            "# Introduction\n\n<div class=\"mdbook-version\">\nVersion: {{ mdbook-version }}\n</div>\n\n\
             **mdBook** is a command line tool to create books with Markdown.\n",
            "mdBook is a command line tool to create books with Markdown.",
        ),
        // "See the registry:" and its address (starlette's status.py).
        (
            "status.py",
            "\"\"\"\nHTTP codes\nSee HTTP Status Code Registry:\nhttps://www.iana.org/assignments/http-status-codes\n\n\
             And RFC 2324 - https://tools.ietf.org/html/rfc2324\n\"\"\"\n",
            "HTTP codes",
        ),
        // A README's sentence saying what the project is, before its list (rand's).
        (
            "README.md",
            "# Rand\n\n[![Crate](https://x.invalid/v.svg)](https://x.invalid)\n\n\
             Rand is a set of crates supporting (pseudo-)random generators:\n\n-   Built over a trait\n",
            "Rand is a set of crates supporting (pseudo-)random generators:",
        ),
        // reST's auto-numbered list is a list, not a heading (pluggy's RELEASING.rst).
        (
            "RELEASING.rst",
            "Release Procedure\n-----------------\n\n#. Depending on the magnitude of the changes, consider testing\n   \
             some of the large downstream users.\n\n#. Open a PR.\n",
            "Release Procedure",
        ),
        // A bold line is a callout or a field's label; "Source code:" is where, not what (got's docs).
        (
            "5-https.md",
            "[> Back to homepage](../readme.md#documentation)\n\n## Advanced HTTPS API\n\n### `https`\n\n\
             **Type: `object`**\n\nThis option represents the options used to make HTTPS requests.\n",
            "This option represents the options used to make HTTPS requests.",
        ),
        (
            "1-promise.md",
            "## Promise API\n\nSource code: [`source/as-promise/index.ts`](../source/as-promise/index.ts)\n\n\
             The main Got function returns a Promise.\n",
            "The main Got function returns a Promise.",
        ),
        // A sentence before an address is kept (pydantic's color.py).
        (
            "color.py",
            "\"\"\"\nColor definitions are used as per CSS3 specification:\nhttp://www.w3.org/TR/css3-color/#svg-color\n\"\"\"\n",
            "Color definitions are used as per CSS3 specification:",
        ),
    ];
    for (name, text, want) in cases {
        assert_eq!(sum(name, text).as_deref(), Some(*want), "{name}: {text:?}");
    }
    // A licence is named, not summarized by its copyright line (starlette's LICENSE.md).
    let bsd = "Copyright © 2018, [Encode OSS Ltd](https://www.encode.io/).\nAll rights reserved.\n\n\
               Redistribution and use in source and binary forms, with or without\nmodification, are permitted \
               provided that the following conditions are met:\n\n* Neither the name of the copyright holder nor \
               the names of its\n  contributors may be used to endorse or promote products\n";
    assert_eq!(sum("LICENSE.md", bsd).as_deref(), Some("BSD 3-Clause License"));
    let mit = "MIT License\n\nCopyright (c) Sindre Sorhus\n\nPermission is hereby granted, free of charge, \
               to any person obtaining a copy\n";
    assert_eq!(sum("license", mit).as_deref(), Some("MIT License"));
    assert_eq!(
        sum("LICENSE-APACHE", "Apache License\nVersion 2.0, January 2004\n").as_deref(),
        Some("Apache License 2.0")
    );
    assert_eq!(sum("LICENSE.txt", "Copyright 2020 Someone. Terms of our own.\n"), None);
    // A class's docs do not describe a file that exports functions besides: got's
    // `response.ts`, its body parsing, is not its `ParseError`.
    let response = "import {RequestError} from './errors.js';\n\n/**\nAn error to be thrown when parsing the body fails.\n*/\nexport class ParseError extends Error {}\n\n\
                    export const parseBody = (response: Response): unknown => JSON.parse(response.body);\n";
    assert_eq!(sum("response.ts", response), None);
    // DefinitelyTyped's header of where and by whom says nothing of what (pino.d.ts).
    let credits = "// Project: https://github.com/pinojs/pino.git, http://getpino.io\n// Definitions by: Peter Snider \
                   <https://github.com/psnider>\n//                 BendingBender <https://github.com/BendingBender>\n\
                   // TypeScript Version: 4.4\n\nimport type { EventEmitter } from \"events\";\n";
    assert_eq!(sum("pino.d.ts", credits), None);
    // An example's "Run with" before its command says nothing of it: no summary.
    let example =
        "//! Run with\n//!\n//! ```not_rust\n//! cargo run -p example-cors\n//! ```\n\nuse axum::Router;\n";
    assert_eq!(sum("main.rs", example), None);
    let fenced = "//! Example:\n//! ```\n//! shop::run();\n//! ```\n";
    assert_eq!(sum("main.rs", fenced), None);
    // A sentence before code that does describe is kept.
    let kept =
        "//! Serves the shop's orders over HTTP, with retries and timeouts.\n//!\n//! ```\n//! x\n//! ```\n";
    assert_eq!(
        sum("main.rs", kept).as_deref(),
        Some("Serves the shop's orders over HTTP, with retries and timeouts.")
    );
    // A module of many types, none named like it, is summarized by none.
    let many = "class Request:\n    \"\"\"A request.\"\"\"\nclass Response:\n    \"\"\"A response.\"\"\"\n";
    assert_eq!(sum("wrappers.py", many), None);
    assert_eq!(sum("response.py", many).as_deref(), Some("A response."));
    // Prose that opens with a keyword is prose (click's _termui_impl.py).
    let prose = "\"\"\"\nThis module contains implementations for the termui module. To keep the\n\
                 import time of Click down, some infrequently used functionality is placed in\n\
                 this module and only imported as needed.\n\"\"\"\n";
    assert!(sum("_termui_impl.py", prose).unwrap().ends_with("only imported as needed."));
    let prose = "\"\"\"Finds the shop's orders and\nreturn the best one (if any).\"\"\"\n";
    assert_eq!(
        sum("m.py", prose).as_deref(),
        Some("Finds the shop's orders and return the best one (if any).")
    );
    // A docstring that only shows code has no summary (starlette's Jinja2Templates).
    let example = "class Templating:\n    \"\"\"\n    templates = Jinja2Templates(\"templates\")\n\n    \
                   return templates.TemplateResponse(\"index.html\", {\"request\": request})\n    \"\"\"\n";
    assert_eq!(sum("templating.py", example), None);
    assert_eq!(
        sum("m.py", "\"\"\">>> shop.run()\nRuns the shop.\"\"\"\n").as_deref(),
        Some("Runs the shop.")
    );
    // A module's own docstring comes before its class's.
    let both = "\"\"\"The module.\"\"\"\nclass Shop:\n    \"\"\"The class.\"\"\"\n";
    assert_eq!(sum("m.py", both).as_deref(), Some("The module."));
}

#[test]
fn long_summaries_are_cut_at_a_word() {
    let long = format!("{}\n", "word ".repeat(100));
    let got = sum("README.md", &long).unwrap();
    assert!(got.chars().count() <= MAX_SUMMARY_CHARS + 1 && got.ends_with("word…"), "{got}");
}

#[test]
fn a_notice_that_a_tool_wrote_the_file_is_not_what_its_code_says_it_makes() {
    for notice in [
        "This file is autogenerated by build/build-validation.js, do not edit",
        "Code generated by protoc-gen-go. DO NOT EDIT.",
        "Generated by the protocol buffer compiler.",
        "This module was generated from grammar.lark",
        "Automatically generated by tools/gen_tables.py",
        "Auto generated by tools/make_width_tables.py",
        "WARNING: do not modify this code, it is generated by _expression_select_gen.py.jinja2",
    ] {
        assert!(super::says_generated(notice), "{notice}");
    }
    for summary in [
        "AST nodes generated by the parser for the compiler.",
        "The optimizer folds constants; the code it emits is generated by the compiler from these nodes.",
        "Parse the ids generated by the server.",
    ] {
        assert!(!super::says_generated(summary), "{summary}");
    }
}
