//! What a JavaScript or TypeScript module gives a file that takes it whole:
//! its default export (`module.exports = createApplication`, `export default
//! class Application`), and the module a name is required from (`const
//! express = require('../')`). Together they say which definition such a
//! name means, though the names differ: express's tests call `express()`,
//! which is `lib/express.js`'s `createApplication` (see [`crate::graph`]).
//! And the modules it passes on whole (`export * from './vanilla'`).

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

/// A module's default export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefaultExport {
    /// A name the module defines (`module.exports = createApplication`,
    /// `module.exports = class Application …`, `export default function f`).
    Name(String),
    /// Another module's default export, as written (`module.exports =
    /// require('./lib/express')`, `export { default } from './x'`).
    Module(String),
}

/// The default export of the module whose syntax tree is `root`: the last
/// assignment to `module.exports` at its top level, or its `export default`.
/// `None` for an object (`module.exports = { a, b }`) or an anonymous value.
pub(super) fn default_export(root: Node, bytes: &[u8]) -> Option<DefaultExport> {
    let mut cursor = root.walk();
    let mut found = None;
    for statement in root.named_children(&mut cursor) {
        let value = |v: Option<Node>| v.and_then(|v| exported_value(v, bytes));
        let export = match statement.kind() {
            "expression_statement" => {
                value(statement.named_child(0).and_then(|e| module_exports_value(e, bytes)))
            }
            "export_statement" if is_default(statement) => value(
                statement
                    .child_by_field_name("declaration")
                    .or_else(|| statement.child_by_field_name("value")),
            ),
            "export_statement" => reexported_default(statement, bytes).map(DefaultExport::Module),
            _ => None,
        };
        // At run time the last assignment wins.
        if export.is_some() {
            found = export;
        }
    }
    found
}

/// The modules whose every export the module passes on: `'./vanilla'` of
/// `export * from './vanilla'` (not `export * as ns from …`, one name).
pub(super) fn reexported_modules(root: Node, bytes: &[u8]) -> Vec<String> {
    let mut cursor = root.walk();
    let statements = root.named_children(&mut cursor).filter(|s| s.kind() == "export_statement");
    statements
        .filter(|s| {
            let mut cursor = s.walk();
            let children: Vec<&str> = s.children(&mut cursor).map(|c| c.kind()).collect();
            children.contains(&"*") && !children.contains(&"namespace_export")
        })
        .filter_map(|s| unquoted(s.child_by_field_name("source")?, bytes))
        .collect()
}

/// The module `name` (a variable declarator's name) is required whole from:
/// `'../'` of `const express = require('../')`.
pub(super) fn required_module(name: Node, bytes: &[u8]) -> Option<String> {
    let declarator = name.parent().filter(|p| p.kind() == "variable_declarator")?;
    required(declarator.child_by_field_name("value")?, bytes)
}

/// `'./x'` of `require('./x')`.
fn required(call: Node, bytes: &[u8]) -> Option<String> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call.child_by_field_name("function")?;
    if function.kind() != "identifier" || function.utf8_text(bytes).ok()? != "require" {
        return None;
    }
    let argument = call.child_by_field_name("arguments")?.named_child(0)?;
    (argument.kind() == "string").then(|| unquoted(argument, bytes)).flatten()
}

fn unquoted(string: Node, bytes: &[u8]) -> Option<String> {
    Some(string.utf8_text(bytes).ok()?.trim_matches(['"', '\'', '`']).to_string())
}

/// What `module.exports = X` (or `exports = module.exports = X`) assigns: `X`.
fn module_exports_value<'t>(expression: Node<'t>, bytes: &[u8]) -> Option<Node<'t>> {
    let mut at = expression;
    let mut assigns = false;
    while at.kind() == "assignment_expression" {
        assigns |= at.child_by_field_name("left").is_some_and(|left| is_module_exports(left, bytes));
        at = at.child_by_field_name("right")?;
    }
    assigns.then_some(at)
}

fn is_module_exports(node: Node, bytes: &[u8]) -> bool {
    let text = |field| node.child_by_field_name(field).and_then(|n| n.utf8_text(bytes).ok());
    node.kind() == "member_expression"
        && text("object") == Some("module")
        && text("property") == Some("exports")
}

/// `export default …`.
fn is_default(statement: Node) -> bool {
    let mut cursor = statement.walk();
    statement.children(&mut cursor).any(|c| c.kind() == "default")
}

/// `'./x'` of `export { default } from './x'`.
fn reexported_default(statement: Node, bytes: &[u8]) -> Option<String> {
    let source = statement.child_by_field_name("source")?;
    let text = statement.utf8_text(bytes).ok()?;
    let clause = text.split_once('{')?.1.split_once('}')?.0;
    clause.split(',').any(|s| s.trim() == "default").then(|| unquoted(source, bytes)).flatten()
}

/// The default export a value is: a name, a named class or function, a
/// required module.
fn exported_value(value: Node, bytes: &[u8]) -> Option<DefaultExport> {
    match value.kind() {
        "identifier" => Some(DefaultExport::Name(value.utf8_text(bytes).ok()?.to_string())),
        "call_expression" => required(value, bytes).map(DefaultExport::Module),
        _ => {
            let name = value.child_by_field_name("name")?;
            Some(DefaultExport::Name(name.utf8_text(bytes).ok()?.to_string()))
        }
    }
}
