//! Counts with their nouns, for every line of text ctx writes for people
//! (context files, the CLI's reports): `1 file`, `2 files`, `1 entry`.
//!
//! ```
//! use ctxkeep_core::wording::{count, plural};
//! assert_eq!(count(1, "file"), "1 file");
//! assert_eq!(count(3, "sibling folder"), "3 sibling folders");
//! assert_eq!(count(0, "entry"), "0 entries");
//! assert_eq!(plural(2, "match"), "matches");
//! ```

use std::borrow::Cow;

/// `n` and `noun`, the noun in the plural unless `n` is 1.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {}", plural(n, noun))
}

/// `noun` as `n` of it are said: itself for 1, else its plural (the last
/// word made plural, by English's regular rules: `file` → `files`, `entry` →
/// `entries`, `match` → `matches`).
pub fn plural(n: usize, noun: &str) -> Cow<'_, str> {
    if n == 1 {
        return Cow::Borrowed(noun);
    }
    let consonant_y = noun.strip_suffix('y').filter(|stem| !stem.ends_with(['a', 'e', 'i', 'o', 'u']));
    if let Some(stem) = consonant_y {
        return Cow::Owned(format!("{stem}ies"));
    }
    if ["s", "x", "z", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        return Cow::Owned(format!("{noun}es"));
    }
    Cow::Owned(format!("{noun}s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_plurals() {
        for (noun, many) in [
            ("file", "files"),
            ("summary", "summaries"),
            ("entry", "entries"),
            ("key", "keys"),
            ("match", "matches"),
            ("box", "boxes"),
            ("cached context", "cached contexts"),
        ] {
            assert_eq!(plural(2, noun), many);
            assert_eq!(plural(0, noun), many);
            assert_eq!(plural(1, noun), noun);
        }
        assert_eq!(count(1, "decision"), "1 decision");
        assert_eq!(count(12, "decision"), "12 decisions");
    }
}
