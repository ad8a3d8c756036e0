//! The words of a text, as ranking reads them, and each file's table of
//! them, stored so that a warm ranking never reads and tokenizes the
//! repository again.
//!
//! Terms are lowercased, identifiers split at `_` and case changes (and kept
//! whole), a light suffix stemmer applied, and stop words dropped, the same
//! way for the task and the files.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The version of the tokenizer and of the stored index's encoding
/// (`inverted.rs`): bump it when either changes, so postings made the old way
/// are made again.
pub const TERMS_VERSION: u32 = 5;

/// A file's terms and how often each occurs, in its text and in the names
/// it defines, with how many there are in all: what BM25 needs of a
/// document. Encoded for lookups without decoding: `body total: u32, names
/// total: u32, n: u32, n × offset: u32`, then at each offset (in term order)
/// `len: u8, term, body count: u32, names count: u32`, all little-endian.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTerms {
    data: Vec<u8>,
}

/// How often a term occurs in a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TermCount {
    /// In its text.
    pub body: u32,
    /// In the names it defines.
    pub names: u32,
}

const HEADER: usize = 12;

/// The longest term a table keeps, in bytes (its length is one byte).
pub(crate) const MAX_TERM_LEN: usize = u8::MAX as usize;

impl FileTerms {
    /// The table of `text`'s terms and of the terms of the `names` it defines.
    pub fn of<'a>(text: &str, names: impl IntoIterator<Item = &'a str>) -> FileTerms {
        let mut counts: HashMap<String, TermCount> = HashMap::default();
        let mut totals = TermCount::default();
        let mut add = |term: &str, name: bool| {
            let count = match counts.get_mut(term) {
                Some(count) => count,
                None => counts.entry(term.to_string()).or_default(),
            };
            let (one, all) = if name {
                (&mut count.names, &mut totals.names)
            } else {
                (&mut count.body, &mut totals.body)
            };
            *one = one.saturating_add(1);
            *all = all.saturating_add(1);
        };
        visit_terms(text, |term| add(term, false));
        for name in names {
            visit_terms(name, |term| add(term, true));
        }
        let mut entries: Vec<(String, TermCount)> =
            counts.into_iter().filter(|(term, _)| term.len() <= MAX_TERM_LEN).collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let heap: usize = entries.iter().map(|(term, _)| 1 + term.len() + 8).sum();
        let mut data = Vec::with_capacity(HEADER + 4 * entries.len() + heap);
        for value in [totals.body, totals.names, entries.len() as u32] {
            data.extend_from_slice(&value.to_le_bytes());
        }
        let mut offset = HEADER + 4 * entries.len();
        for (term, _) in &entries {
            data.extend_from_slice(&(offset as u32).to_le_bytes());
            offset += 1 + term.len() + 8;
        }
        for (term, count) in &entries {
            data.push(term.len() as u8);
            data.extend_from_slice(term.as_bytes());
            data.extend_from_slice(&count.body.to_le_bytes());
            data.extend_from_slice(&count.names.to_le_bytes());
        }
        FileTerms { data }
    }

    /// A table as [`FileTerms::as_bytes`] gave it; `None` if the bytes cannot be one.
    pub fn from_bytes(data: &[u8]) -> Option<FileTerms> {
        let n = read_u32(data, 8)? as usize;
        (data.len() >= HEADER + 4 * n).then(|| FileTerms { data: data.to_vec() })
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// How many terms the text and the names have, repeats included.
    pub fn totals(&self) -> TermCount {
        TermCount { body: read_u32(&self.data, 0).unwrap_or(0), names: read_u32(&self.data, 4).unwrap_or(0) }
    }

    /// How often `term` (a term as [`terms`] makes them) occurs.
    pub fn count(&self, term: &str) -> TermCount {
        let n = read_u32(&self.data, 8).unwrap_or(0) as usize;
        let (mut low, mut high) = (0, n);
        while low < high {
            let mid = low + (high - low) / 2;
            // A damaged entry reads as absent, never as a panic.
            let Some((entry, count)) = self.entry(mid) else { break };
            match entry.cmp(term.as_bytes()) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return count,
            }
        }
        TermCount::default()
    }

    /// Every term (its bytes) with its counts, in term order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&[u8], TermCount)> {
        let n = read_u32(&self.data, 8).unwrap_or(0) as usize;
        (0..n).map_while(|i| self.entry(i))
    }

    /// The `i`th term (its bytes) and its counts.
    fn entry(&self, i: usize) -> Option<(&[u8], TermCount)> {
        let offset = read_u32(&self.data, HEADER + 4 * i)? as usize;
        let len = usize::from(*self.data.get(offset)?);
        let term = self.data.get(offset + 1..offset + 1 + len)?;
        let at = offset + 1 + len;
        Some((term, TermCount { body: read_u32(&self.data, at)?, names: read_u32(&self.data, at + 4)? }))
    }
}

/// What ranking reads of the files' words for one task: how many terms
/// each file holds, and how often each of the task's terms occurs in it.
#[derive(Debug, Clone, Default)]
pub struct TaskTerms {
    /// The task's terms, each once, in the order it says them.
    terms: Vec<String>,
    totals: Vec<TermCount>,
    /// `counts[file * terms.len() + term]`.
    counts: Vec<TermCount>,
}

impl TaskTerms {
    /// No counts yet for `files` files, for the task's `terms` ([`task_terms`]).
    pub fn new(terms: Vec<String>, files: usize) -> TaskTerms {
        let counts = vec![TermCount::default(); files * terms.len()];
        TaskTerms { totals: vec![TermCount::default(); files], terms, counts }
    }

    /// The counts in `tables` (`tables[i]` is file `i`'s) of the terms of `query`.
    pub fn of_tables(tables: &[FileTerms], query: &str) -> TaskTerms {
        let mut counts = TaskTerms::new(task_terms(query), tables.len());
        for (file, table) in tables.iter().enumerate() {
            counts.set_table(file, table);
        }
        counts
    }

    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// How often `term` occurs in file `file` (none for a term not the task's).
    pub fn count(&self, file: usize, term: &str) -> TermCount {
        let Some(t) = self.terms.iter().position(|t| t == term) else { return TermCount::default() };
        self.counts.get(file * self.terms.len() + t).copied().unwrap_or_default()
    }

    /// How telling each of the task's terms is, in [`terms`](Self::terms)'
    /// order: its inverse document frequency over the files (0 for a term no
    /// file holds, which tells nothing here).
    pub fn weights(&self) -> Vec<f64> {
        let (n, files) = (self.terms.len(), self.totals.len());
        (0..n)
            .map(|t| {
                let held =
                    |file: &usize| self.counts.get(file * n + t).is_some_and(|c| c.body > 0 || c.names > 0);
                let df = (0..files).filter(held).count();
                if df == 0 { 0.0 } else { crate::rank::idf(files as f64, df as f64) }
            })
            .collect()
    }

    /// How many terms file `file` holds.
    pub fn totals(&self, file: usize) -> TermCount {
        self.totals.get(file).copied().unwrap_or_default()
    }

    /// File `file`'s counts as `table` has them.
    pub(crate) fn set_table(&mut self, file: usize, table: &FileTerms) {
        self.set_totals(file, table.totals());
        for t in 0..self.terms.len() {
            let count = table.count(&self.terms[t]);
            self.set_count(file, t, count);
        }
    }

    pub(crate) fn set_totals(&mut self, file: usize, totals: TermCount) {
        if let Some(slot) = self.totals.get_mut(file) {
            *slot = totals;
        }
    }

    /// Set how often the task's `t`th term occurs in file `file`.
    pub(crate) fn set_count(&mut self, file: usize, t: usize, count: TermCount) {
        let n = self.terms.len();
        if let Some(slot) = self.counts.get_mut(file * n + t).filter(|_| t < n) {
            *slot = count;
        }
    }
}

/// The terms of a task, each once, in the order it says them.
pub fn task_terms(query: &str) -> Vec<String> {
    let mut seen = HashSet::default();
    terms(query).into_iter().filter(|t| seen.insert(t.clone())).collect()
}

fn read_u32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// The terms of `text`: words and identifiers, split, lowercased, stemmed, without stop words.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    visit_terms(text, |term| out.push(term.to_string()));
    out
}

/// Words too common to tell files apart (a `match`: it runs on every word of every file).
fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "and"
            | "are"
            | "as"
            | "at"
            | "be"
            | "by"
            | "do"
            | "for"
            | "from"
            | "has"
            | "have"
            | "if"
            | "in"
            | "into"
            | "is"
            | "it"
            | "its"
            | "not"
            | "of"
            | "on"
            | "or"
            | "so"
            | "that"
            | "the"
            | "this"
            | "to"
            | "was"
            | "we"
            | "when"
            | "with"
            | "add"
            | "fix"
            | "use"
            | "make"
            | "new"
            | "update"
            | "change"
            | "remove"
            | "support"
            | "allow"
            | "instead"
            | "should"
            | "can"
            | "now"
            | "also"
            | "more"
            | "some"
            | "all"
            | "but"
            | "then"
            | "than"
            | "which"
            | "will"
            | "been"
            | "no"
            // Prose that code rarely means: "like elapsed_precise" named `term_like`.
            | "like"
            | "about"
            | "such"
            | "very"
            | "does"
            | "did"
            | "there"
            | "their"
            | "they"
            | "them"
            | "these"
            | "those"
            | "what"
            | "where"
            | "why"
            | "how"
            | "who"
            | "would"
            | "could"
            | "you"
            | "your"
            | "our"
            | "my"
            | "me"
    )
}

/// Call `f` with each of [`terms`]`(text)`, in order, without allocating for
/// the common word: ranking runs this over every file's whole text.
pub(crate) fn visit_terms(text: &str, mut f: impl FnMut(&str)) {
    // Reused for every word: the parts of an identifier, a lowercased one, a stem.
    let (mut parts, mut lower, mut stemmed) = (Vec::new(), String::new(), String::new());
    let mut stem_of = |word: &str, f: &mut dyn FnMut(&str)| match stem_parts(word) {
        (kept, false) => f(kept),
        (kept, true) => {
            stemmed.clear();
            stemmed.push_str(kept);
            stemmed.push('i');
            f(&stemmed);
        }
    };
    for (word, plain) in words(text) {
        if word.len() > 64 {
            continue;
        }
        // A plain lowercase word is its own only part.
        if plain {
            if keeps(word) {
                stem_of(word, &mut f);
            }
            continue;
        }
        identifier_parts(word, &mut parts);
        if parts.len() > 1 {
            lowercase_into(&mut lower, word);
            if keeps(&lower) {
                stem_of(&lower, &mut f);
            }
        }
        for &(start, end) in &parts {
            lowercase_into(&mut lower, &word[start..end]);
            if keeps(&lower) {
                stem_of(&lower, &mut f);
            }
        }
    }
}

/// The words of `text` (runs of alphanumeric characters and `_`), each with
/// whether it is plain (ASCII lowercase letters only). ASCII is read byte by
/// byte through a table; only other characters are decoded.
fn words(text: &str) -> impl Iterator<Item = (&str, bool)> {
    /// Per ASCII byte: 0 not in a word, 1 in a word, 2 a lowercase letter.
    const ASCII: [u8; 128] = {
        let mut table = [0u8; 128];
        let mut b = 0;
        while b < 128 {
            let c = b as u8;
            table[b] = if c.is_ascii_lowercase() {
                2
            } else if c.is_ascii_alphanumeric() || c == b'_' {
                1
            } else {
                0
            };
            b += 1;
        }
        table
    };
    // The character at `i` when it is not ASCII, with its length (1 for a broken one).
    let wide = |i: usize| -> (bool, usize) {
        match text.get(i..).and_then(|t| t.chars().next()) {
            Some(c) => (c.is_alphanumeric(), c.len_utf8()),
            None => (false, 1),
        }
    };
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let b = *bytes.get(at)?;
            if b < 0x80 {
                if ASCII[usize::from(b)] != 0 {
                    break;
                }
                at += 1;
            } else {
                let (in_word, len) = wide(at);
                if in_word {
                    break;
                }
                at += len;
            }
        }
        let (start, mut plain) = (at, true);
        while let Some(&b) = bytes.get(at) {
            if b < 0x80 {
                let class = ASCII[usize::from(b)];
                if class == 0 {
                    break;
                }
                plain &= class == 2;
                at += 1;
            } else {
                let (in_word, len) = wide(at);
                if !in_word {
                    break;
                }
                plain = false;
                at += len;
            }
        }
        Some((text.get(start..at).unwrap_or_default(), plain))
    })
}

/// Whether a lowercase word is a term: not too short, not a number, no stop word.
fn keeps(word: &str) -> bool {
    !(word.len() < 2 || word.chars().all(|c| c.is_ascii_digit()) || is_stop_word(word))
}

/// `parseHTTPHeader_value` → the byte ranges of `parse`, `HTTP`, `Header`,
/// `value` in `out` (cleared first).
fn identifier_parts(word: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let mut offset = 0;
    for piece in word.split('_') {
        let base = offset;
        offset += piece.len() + 1;
        if piece.is_empty() {
            continue;
        }
        let mut start = base;
        let mut chars = piece.char_indices().peekable();
        let mut prev: Option<char> = None;
        while let Some((i, cur)) = chars.next() {
            if let Some(prev) = prev {
                let next_lower = chars.peek().is_some_and(|&(_, c)| c.is_lowercase());
                let boundary = (prev.is_lowercase() && cur.is_uppercase())
                    || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                    || (prev.is_alphabetic() != cur.is_alphabetic());
                if boundary {
                    out.push((start, base + i));
                    start = base + i;
                }
            }
            prev = Some(cur);
        }
        out.push((start, base + piece.len()));
    }
}

/// `text` lowercased into `buf` (cleared first).
fn lowercase_into(buf: &mut String, text: &str) {
    buf.clear();
    if text.is_ascii() {
        buf.push_str(text);
        buf.make_ascii_lowercase();
    } else {
        buf.push_str(&text.to_lowercase());
    }
}

/// A light suffix stemmer: `channels` → `channel`; `parse`, `parsed`, `parsing` → `pars`;
/// `dependency`, `dependencies` → `dependenci`; `copy`, `copied`, `copying` → `copi`.
pub(crate) fn stem(word: &str) -> String {
    let (kept, i) = stem_parts(word);
    if i { format!("{kept}i") } else { kept.to_string() }
}

/// `word`'s stem as the part of `word` it keeps and whether an `i` follows
/// that part: a stem is `word` cut short, but for a `-y` that becomes an `i`.
fn stem_parts(word: &str) -> (&str, bool) {
    // `-ies`, `-ied` end a `-y` word (`entries`, `applied`) or an `-ie` one
    // (`cookies`): both keep the `i`, which `entry` and `cookie` come to as well.
    for suffix in ["es", "ed"] {
        let kept = word.len().saturating_sub(suffix.len());
        if kept > 2 && word.ends_with(suffix) && word[..kept].ends_with('i') {
            return (&word[..kept], false);
        }
    }
    let mut stem = word;
    for suffix in ["ing", "ed", "es", "s", "e"] {
        if word.len() > suffix.len() + 3 && word.ends_with(suffix) && !word.ends_with("ss") {
            stem = &word[..word.len() - suffix.len()];
            break;
        }
    }
    // A `-y` after a consonant is an `i` (`entry` as `entries`), not after a vowel (`array`, `key`).
    match stem.as_bytes() {
        bytes @ [.., before, b'y']
            if bytes.len() >= 4 && !b"aeiouy".contains(before) && before.is_ascii_alphabetic() =>
        {
            (&stem[..stem.len() - 1], true)
        }
        _ => (stem, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_split_identifiers_and_drop_noise() {
        assert_eq!(
            terms("Fix parseHTTPHeader in the mpsc_channel"),
            ["parsehttpheader", "pars", "http", "header", "mpsc_channel", "mpsc", "channel"]
        );
        // Words split as `str::split` on non-alphanumeric characters would, Unicode included.
        let text = "naïve_Ünïcode façade, 日本語テキスト x_y;\t«quoted» ÉTÉ 42 — __init__ é";
        let split: Vec<&str> =
            text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
        assert_eq!(words(text).map(|(w, _)| w).collect::<Vec<_>>(), split);
        assert_eq!(words("abc aBc a_b").map(|(_, plain)| plain).collect::<Vec<_>>(), [true, false, false]);
        // Plain lowercase words (the fast path) get the same treatment.
        assert_eq!(terms("the parsing of x values and mpsc"), ["pars", "valu", "mpsc"]);
        assert_eq!(terms("Parsing the X Values"), terms("parsing the x values"));
        // Prose that code rarely means names no `term_like`; a name that holds it still counts whole.
        assert_eq!(terms("a key like elapsed_precise"), ["key", "elapsed_precis", "elaps", "precis"]);
        assert_eq!(terms("term_like"), ["term_lik", "term"]);
        assert_eq!(stem("channels"), "channel");
        assert_eq!([stem("parse"), stem("parsed"), stem("parsing"), stem("parses")], ["pars"; 4]);
        assert_eq!(stem("class"), "class");
        // A `-y` word and its `-ies`, `-ied`, `-ying` forms meet (just's "dependencies" missed
        // `dependency.rs`); after a vowel the `y` stays.
        assert_eq!([stem("dependency"), stem("dependencies")], ["dependenci"; 2]);
        assert_eq!([stem("copy"), stem("copies"), stem("copied"), stem("copying")], ["copi"; 4]);
        assert_eq!(
            [stem("entry"), stem("entries"), stem("body"), stem("bodies")],
            ["entri", "entri", "bodi", "bodi"]
        );
        // An `-ie` word meets its plural too (h3's "cookies" missed `cookie.ts`).
        assert_eq!(
            [stem("cookie"), stem("cookies"), stem("movie"), stem("movies")],
            ["cooki", "cooki", "movi", "movi"]
        );
        assert_eq!([stem("array"), stem("arrays"), stem("key"), stem("by")], ["array", "array", "key", "by"]);
    }

    #[test]
    fn a_table_counts_every_term_and_finds_each() {
        let text = "fn parse_value(x: Value) -> Value { parse(x) } // the values";
        let names = ["parse_value", "ValueParser"];
        let table = FileTerms::of(text, names);
        let (in_text, in_names) = (terms(text), terms(&names.join(" ")));
        assert_eq!(table.totals(), TermCount { body: in_text.len() as u32, names: in_names.len() as u32 });
        for term in in_text.iter().chain(&in_names) {
            let times = |all: &[String]| all.iter().filter(|t| *t == term).count() as u32;
            assert_eq!(
                table.count(term),
                TermCount { body: times(&in_text), names: times(&in_names) },
                "{term}"
            );
        }
        assert_eq!(table.count("absent"), TermCount::default());
        assert_eq!(table.count(""), TermCount::default());
        assert_eq!(FileTerms::from_bytes(table.as_bytes()).unwrap(), table);
        assert_eq!(FileTerms::of("", []).totals(), TermCount::default());
    }

    #[test]
    fn damaged_bytes_read_as_no_terms_never_a_panic() {
        let table = FileTerms::of("alpha beta gamma delta epsilon", ["zeta"]);
        let bytes = table.as_bytes();
        assert!(FileTerms::from_bytes(&bytes[..10]).is_none());
        for cut in HEADER..bytes.len() {
            if let Some(short) = FileTerms::from_bytes(&bytes[..cut]) {
                for term in ["alpha", "delta", "epsilon", "zeta", "zzz"] {
                    let _ = short.count(term);
                }
            }
        }
        let mut scrambled = bytes.to_vec();
        scrambled[HEADER..HEADER + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(FileTerms::from_bytes(&scrambled).unwrap().count("alpha"), TermCount::default());
    }
}
