//! Context file names: `.ctx/context/<encoded folder>.<tier>.md`.
//!
//! `src/auth/hooks` → `src--auth--hooks`, the root → `_root`. The encoding
//! is reversible for every folder name a file system allows: `%` is written
//! `%25`, `~` `%7E`, and a `-` that starts or ends a name or touches another
//! `-` is written `%2D`, so `--` only ever separates components. A top-level
//! folder named `_root` is written `%5Froot`, and a leading `.` is written
//! `%2E` (`.github` → `%2Egithub`), so that no context file is hidden.
//! Names that would pass the file system's 255-byte limit are shortened and
//! end in `~` and a hash of the folder key: those alone do not decode; the
//! `builds` table and the file's header still name the folder.

use std::fmt::Write;

use serde::Serialize;

use crate::paths::ROOT;

/// The encoded name of the root folder.
const ROOT_NAME: &str = "_root";

/// The longest file name most file systems accept, in bytes.
const MAX_FILE_NAME: usize = 255;

/// A context tier: how much a context file holds and its token cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Minimal,
    Standard,
    Full,
    Deep,
}

impl Tier {
    pub const ALL: [Tier; 4] = [Tier::Minimal, Tier::Standard, Tier::Full, Tier::Deep];

    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Minimal => "minimal",
            Tier::Standard => "standard",
            Tier::Full => "full",
            Tier::Deep => "deep",
        }
    }

    pub fn parse(text: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|tier| tier.as_str() == text)
    }

    /// The most tokens a file of this tier may hold; `None`: unlimited.
    pub fn cap(self) -> Option<usize> {
        match self {
            Tier::Minimal => Some(500),
            Tier::Standard => Some(2000),
            Tier::Full => Some(5000),
            Tier::Deep => None,
        }
    }
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The encoded form of folder key `key`.
pub fn encode_folder(key: &str) -> String {
    if key == ROOT {
        return ROOT_NAME.to_string();
    }
    let mut out = String::with_capacity(key.len() + 8);
    for (i, component) in key.split('/').enumerate() {
        if i > 0 {
            out.push_str("--");
        }
        let chars: Vec<char> = component.chars().collect();
        for (j, &c) in chars.iter().enumerate() {
            let dash_needs_escape =
                c == '-' && (j == 0 || j + 1 == chars.len() || chars[j - 1] == '-' || chars[j + 1] == '-');
            if c == '%' || c == '~' || dash_needs_escape {
                let _ = write!(out, "%{:02X}", c as u32);
            } else {
                out.push(c);
            }
        }
    }
    if out == ROOT_NAME {
        out.replace_range(..1, "%5F");
    }
    // `.github` → `%2Egithub`: a context file is never a hidden file.
    if out.starts_with('.') {
        out.replace_range(..1, "%2E");
    }
    out
}

/// The folder key an encoded name stands for; `None` for anything
/// [`encode_folder`] does not produce (including shortened names).
pub fn decode_folder(encoded: &str) -> Option<String> {
    if encoded == ROOT_NAME {
        return Some(ROOT.to_string());
    }
    let mut key = String::with_capacity(encoded.len());
    for (i, component) in encoded.split("--").enumerate() {
        if i > 0 {
            key.push('/');
        }
        key.push_str(&percent_decode(component)?);
    }
    // Only the canonical spelling decodes: one name per folder.
    (encode_folder(&key) == encoded).then_some(key)
}

fn percent_decode(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    let decoded = String::from_utf8(bytes).ok()?;
    (!decoded.is_empty() && !decoded.contains('/')).then_some(decoded)
}

/// The context file name of folder `key` at `tier`.
pub fn file_name(key: &str, tier: Tier) -> String {
    name_with_suffix(key, &format!(".{tier}.md"))
}

/// The encoded folder key with `suffix`, shortened (a hash of the key
/// standing for its tail) when it would pass the file system's name limit.
pub(crate) fn name_with_suffix(key: &str, suffix: &str) -> String {
    let encoded = encode_folder(key);
    if encoded.len() + suffix.len() <= MAX_FILE_NAME {
        return format!("{encoded}{suffix}");
    }
    let hash = blake3::hash(key.as_bytes()).to_hex();
    let marker = format!("~{}", &hash[..16]);
    let mut keep = MAX_FILE_NAME - suffix.len() - marker.len();
    while !encoded.is_char_boundary(keep) {
        keep -= 1;
    }
    format!("{}{marker}{suffix}", &encoded[..keep])
}

/// What a file name in `.ctx/context/` says: its tier, and its folder key
/// when the name is a full (not shortened) encoding. `None`: not a context file name.
pub fn parse_file_name(name: &str) -> Option<(Option<String>, Tier)> {
    let stem = name.strip_suffix(".md")?;
    let (encoded, tier) = stem.rsplit_once('.')?;
    let tier = Tier::parse(tier)?;
    Some((decode_folder(encoded), tier))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_names() {
        assert_eq!(encode_folder("."), "_root");
        assert_eq!(encode_folder("src/auth/hooks"), "src--auth--hooks");
        assert_eq!(encode_folder("my-app/src"), "my-app--src");
        assert_eq!(encode_folder("a--b/-x-/100%"), "a%2D%2Db--%2Dx%2D--100%25");
        assert_eq!(encode_folder("_root"), "%5Froot");
        assert_eq!(encode_folder("x/_root"), "x--_root");
        assert_eq!(encode_folder(".github/workflows"), "%2Egithub--workflows");
        assert_eq!(encode_folder("src/.hidden"), "src--.hidden");
        assert_eq!(decode_folder("%2Egithub"), Some(".github".into()));
        assert_eq!(decode_folder(".github"), None);
        assert_eq!(file_name("src/auth", Tier::Standard), "src--auth.standard.md");
        assert_eq!(parse_file_name("src--auth.full.md"), Some((Some("src/auth".into()), Tier::Full)));
        assert_eq!(parse_file_name("_root.deep.md"), Some((Some(".".into()), Tier::Deep)));
        assert_eq!(parse_file_name("notes.txt"), None);
        assert_eq!(parse_file_name("x.huge.md"), None);
        // Not canonical: does not decode.
        assert_eq!(decode_folder("%61"), None);
        assert_eq!(decode_folder("a---b"), None);
        assert_eq!(decode_folder("a%2"), None);
    }

    #[test]
    fn long_paths_get_short_unique_names() {
        let deep = vec!["component-name"; 40].join("/");
        let name = file_name(&deep, Tier::Minimal);
        assert!(name.len() <= MAX_FILE_NAME && name.ends_with(".minimal.md") && name.contains('~'));
        assert_ne!(name, file_name(&format!("{deep}/x"), Tier::Minimal));
        assert_eq!(parse_file_name(&name), Some((None, Tier::Minimal)));
    }

    // The round trip over any folder names (Unicode, `--`, `.`, leading
    // dots, long names) and the decoding of any file name are property
    // tests in tests/parsers_prop/names.rs.
}
