//! The tags cache's encoding: compact and quick to read back (a warm map
//! decodes every file's tags). Little-endian `u32`s and length-prefixed
//! UTF-8; anything that does not decode is treated as not cached.

use crate::tags::{Def, DefaultExport, FileTags, Kind, Name, Ref};

const KINDS: [Kind; 12] = [
    Kind::Function,
    Kind::Method,
    Kind::Class,
    Kind::Struct,
    Kind::Enum,
    Kind::Trait,
    Kind::Interface,
    Kind::Type,
    Kind::Constant,
    Kind::Module,
    Kind::Macro,
    Kind::Impl,
];

/// The bit of a definition's kind byte that says it is deprecated.
const DEPRECATED: u8 = 0x80;
/// The bits of the first byte: the parse had errors, a tool wrote the file.
const SYNTAX_ERRORS: u8 = 1;
const GENERATED: u8 = 2;

pub fn encode(tags: &FileTags) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + tags.defs.len() * 48 + tags.refs.len() * 16);
    out.push(
        if tags.syntax_errors { SYNTAX_ERRORS } else { 0 }
            | if tags.generated.is_some() { GENERATED } else { 0 },
    );
    if let Some(notice) = &tags.generated {
        put_str(&mut out, notice);
    }
    put_u32(&mut out, tags.defs.len() as u32);
    for def in &tags.defs {
        put_str(&mut out, &def.name);
        // The kind's index, and whether it is deprecated in the high bit.
        let kind = KINDS.iter().position(|&k| k == def.kind).unwrap_or(0) as u8;
        out.push(kind | if def.deprecated { DEPRECATED } else { 0 });
        put_u32(&mut out, def.line);
        put_u32(&mut out, def.end_line);
        put_str(&mut out, &def.signature);
        put_u32(&mut out, def.left_out.len() as u32);
        for item in &def.left_out {
            put_str(&mut out, item);
        }
        put_u32(&mut out, def.parent.unwrap_or(u32::MAX));
    }
    put_u32(&mut out, tags.refs.len() as u32);
    for r in &tags.refs {
        put_str(&mut out, &r.name);
        put_u32(&mut out, r.count);
        put_u32(&mut out, r.bare);
        put_u32(&mut out, r.method);
        put_u32(&mut out, r.exported);
        put_str(&mut out, r.from.as_deref().unwrap_or(""));
        put_str(&mut out, r.alias.as_deref().unwrap_or(""));
        out.push(u8::from(r.default_import));
        put_u32(&mut out, r.owners.len() as u32);
        for (owner, n) in &r.owners {
            put_str(&mut out, owner);
            put_u32(&mut out, *n);
        }
    }
    put_u32(&mut out, tags.private_modules.len() as u32);
    for module in &tags.private_modules {
        put_str(&mut out, module);
    }
    put_u32(&mut out, tags.public_modules.len() as u32);
    for module in &tags.public_modules {
        put_str(&mut out, module);
    }
    match &tags.default_export {
        None => out.push(0),
        Some(DefaultExport::Name(name)) => {
            out.push(1);
            put_str(&mut out, name);
        }
        Some(DefaultExport::Module(module)) => {
            out.push(2);
            put_str(&mut out, module);
        }
    }
    put_u32(&mut out, tags.reexports_all.len() as u32);
    for module in &tags.reexports_all {
        put_str(&mut out, module);
    }
    out
}

pub fn decode(bytes: &[u8]) -> Option<FileTags> {
    let mut r = Reader { bytes, at: 0 };
    let flags = r.byte()?;
    if flags & !(SYNTAX_ERRORS | GENERATED) != 0 {
        return None;
    }
    let syntax_errors = flags & SYNTAX_ERRORS != 0;
    let generated = if flags & GENERATED != 0 { Some(r.str()?) } else { None };
    let n = r.u32()? as usize;
    let mut defs = Vec::with_capacity(n.min(bytes.len()));
    for _ in 0..n {
        let name = r.name()?;
        let byte = r.byte()?;
        let (kind, deprecated) = (*KINDS.get((byte & !DEPRECATED) as usize)?, byte & DEPRECATED != 0);
        let (line, end_line) = (r.u32()?, r.u32()?);
        let signature = r.str()?;
        let left_out = (0..r.u32()?).map(|_| r.str()).collect::<Option<Vec<_>>>()?;
        let parent = Some(r.u32()?).filter(|&p| p != u32::MAX);
        defs.push(Def { name, kind, line, end_line, signature, left_out, parent, deprecated });
    }
    let n = r.u32()? as usize;
    let mut refs = Vec::with_capacity(n.min(bytes.len()));
    for _ in 0..n {
        let (name, count, bare, method, exported) = (r.name()?, r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let from = Some(r.str()?).filter(|from| !from.is_empty());
        let alias = Some(r.str()?).filter(|alias| !alias.is_empty());
        let default_import = match r.byte()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let owners = (0..r.u32()?).map(|_| Some((r.name()?, r.u32()?))).collect::<Option<Vec<_>>>()?;
        refs.push(Ref { name, count, bare, method, exported, from, alias, default_import, owners });
    }
    let private_modules = (0..r.u32()?).map(|_| r.str()).collect::<Option<Vec<_>>>()?;
    let public_modules = (0..r.u32()?).map(|_| r.str()).collect::<Option<Vec<_>>>()?;
    let default_export = match r.byte()? {
        0 => None,
        1 => Some(DefaultExport::Name(r.str()?)),
        2 => Some(DefaultExport::Module(r.str()?)),
        _ => return None,
    };
    let reexports_all = (0..r.u32()?).map(|_| r.str()).collect::<Option<Vec<_>>>()?;
    let tags = FileTags {
        defs,
        refs,
        syntax_errors,
        generated,
        private_modules,
        public_modules,
        default_export,
        reexports_all,
    };
    (r.at == bytes.len()).then_some(tags)
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, text: &str) {
    put_u32(out, text.len() as u32);
    out.extend_from_slice(text.as_bytes());
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn str(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }

    /// A name: on the stack when short, no allocation.
    fn name(&mut self) -> Option<Name> {
        let n = self.u32()? as usize;
        Name::from_utf8(self.take(n)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn round_trips_and_rejects_garbage() {
        // With a signature too long to show whole, which keeps the parameters it leaves out.
        let long: Vec<String> = (0..40).map(|i| format!("parameter_{i}: int = {i}")).collect();
        let source = format!(
            "def k(\n    {},\n):\n    pass\n\nclass A:\n    def f(self):\n        g()\n\ndef h(\n",
            long.join(",\n    ")
        );
        let tags = crate::tags::extract(Lang::Python, &source).unwrap();
        assert!(tags.syntax_errors && !tags.defs.is_empty() && !tags.refs.is_empty());
        assert!(tags.defs[0].left_out.len() > 10, "{:?}", tags.defs[0]);
        let bytes = encode(&tags);
        assert_eq!(decode(&bytes), Some(tags.clone()));
        for cut in 0..bytes.len() {
            assert_eq!(decode(&bytes[..cut]), None, "a cut at {cut} decodes");
        }
        assert_eq!(decode(b"\x00\xff\xff\xff\xff"), None);
        // A file a tool wrote, with and without syntax errors; no other flag decodes.
        for syntax_errors in [false, true] {
            let generated = Some("Code generated by gen.py. DO NOT EDIT.".to_string());
            let tags = FileTags { generated, syntax_errors, ..tags.clone() };
            assert_eq!(decode(&encode(&tags)), Some(tags));
        }
        let mut flagged = encode(&tags);
        flagged[0] |= 4;
        assert_eq!(decode(&flagged), None);
        // A Rust module's private and public submodules too.
        let source = "mod util;\npub(crate) mod gai;\npub mod dns;\npub mod cookie;\nmod inline {}\n";
        let tags = crate::tags::extract(Lang::Rust, source).unwrap();
        assert_eq!(tags.private_modules, ["gai", "util"]);
        assert_eq!(tags.public_modules, ["cookie", "dns"]);
        assert_eq!(decode(&encode(&tags)), Some(tags));
        // A JavaScript module's default export and the modules it re-exports whole.
        for source in
            ["export * from './a'\nexport default class App {}\n", "module.exports = require('./lib')\n"]
        {
            let tags = crate::tags::extract(Lang::TypeScript, source).unwrap();
            assert!(tags.default_export.is_some(), "{source}");
            assert_eq!(decode(&encode(&tags)), Some(tags));
        }
    }
}
