//! Tags: the definitions and references of one source file.
//!
//! Parsed with tree-sitter and the language's tags query ([`crate::lang::Lang::query`]);
//! a file with syntax errors yields what parses. Languages without a grammar
//! get their definitions from a cheap line scan ([`crate::fallback`]). Definitions
//! carry their signature (the lines before the body, rendered by the
//! `signature` module) and the definition
//! around them (the class of a method, the impl of a Rust method), so a map
//! can show a method in its context.

use serde::{Deserialize, Serialize};

/// A definition's or reference's name: kept inline when short (nearly all
/// are), so decoding a repository's cached tags allocates for signatures,
/// not for its hundreds of thousands of names.
pub type Name = compact_str::CompactString;

pub use default_export::DefaultExport;
pub use extract::extract;

/// Bumped when what extraction yields changes: cached tags are re-parsed.
pub const TAGS_VERSION: u32 = 82;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Trait,
    Interface,
    Type,
    Constant,
    Module,
    Macro,
    /// A Rust `impl` block: context for its methods, not a definition of a name.
    Impl,
}

impl Kind {
    fn parse(name: &str) -> Option<Kind> {
        Some(match name {
            "function" => Kind::Function,
            "method" => Kind::Method,
            "class" => Kind::Class,
            "struct" => Kind::Struct,
            "enum" => Kind::Enum,
            "trait" => Kind::Trait,
            "interface" => Kind::Interface,
            "type" => Kind::Type,
            "constant" => Kind::Constant,
            "module" => Kind::Module,
            "macro" => Kind::Macro,
            "impl" => Kind::Impl,
            _ => return None,
        })
    }

    /// Whether the name it carries is defined here (an impl only names a type defined elsewhere).
    pub fn defines_name(self) -> bool {
        self != Kind::Impl
    }

    /// Kinds whose functions are methods.
    pub(crate) fn holds_methods(self) -> bool {
        matches!(self, Kind::Impl | Kind::Trait | Kind::Class | Kind::Interface)
    }
}

/// Whether a name is private by its language's convention: `_name` (Python,
/// JavaScript) or `#name` (a JavaScript private field), not a `__dunder__`.
pub(crate) fn private_by_name(name: &str) -> bool {
    name.starts_with('#') || name.starts_with('_') && !crate::outline::is_dunder(name)
}

/// A definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    pub name: Name,
    pub kind: Kind,
    /// First and last line of the whole definition, 1-based.
    pub line: u32,
    pub end_line: u32,
    /// The lines that introduce it, without the body.
    pub signature: String,
    /// The items of its parameter list a long signature leaves out (`… (+N)`),
    /// one line each: a task that names one gets it back.
    pub left_out: Vec<String>,
    /// The definition it sits in (index into the file's defs), if any.
    pub parent: Option<u32>,
    /// Whether its language's mark says it is deprecated (`@deprecated`,
    /// `#[deprecated]`, a `DeprecationWarning` first thing in its body).
    pub deprecated: bool,
}

impl Def {
    /// What a rendering of its signature adds to say it is deprecated: a
    /// comment in its language, unless the signature shows the mark itself
    /// (`#[deprecated]`, `@deprecated(...)`).
    pub fn deprecation_note(&self, lang: &str) -> &'static str {
        match lang {
            _ if !self.deprecated || self.signature.contains("deprecated") => "",
            "python" => "  # deprecated",
            _ => "  // deprecated",
        }
    }

    /// Whether a test attribute marks it (Rust's `#[test]` outside a `mod
    /// tests`): the only attribute a signature keeps, on its first line.
    pub fn is_test_by_attribute(&self) -> bool {
        self.signature.starts_with("#[")
            && !VISIBILITY_ATTRIBUTES.iter().any(|a| self.signature.starts_with(a))
    }

    /// Whether a Rust item is part of its crate's API: `pub` (not
    /// `pub(crate)`) or an exported `macro_rules!`, and not `#[doc(hidden)]`.
    /// (Its module's own visibility is its module's to say.)
    pub fn is_rust_public(&self) -> bool {
        let signature = self.signature.trim_start();
        !self.is_doc_hidden() && (signature.starts_with("#[macro_export] ") || signature.starts_with("pub "))
    }

    /// The definition of its file it only names again, if it is such an alias
    /// (marshmallow's `Str = String`, `URL = Url` beside `class String`, `class
    /// Url`): a second name, not a second thing to read.
    pub fn alias_of<'d>(&self, defs: &'d [Def]) -> Option<&'d Def> {
        if self.kind != Kind::Constant || self.parent.is_some() {
            return None;
        }
        let target =
            self.signature.trim().strip_prefix(self.name.as_str())?.trim_start().strip_prefix('=')?.trim();
        let target = target.strip_suffix(';').unwrap_or(target).trim();
        if target.is_empty() || !target.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            return None;
        }
        defs.iter().find(|d| {
            d.name == target && d.parent.is_none() && d.kind != Kind::Constant && d.kind.defines_name()
        })
    }

    /// Whether Rust's `#[doc(hidden)]` keeps it out of its crate's docs: public
    /// for a macro's sake (tracing's `__macro_support`), none of the API.
    pub fn is_doc_hidden(&self) -> bool {
        let signature = self.signature.trim_start();
        signature.strip_prefix("#[macro_export] ").unwrap_or(signature).starts_with("#[doc(hidden)] ")
    }

    /// Whether it is an item of a Rust trait impl (`impl Service<R> for Router`:
    /// its `type Response`, `fn call`): it fills in another's interface, so it
    /// tells less of its file than the file's own items, and a use of its name
    /// (`Response`, `fmt`) is mostly of something else.
    pub fn implements_trait(&self, defs: &[Def]) -> bool {
        self.parent(defs).is_some_and(|p| p.kind == Kind::Impl && p.signature.contains(" for "))
    }

    /// The definition it sits in, among its file's `defs`.
    /// Whether it is a JavaScript setter (`set body (val)`): a definition of its
    /// own beside the getter of the same name (koa's `set body` holds what a
    /// response does with a body; `get body` returns it).
    pub fn is_setter(&self) -> bool {
        let signature = self.signature.trim_start();
        signature.strip_prefix("static ").unwrap_or(signature).starts_with("set ")
    }

    /// The family a one-line constant belongs to by its name: the prefix up to
    /// its first `_`, of three letters or more (`FORMAT_` of arrow's
    /// `FORMAT_ATOM`, `FORMAT_COOKIE`, … `FORMAT_W3C`). A run of them is shown
    /// as its first and the others' names ([`constant_run`]).
    pub fn constant_family(&self) -> Option<&str> {
        let prefix = self.name.get(..self.name.find('_')? + 1)?;
        (self.kind == Kind::Constant && prefix.len() > 3 && !self.signature.contains('\n')).then_some(prefix)
    }

    /// Whether it is a class's constructor (Python's `__init__`, JavaScript's
    /// and TypeScript's `constructor`), which a use of the class runs.
    pub fn is_constructor(&self) -> bool {
        matches!(self.kind, Kind::Method | Kind::Function)
            && matches!(self.name.as_str(), "__init__" | "constructor")
    }

    /// The object a function is assigned to as a property, as written
    /// (`AxiosError` of JavaScript's `AxiosError.from = (…) =>`, `Foo` of
    /// `Foo.prototype.bar = function`, `utils.helpers` of `utils.helpers.f = …`).
    pub fn assigned_owner(&self) -> Option<&str> {
        let (target, _) = self.signature.lines().next()?.split_once(" = ")?;
        let owner = target.trim().strip_suffix(self.name.as_str())?.strip_suffix('.')?;
        let plain = !owner.is_empty()
            && owner.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
        plain.then(|| owner.strip_suffix(".prototype").unwrap_or(owner))
    }

    /// Whether it is a member of a type (a method, an impl's `type Value`, a
    /// class's constant): named on the type or a value, never bare.
    pub fn is_member(&self, defs: &[Def]) -> bool {
        self.kind == Kind::Method || self.parent(defs).is_some_and(|p| p.kind.holds_methods())
    }

    pub fn parent<'d>(&self, defs: &'d [Def]) -> Option<&'d Def> {
        self.parent.and_then(|p| defs.get(p as usize))
    }

    /// Whether it sits in a function or method, however deep (the methods of a
    /// class defined in a test): that function's own business.
    pub fn is_local(&self, defs: &[Def]) -> bool {
        // A factory's method (a function's, not a class's) is as local as its factory.
        let start = match self.parent(defs) {
            Some(factory) if self.kind == Kind::Method && factory.kind == Kind::Function => {
                factory.parent(defs)
            }
            parent => parent,
        };
        std::iter::successors(start, |d| d.parent(defs))
            .any(|p| matches!(p.kind, Kind::Function | Kind::Method))
    }

    /// Whether it is a test function, test class or test module, or sits in one.
    pub fn is_test(&self, defs: &[Def]) -> bool {
        let named_test = |d: &Def| match d.kind {
            Kind::Module => matches!(d.name.as_str(), "tests" | "test"),
            Kind::Class => d.name.starts_with("Test"),
            Kind::Function | Kind::Method => {
                d.name.starts_with("test_") || d.name == "test" || d.is_test_by_attribute()
            }
            _ => false,
        };
        std::iter::successors(Some(self), |d| d.parent(defs)).any(named_test)
    }
}

/// What the attributes that say who sees a Rust item start with, in its signature.
const VISIBILITY_ATTRIBUTES: [&str; 2] = ["#[macro_export]", "#[doc(hidden)]"];

/// A name one file references.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ref {
    pub name: Name,
    /// How many times.
    pub count: u32,
    /// How many of those uses name it on its own or on a module (`f()`,
    /// `import f`, `x: T`, `np.f()`, `crate::util::f()`): no method answers them.
    pub bare: u32,
    /// How many call it on a value or a type (`x.f()` in Rust, `self.f()`,
    /// `this.f()`, `T::f()`, Python's `Path.home()`): only a method answers them.
    /// The rest (Python's and JavaScript's `app.f()`) may mean either.
    pub method: u32,
    /// How many of those uses pass it on to the file's own users (Rust's
    /// `pub use`, JavaScript's `export { f }`): the package shows it.
    pub exported: u32,
    /// The module the file imports it from, as written (`uvicorn.server`,
    /// `.server`, `./server`, `crate::server`): which of the name's definers
    /// it means ([`crate::graph`] follows it).
    pub from: Option<String>,
    /// The name every import or re-export of it binds it as, if another
    /// (`tqdm_gui` of `from .gui import tqdm as tqdm_gui`).
    pub alias: Option<String>,
    /// JavaScript: the name is bound to the default export of `from` (`import
    /// express from '..'`, `const express = require('..')`), whatever that is called.
    pub default_import: bool,
    /// The types its method uses call it on by name, each with how many
    /// (`ProgressBar` ×3 for Rust's `ProgressBar::new()`, `Path` for Python's
    /// `Path.home()`), by type name: the method of that type, not every `new`.
    pub owners: Vec<(Name, u32)>,
}

/// What one file defines and references.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTags {
    /// In source order.
    pub defs: Vec<Def>,
    /// Referenced names, sorted by name.
    pub refs: Vec<Ref>,
    /// The parse had errors (what parsed is still here).
    pub syntax_errors: bool,
    /// The notice at its top that a tool wrote it
    /// ([`ctxkeep_core::generated_notice`]: `This file is autogenerated by
    /// build/build-validation.js, do not edit`): its source is elsewhere.
    #[serde(default)]
    pub generated: Option<String>,
    /// Rust: the modules it declares in other files and keeps to itself (`mod
    /// util;`, `pub(crate) mod gai;`), sorted: what those files define is no
    /// more public than they are.
    pub private_modules: Vec<String>,
    /// Rust: the modules it declares `pub` in other files (`pub mod event;`),
    /// sorted: in a library's root, what their `pub` items are is its API.
    pub public_modules: Vec<String>,
    /// JavaScript and TypeScript: what a file that takes the module whole
    /// gets (`module.exports = createApplication`).
    pub default_export: Option<DefaultExport>,
    /// The modules whose every export it passes on, as written: JavaScript's
    /// and TypeScript's `./vanilla` of `export * from './vanilla'`, Rust's
    /// `crate::regex::string` of `pub use crate::regex::string::*;`.
    pub reexports_all: Vec<String>,
}

mod default_export;
mod extract;
mod imports;
#[cfg(test)]
mod tests;

/// Fewest constants of one family that a map or an outline names together.
pub const CONSTANT_RUN: usize = 4;

/// How many of `ids` (indices of `defs`, ascending) from the first are constants
/// of its family ([`Def::constant_family`]) set one after another in one scope:
/// each the next definition of the file after the one before. 0 unless at least
/// [`CONSTANT_RUN`].
pub fn constant_run(defs: &[Def], ids: &[usize]) -> usize {
    let Some(&first) = ids.first() else { return 0 };
    let Some(family) = defs[first].constant_family() else { return 0 };
    let mut before = first;
    let run = 1 + ids[1..]
        .iter()
        .take_while(|&&k| {
            let (def, next) = (&defs[k], k == before + 1);
            before = k;
            next && def.parent == defs[first].parent && def.constant_family() == Some(family)
        })
        .count();
    if run >= CONSTANT_RUN { run } else { 0 }
}
