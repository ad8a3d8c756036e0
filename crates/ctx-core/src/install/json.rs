//! A format-preserving JSON editor: a parse keeps the byte span of every
//! value, member and element, and an edit splices only the bytes it adds or
//! removes, so every other byte of a hand-written (or Claude Code-written)
//! settings file stays as it was. Inserted text follows the file's style:
//! its indentation unit, line ending, `": "` separator, or one-line compact
//! form. Inserting a member or element and removing it again gives back the
//! original bytes (tested by property), except inside a container that was
//! empty but held whitespace (`{ }` comes back as `{}`).
//!
//! With `jsonc`, comments (`//`, `/* */`) count as whitespace and a trailing
//! comma is allowed, as OpenCode reads its config.

use serde_json::Value;

/// Nesting deeper than this is refused rather than recursed into.
const MAX_DEPTH: usize = 256;

/// A value to write, with its keys in the order they are written.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Str(String),
    Int(i64),
    Bool(bool),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn obj<const N: usize>(members: [(&str, Json); N]) -> Json {
        Json::Obj(members.into_iter().map(|(key, value)| (key.to_string(), value)).collect())
    }

    pub fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    pub fn to_value(&self) -> Value {
        match self {
            Json::Str(text) => Value::String(text.clone()),
            Json::Int(n) => Value::from(*n),
            Json::Bool(b) => Value::Bool(*b),
            Json::Arr(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Obj(members) => {
                Value::Object(members.iter().map(|(key, value)| (key.clone(), value.to_value())).collect())
            }
        }
    }
}

/// One step of a path into a document: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Key(String),
    Index(usize),
}

impl From<&str> for Step {
    fn from(key: &str) -> Step {
        Step::Key(key.to_string())
    }
}

impl From<usize> for Step {
    fn from(index: usize) -> Step {
        Step::Index(index)
    }
}

/// A path from steps of either kind: `path!["hooks", event, 0]`.
macro_rules! json_path {
    ($($step:expr),* $(,)?) => { [$($crate::install::json::Step::from($step)),*] };
}
pub(crate) use json_path as path;

/// A parsed value and where it lies in the text.
#[derive(Debug, Clone)]
pub struct Node {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    Scalar(Value),
}

#[derive(Debug, Clone)]
pub struct Member {
    pub key: String,
    pub key_start: usize,
    pub key_end: usize,
    pub value: Node,
}

impl Node {
    /// The value as serde_json sees it (comments dropped).
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Scalar(value) => value.clone(),
            Kind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Kind::Object(members) => Value::Object(
                members.iter().map(|member| (member.key.clone(), member.value.to_value())).collect(),
            ),
        }
    }

    pub fn members(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn items(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn member(&self, key: &str) -> Option<&Node> {
        self.members()?.iter().find(|member| member.key == key).map(|member| &member.value)
    }

    pub fn str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar(Value::String(text)) => Some(text),
            _ => None,
        }
    }

    fn is_empty_container(&self) -> bool {
        matches!(&self.kind, Kind::Object(m) if m.is_empty())
            || matches!(&self.kind, Kind::Array(i) if i.is_empty())
    }

    fn len(&self) -> usize {
        match &self.kind {
            Kind::Object(members) => members.len(),
            Kind::Array(items) => items.len(),
            Kind::Scalar(_) => 0,
        }
    }

    /// Where child `index` starts (its key for a member) and its value ends.
    fn child_span(&self, index: usize) -> (usize, usize) {
        match &self.kind {
            Kind::Object(members) => (members[index].key_start, members[index].value.end),
            Kind::Array(items) => (items[index].start, items[index].end),
            Kind::Scalar(_) => (self.start, self.end),
        }
    }
}

/// A parse failure: what, and the 1-based line and column where.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

/// A JSON document whose top level is an object.
#[derive(Debug, Clone)]
pub struct Doc<'a> {
    pub text: &'a str,
    pub root: Node,
    jsonc: bool,
}

impl<'a> Doc<'a> {
    pub fn parse(text: &'a str, jsonc: bool) -> Result<Doc<'a>, ParseError> {
        let mut parser = Parser { text, bytes: text.as_bytes(), pos: 0, jsonc };
        if text.starts_with('\u{feff}') {
            parser.pos = 3;
        }
        parser.skip_ws()?;
        let root = parser.value(0)?;
        parser.skip_ws()?;
        if parser.pos < text.len() {
            return Err(parser.error("text after the end of the JSON value"));
        }
        if root.members().is_none() {
            return Err(error_at(text, root.start, "the file's top level is not a JSON object"));
        }
        Ok(Doc { text, root, jsonc })
    }

    /// The value at `path`, if there is one.
    pub fn get(&self, path: &[Step]) -> Option<&Node> {
        let mut node = &self.root;
        for step in path {
            node = match step {
                Step::Key(key) => node.member(key)?,
                Step::Index(index) => node.items()?.get(*index)?,
            };
        }
        Some(node)
    }

    /// Add `key: value` at the end of the object at `path` (which must not have `key`).
    pub fn insert_member(&self, path: &[Step], key: &str, value: &Json) -> Result<String, String> {
        self.append(path, Some(key), value)
    }

    /// Add `value` at the end of the array at `path`.
    pub fn append_element(&self, path: &[Step], value: &Json) -> Result<String, String> {
        self.append(path, None, value)
    }

    fn append(&self, path: &[Step], key: Option<&str>, value: &Json) -> Result<String, String> {
        let container = self.get(path).ok_or_else(|| not_found(path))?;
        let style = self.style();
        let (at, replace_to, text) = if container.len() == 0 {
            let inner = &self.text[container.start + 1..container.end - 1];
            // Only whitespace inside is replaced; comments are kept before the new item.
            let (at, replace_to) = if inner.trim().is_empty() {
                (container.start + 1, container.end - 1)
            } else {
                (container.end - 1, container.end - 1)
            };
            let text = if style.pretty {
                let outer = line_indent(self.text, container.start);
                let inner_indent = format!("{outer}{}", style.unit);
                let item = render_item(key, &style.colon, value, &style, Some(&inner_indent));
                format!("{nl}{inner_indent}{item}{nl}{outer}", nl = style.newline)
            } else {
                render_item(key, &style.colon, value, &style, None)
            };
            (at, replace_to, text)
        } else {
            let last = container.len() - 1;
            let (last_start, last_end) = container.child_span(last);
            let lead = whitespace_before(self.text, last_start);
            let colon = match &container.kind {
                Kind::Object(members) => {
                    separator(&self.text[members[last].key_end..members[last].value.start])
                        .unwrap_or(&style.colon)
                        .to_string()
                }
                _ => style.colon.clone(),
            };
            let indent = lead.contains('\n').then(|| line_indent(self.text, last_start));
            let item = render_item(key, &colon, value, &style, indent.as_deref());
            (last_end, last_end, format!(",{lead}{item}"))
        };
        Ok(splice(self.text, at, replace_to, &text))
    }

    /// Replace the value at `path` with `value`, written in the style of its place.
    pub fn replace(&self, path: &[Step], value: &Json) -> Result<String, String> {
        let node = self.get(path).ok_or_else(|| not_found(path))?;
        let style = self.style();
        let pretty = style.pretty && !single_line(&self.text[self.container_of(path).start..node.start]);
        let indent = pretty.then(|| line_indent(self.text, node.start));
        let text = render(value, &style, indent.as_deref());
        Ok(splice(self.text, node.start, node.end, &text))
    }

    /// Remove the member or element at `path`, with the comma and whitespace it brought.
    pub fn remove(&self, path: &[Step]) -> Result<String, String> {
        let (last, parent_path) = path.split_last().ok_or("the document itself cannot be removed")?;
        let container = self.get(parent_path).ok_or_else(|| not_found(path))?;
        let index = match (last, &container.kind) {
            (Step::Key(key), Kind::Object(members)) => members.iter().position(|m| &m.key == key),
            (Step::Index(index), Kind::Array(items)) => (*index < items.len()).then_some(*index),
            _ => None,
        }
        .ok_or_else(|| not_found(path))?;
        let (start, end) = container.child_span(index);
        let (from, to) = if index > 0 {
            (container.child_span(index - 1).1, end)
        } else if container.len() > 1 {
            (start, container.child_span(1).0)
        } else {
            // The only item: it goes with the whitespace around it (and a trailing comma).
            let mut to = skip_whitespace(self.text, end);
            if self.jsonc && self.text[to..].starts_with(',') {
                to = skip_whitespace(self.text, to + 1);
            }
            (start - whitespace_before(self.text, start).len(), to)
        };
        Ok(splice(self.text, from, to, ""))
    }

    /// The container holding the value at `path` (the root for the root).
    fn container_of(&self, path: &[Step]) -> &Node {
        path.split_last().and_then(|(_, parent)| self.get(parent)).unwrap_or(&self.root)
    }

    /// How this document is written: see [`Style`].
    fn style(&self) -> Style {
        let newline = if self.text.contains("\r\n") { "\r\n" } else { "\n" };
        let root_text = &self.text[self.root.start..self.root.end];
        let pretty = self.root.is_empty_container() || root_text.contains('\n');
        let unit = self
            .root
            .members()
            .and_then(|members| members.first())
            .map(|first| whitespace_before(self.text, first.key_start))
            .and_then(|lead| lead.rfind('\n').map(|nl| lead[nl + 1..].to_string()))
            .filter(|unit| !unit.is_empty())
            .unwrap_or_else(|| "  ".to_string());
        let (mut colon, mut comma) = (None, None);
        find_separators(self.text, &self.root, &mut colon, &mut comma);
        let colon = colon.unwrap_or(if pretty { ": " } else { ":" }).to_string();
        let comma = comma.unwrap_or(",").to_string();
        Style { newline, unit, pretty, colon, comma }
    }
}

/// The look of a document that inserted text copies.
struct Style {
    newline: &'static str,
    /// One level of indentation (the root's first member's).
    unit: String,
    /// Written over several lines (else on one line, as `{"a":1}`).
    pretty: bool,
    /// Between a key and its value, as the document's first member has it.
    colon: String,
    /// Between items on one line, as the document's first one-line container has it.
    comma: String,
}

fn find_separators<'t>(text: &'t str, node: &Node, colon: &mut Option<&'t str>, comma: &mut Option<&'t str>) {
    if let Kind::Object(members) = &node.kind
        && colon.is_none()
        && let Some(first) = members.first()
    {
        *colon = separator(&text[first.key_end..first.value.start]);
    }
    if comma.is_none() && node.len() > 1 {
        let between = &text[node.child_span(0).1..node.child_span(1).0];
        if !between.contains('\n') && between.trim() == "," {
            *comma = Some(between);
        }
    }
    match &node.kind {
        Kind::Object(members) => members.iter().for_each(|m| find_separators(text, &m.value, colon, comma)),
        Kind::Array(items) => items.iter().for_each(|item| find_separators(text, item, colon, comma)),
        Kind::Scalar(_) => {}
    }
}

/// A `:` with only spaces around it, as it is.
fn separator(between: &str) -> Option<&str> {
    (between.trim() == ":" && !between.contains('\n')).then_some(between)
}

/// `"key": value` or `value`: pretty at `indent`, or on one line without one.
fn render_item(key: Option<&str>, colon: &str, value: &Json, style: &Style, indent: Option<&str>) -> String {
    let value = render(value, style, indent);
    match key {
        Some(key) => format!("{}{colon}{value}", quote(key)),
        None => value,
    }
}

/// `value` as text: over several lines, each nested level one unit deeper
/// than `indent` (as Claude Code and JSON.stringify write), or on one line.
fn render(value: &Json, style: &Style, indent: Option<&str>) -> String {
    let (open, close, items): (&str, &str, Vec<(Option<&str>, &Json)>) = match value {
        Json::Str(text) => return quote(text),
        Json::Int(n) => return n.to_string(),
        Json::Bool(b) => return b.to_string(),
        Json::Arr(items) => ("[", "]", items.iter().map(|item| (None, item)).collect()),
        Json::Obj(members) => ("{", "}", members.iter().map(|(k, v)| (Some(k.as_str()), v)).collect()),
    };
    if items.is_empty() {
        return format!("{open}{close}");
    }
    let colon = if indent.is_some() { ": " } else { style.colon.as_str() };
    match indent {
        Some(indent) => {
            let inner = format!("{indent}{}", style.unit);
            let parts: Vec<String> = items
                .iter()
                .map(|(key, item)| format!("{inner}{}", render_item(*key, colon, item, style, Some(&inner))))
                .collect();
            let nl = style.newline;
            format!("{open}{nl}{}{nl}{indent}{close}", parts.join(&format!(",{nl}")))
        }
        None => {
            let parts: Vec<String> =
                items.iter().map(|(key, item)| render_item(*key, colon, item, style, None)).collect();
            format!("{open}{}{close}", parts.join(&style.comma))
        }
    }
}

fn quote(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// An edit asked for a path the document does not have (a caller's mistake,
/// reported as an error rather than a panic).
fn not_found(path: &[Step]) -> String {
    format!("internal error: no value at {path:?} to edit")
}

fn splice(text: &str, from: usize, to: usize, insert: &str) -> String {
    let mut out = String::with_capacity(text.len() + insert.len());
    out.push_str(&text[..from]);
    out.push_str(insert);
    out.push_str(&text[to..]);
    out
}

fn single_line(text: &str) -> bool {
    !text.contains('\n')
}

/// The whitespace (spaces, tabs, line breaks) right before `pos`.
fn whitespace_before(text: &str, pos: usize) -> &str {
    let start = text[..pos].trim_end_matches([' ', '\t', '\r', '\n']).len();
    &text[start..pos]
}

fn skip_whitespace(text: &str, pos: usize) -> usize {
    pos + (text[pos..].len() - text[pos..].trim_start_matches([' ', '\t', '\r', '\n']).len())
}

/// The spaces and tabs that start the line holding `pos`.
fn line_indent(text: &str, pos: usize) -> String {
    let line_start = text[..pos].rfind('\n').map_or(0, |nl| nl + 1);
    let line = &text[line_start..pos];
    line[..line.len() - line.trim_start_matches([' ', '\t']).len()].to_string()
}

fn error_at(text: &str, pos: usize, message: &str) -> ParseError {
    let before = &text[..pos.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    ParseError { line, column, message: message.to_string() }
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    jsonc: bool,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> ParseError {
        error_at(self.text, self.pos, message)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.pos += 1,
                Some(b'/') if self.bytes.get(self.pos + 1).is_some_and(|b| *b == b'/' || *b == b'*') => {
                    if !self.jsonc {
                        return Err(self.error("comments are not allowed in this file (plain JSON)"));
                    }
                    if self.bytes[self.pos + 1] == b'/' {
                        self.pos =
                            self.text[self.pos..].find('\n').map_or(self.text.len(), |nl| self.pos + nl);
                    } else {
                        let end = self.text[self.pos + 2..]
                            .find("*/")
                            .ok_or_else(|| self.error("a /* comment that is never closed"))?;
                        self.pos += 2 + end + 2;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let start = self.pos;
        let kind = match self.peek() {
            Some(b'{') => Kind::Object(self.object(depth)?),
            Some(b'[') => Kind::Array(self.array(depth)?),
            Some(b'"') => Kind::Scalar(Value::String(self.string()?)),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.error("expected a value")),
            None => return Err(self.error("unexpected end of the file")),
        };
        Ok(Node { start, end: self.pos, kind })
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Kind, ParseError> {
        if !self.text[self.pos..].starts_with(word) {
            return Err(self.error("expected a value"));
        }
        self.pos += word.len();
        Ok(Kind::Scalar(value))
    }

    fn number(&mut self) -> Result<Kind, ParseError> {
        let start = self.pos;
        while matches!(self.peek(), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
            self.pos += 1;
        }
        serde_json::from_str::<Value>(&self.text[start..self.pos]).map(Kind::Scalar).map_err(|_| {
            self.pos = start;
            self.error("not a number")
        })
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.peek() {
                Some(b'"') => break,
                Some(b'\\') => self.pos += 2,
                Some(b) if b < 0x20 => return Err(self.error("a control character in a string")),
                Some(_) => self.pos += 1,
                None => {
                    self.pos = start;
                    return Err(self.error("a string that is never closed"));
                }
            }
        }
        self.pos += 1;
        serde_json::from_str::<String>(self.text.get(start..self.pos).unwrap_or("")).map_err(|_| {
            self.pos = start;
            self.error("a string with a bad escape")
        })
    }

    /// `{`/`[` ... `}`/`]` with items read by `item`, commas between them.
    fn items<T>(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_ws()?;
            if self.peek() == Some(close) && (items.is_empty() || self.jsonc) {
                self.pos += 1;
                return Ok(items);
            }
            items.push(item(self)?);
            self.skip_ws()?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b) if b == close => {
                    self.pos += 1;
                    return Ok(items);
                }
                _ => return Err(self.error(&format!("expected ',' or '{}'", close as char))),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Vec<Member>, ParseError> {
        let members = self.items(b'}', |p| {
            if p.peek() != Some(b'"') {
                return Err(p.error("expected a key in double quotes"));
            }
            let key_start = p.pos;
            let key = p.string()?;
            let key_end = p.pos;
            p.skip_ws()?;
            if p.peek() != Some(b':') {
                return Err(p.error("expected ':'"));
            }
            p.pos += 1;
            p.skip_ws()?;
            let value = p.value(depth + 1)?;
            Ok(Member { key, key_start, key_end, value })
        })?;
        Ok(members)
    }

    fn array(&mut self, depth: usize) -> Result<Vec<Node>, ParseError> {
        self.items(b']', |p| p.value(depth + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Json {
        Json::obj([("command", Json::str("ctx")), ("args", Json::Arr(vec![Json::str("mcp")]))])
    }

    /// Insert `mcpServers.ctx`-like members and check text and identity.
    fn insert_then_remove(text: &str, path: &[Step], key: &str, expected: &str) {
        let doc = Doc::parse(text, false).unwrap();
        let inserted = doc.insert_member(path, key, &entry()).unwrap();
        assert_eq!(inserted, expected);
        let mut full = path.to_vec();
        full.push(Step::Key(key.into()));
        let back = Doc::parse(&inserted, false).unwrap().remove(&full).unwrap();
        assert_eq!(back, text);
    }

    #[test]
    fn inserts_in_the_style_of_the_file() {
        // Two spaces, as Claude Code writes.
        insert_then_remove(
            "{\n  \"a\": 1\n}\n",
            &[],
            "ctx",
            "{\n  \"a\": 1,\n  \"ctx\": {\n    \"command\": \"ctx\",\n    \"args\": [\n      \"mcp\"\n    ]\n  }\n}\n",
        );
        // Tabs, CRLF, no final newline.
        insert_then_remove(
            "{\r\n\t\"a\": {\r\n\t\t\"b\": 1\r\n\t}\r\n}",
            &path!["a"],
            "ctx",
            "{\r\n\t\"a\": {\r\n\t\t\"b\": 1,\r\n\t\t\"ctx\": {\r\n\t\t\t\"command\": \"ctx\",\r\n\t\t\t\"args\": [\r\n\t\t\t\t\"mcp\"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}",
        );
        // Compact on one line, with its own separators.
        insert_then_remove(
            "{\"a\":1}",
            &[],
            "ctx",
            "{\"a\":1,\"ctx\":{\"command\":\"ctx\",\"args\":[\"mcp\"]}}",
        );
        insert_then_remove(
            "{\"a\": 1, \"b\": {}}",
            &path!["b"],
            "ctx",
            "{\"a\": 1, \"b\": {\"ctx\": {\"command\": \"ctx\", \"args\": [\"mcp\"]}}}",
        );
        // An empty object in a four-space file.
        insert_then_remove(
            "{\n    \"servers\": {},\n    \"z\": true\n}\n",
            &path!["servers"],
            "ctx",
            "{\n    \"servers\": {\n        \"ctx\": {\n            \"command\": \"ctx\",\n            \"args\": [\n                \"mcp\"\n            ]\n        }\n    },\n    \"z\": true\n}\n",
        );
        // The empty document.
        insert_then_remove(
            "{}\n",
            &[],
            "x",
            "{\n  \"x\": {\n    \"command\": \"ctx\",\n    \"args\": [\n      \"mcp\"\n    ]\n  }\n}\n",
        );
    }

    #[test]
    fn appends_elements_and_removes_them() {
        let text = "{\n  \"list\": [\n    1\n  ],\n  \"empty\": []\n}";
        let doc = Doc::parse(text, false).unwrap();
        let one = doc.append_element(&path!["list"], &Json::Int(2)).unwrap();
        assert_eq!(one, "{\n  \"list\": [\n    1,\n    2\n  ],\n  \"empty\": []\n}");
        assert_eq!(Doc::parse(&one, false).unwrap().remove(&path!["list", 1]).unwrap(), text);
        let two = doc.append_element(&path!["empty"], &Json::Bool(true)).unwrap();
        assert_eq!(two, "{\n  \"list\": [\n    1\n  ],\n  \"empty\": [\n    true\n  ]\n}");
        assert_eq!(Doc::parse(&two, false).unwrap().remove(&path!["empty", 0]).unwrap(), text);
        // The first of several goes with the comma after it.
        let first = Doc::parse("{\"l\": [1, 2]}", false).unwrap().remove(&path!["l", 0]).unwrap();
        assert_eq!(first, "{\"l\": [2]}");
    }

    #[test]
    fn jsonc_comments_and_trailing_commas() {
        let text = "{\n  // servers\n  \"mcp\": {\n    \"a\": {}, // first\n  },\n}\n";
        assert!(Doc::parse(text, false).unwrap_err().message.contains("comments"));
        let doc = Doc::parse(text, true).unwrap();
        let inserted = doc.insert_member(&path!["mcp"], "ctx", &Json::Bool(true)).unwrap();
        assert_eq!(
            inserted,
            "{\n  // servers\n  \"mcp\": {\n    \"a\": {},\n    \"ctx\": true, // first\n  },\n}\n"
        );
        assert_eq!(Doc::parse(&inserted, true).unwrap().remove(&path!["mcp", "ctx"]).unwrap(), text);
        let only = Doc::parse("{\"a\": 1,}", true).unwrap().remove(&path!["a"]).unwrap();
        assert_eq!(only, "{}");
    }

    #[test]
    fn replaces_a_value_in_place() {
        let text = "{\n  \"ctx\": {\n    \"args\": [\"serve\"],\n    \"env\": {}\n  }\n}";
        let doc = Doc::parse(text, false).unwrap();
        let replaced = doc.replace(&path!["ctx", "args"], &Json::Arr(vec![Json::str("mcp")])).unwrap();
        assert_eq!(
            replaced,
            "{\n  \"ctx\": {\n    \"args\": [\n      \"mcp\"\n    ],\n    \"env\": {}\n  }\n}"
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = Doc::parse("{\n  \"a\": 1,\n  \"b\" 2\n}", false).unwrap_err();
        assert_eq!((err.line, err.column), (3, 7));
        assert_eq!(err.message, "expected ':'");
        assert!(Doc::parse("[1]", false).unwrap_err().message.contains("not a JSON object"));
        assert!(Doc::parse("{\"a\": 1,}", false).is_err(), "no trailing comma in plain JSON");
        assert!(Doc::parse("{} x", false).is_err());
        assert!(Doc::parse("{\"a\": \"unterminated}", false).is_err());
        assert!(Doc::parse("{\"a\": tru}", false).is_err());
        assert!(
            Doc::parse(&format!("{{\"a\": {}1{}}}", "[".repeat(10_000), "]".repeat(10_000)), false).is_err()
        );
        assert!(Doc::parse("", false).is_err());
    }

    #[test]
    fn values_decode_like_serde_json() {
        let text = "\u{feff}{\"a\": [1, -2.5e3, \"\\u00e9\\n\", null, true], \"b\": {\"c\": false}}";
        let doc = Doc::parse(text, false).unwrap();
        let expected: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
        assert_eq!(doc.root.to_value(), expected);
    }

    mod props {
        use proptest::prelude::*;

        use super::super::*;

        /// A JSON value and a way of writing it: (text, value).
        #[derive(Debug, Clone)]
        enum Tree {
            Leaf(String),
            Arr(Vec<Tree>),
            Obj(Vec<(String, Tree)>),
        }

        fn tree() -> impl Strategy<Value = Tree> {
            let leaf = prop_oneof![
                Just("1".to_string()),
                Just("true".to_string()),
                Just("null".to_string()),
                "[a-z ]{0,6}".prop_map(|s| format!("\"{s}\"")),
                Just("-0.5e2".to_string()),
            ]
            .prop_map(Tree::Leaf);
            leaf.prop_recursive(4, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(Tree::Arr),
                    prop::collection::vec(("[a-z]{1,3}", inner), 0..4).prop_map(|members| {
                        let mut seen = std::collections::HashSet::new();
                        Tree::Obj(members.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect())
                    }),
                ]
            })
        }

        /// The text of `tree`: pretty with `unit` (or compact without), `colon` between key and value.
        fn write(tree: &Tree, unit: Option<&str>, depth: usize, colon: &str, out: &mut String) {
            let (open, close, items): (char, char, Vec<(Option<&String>, &Tree)>) = match tree {
                Tree::Leaf(text) => return out.push_str(text),
                Tree::Arr(items) => ('[', ']', items.iter().map(|i| (None, i)).collect()),
                Tree::Obj(members) => ('{', '}', members.iter().map(|(k, v)| (Some(k), v)).collect()),
            };
            out.push(open);
            for (i, (key, item)) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Some(unit) = unit {
                    out.push('\n');
                    out.push_str(&unit.repeat(depth + 1));
                }
                if let Some(key) = key {
                    out.push_str(&format!("\"{key}\"{colon}"));
                }
                write(item, unit, depth + 1, colon, out);
            }
            if let (Some(unit), false) = (unit, items.is_empty()) {
                out.push('\n');
                out.push_str(&unit.repeat(depth));
            }
            out.push(close);
        }

        /// Paths of every object and array in the value.
        fn containers(node: &Node, path: Vec<Step>, out: &mut Vec<(Vec<Step>, bool)>) {
            match &node.kind {
                Kind::Object(members) => {
                    out.push((path.clone(), true));
                    for m in members {
                        let mut p = path.clone();
                        p.push(Step::Key(m.key.clone()));
                        containers(&m.value, p, out);
                    }
                }
                Kind::Array(items) => {
                    out.push((path.clone(), false));
                    for (i, item) in items.iter().enumerate() {
                        let mut p = path.clone();
                        p.push(Step::Index(i));
                        containers(item, p, out);
                    }
                }
                Kind::Scalar(_) => {}
            }
        }

        proptest! {
            #[test]
            fn insert_then_remove_is_identity(
                members in prop::collection::vec(("[a-z]{1,3}", tree()), 0..5),
                style in 0usize..5,
                trailing in prop::bool::ANY,
                pick in any::<prop::sample::Index>(),
            ) {
                let mut seen = std::collections::HashSet::new();
                let root = Tree::Obj(members.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect());
                let (unit, colon) = [(Some("  "), ": "), (Some("    "), ": "), (Some("\t"), ": "), (None, ":"), (None, ": ")][style];
                let mut text = String::new();
                write(&root, unit, 0, colon, &mut text);
                if trailing {
                    text.push('\n');
                }
                let doc = Doc::parse(&text, false).unwrap();
                let before: Value = serde_json::from_str(&text).unwrap();
                prop_assert_eq!(doc.root.to_value(), before.clone());
                let mut all = Vec::new();
                containers(&doc.root, Vec::new(), &mut all);
                let (path, is_object) = pick.get(&all).clone();
                let value = Json::obj([("command", Json::str("ctx")), ("n", Json::Int(3)), ("e", Json::Arr(vec![]))]);
                let (edited, full) = if is_object {
                    let mut full = path.clone();
                    full.push(Step::Key("ctx-new".into()));
                    (doc.insert_member(&path, "ctx-new", &value).unwrap(), full)
                } else {
                    let len = doc.get(&path).unwrap().len();
                    let mut full = path.clone();
                    full.push(Step::Index(len));
                    (doc.append_element(&path, &value).unwrap(), full)
                };
                // Still JSON, with the value where it was put and nothing else changed.
                let after: Value = serde_json::from_str(&edited).unwrap();
                let edited_doc = Doc::parse(&edited, false).unwrap();
                prop_assert_eq!(edited_doc.get(&full).unwrap().to_value(), value.to_value());
                let mut expected = before.clone();
                let target = path.iter().fold(&mut expected, |v, step| match step {
                    Step::Key(k) => &mut v[k.as_str()],
                    Step::Index(i) => &mut v[*i],
                });
                match target {
                    Value::Object(map) => { map.insert("ctx-new".into(), value.to_value()); }
                    Value::Array(items) => items.push(value.to_value()),
                    _ => unreachable!(),
                }
                prop_assert_eq!(after, expected);
                // And removing it gives back every byte.
                prop_assert_eq!(edited_doc.remove(&full).unwrap(), text);
            }
        }
    }
}
