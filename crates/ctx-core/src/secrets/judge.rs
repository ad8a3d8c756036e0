//! The judgement a rule's match needs before it is called a secret: for
//! the generic `NAME = "value"` rule, whether the name says secret and the
//! value looks like one rather than code, a word, an id or a placeholder;
//! for every rule, what is a placeholder.

use super::RuleSpec;

/// The secret a rule's match holds, if it is one.
/// `text` is what the captures were found in.
pub(super) fn secret_of<'t>(
    spec: &RuleSpec,
    captures: &regex::Captures<'t>,
    text: &str,
) -> Option<regex::Match<'t>> {
    if !spec.assignment {
        return captures.name("secret").or_else(|| captures.get(0));
    }
    let name = captures.name("name")?;
    // `type Password = Uint8Array | string`: a type alias names a type, never a value.
    let line = text.get(..name.start()).unwrap_or("").rsplit('\n').next().unwrap_or("");
    if line.trim_end().rsplit(|c: char| c.is_whitespace()).next() == Some("type") {
        return None;
    }
    let name = name.as_str();
    let strength = name_strength(name)?;
    let (value, bare) =
        match (captures.name("dq"), captures.name("sq"), captures.name("bq"), captures.name("bare")) {
            (Some(v), ..) | (_, Some(v), ..) | (_, _, Some(v), _) => (v, false),
            (_, _, _, Some(v)) => (v, true),
            _ => return None,
        };
    looks_secret(value.as_str(), strength, bare).then_some(value)
}

/// How sure a name is to hold a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameStrength {
    /// A password: people choose them, so they need not look random.
    Password,
    /// A key, token or secret: machines make them, so they look random.
    Key,
}

/// What a name's last word may be about, when it is not the secret itself
/// (`password_hash`, `token_url`, `secret_name`).
const NOT_THE_SECRET: &[&str] = &[
    "name",
    "names",
    "id",
    "ids",
    "type",
    "types",
    "file",
    "path",
    "url",
    "uri",
    "len",
    "length",
    "size",
    "count",
    "field",
    "fields",
    "header",
    "env",
    "var",
    "prefix",
    "suffix",
    "format",
    "regex",
    "pattern",
    "kind",
    "index",
    "hash",
    "hashed",
    "hasher",
    "policy",
    "min",
    "max",
    "mode",
    "label",
    "prompt",
    "reset",
    "expiry",
    "expires",
    "ttl",
    "timeout",
    "manager",
    "store",
    "provider",
    "class",
    "fn",
    "func",
    "callback",
    "method",
    "endpoint",
    "host",
    "version",
    "help",
    "error",
    "message",
    "msg",
    "required",
    "enabled",
    "validator",
    "lookup",
    "column",
    "algorithm",
    "alg",
    "encoding",
    "bytes",
    "bits",
    "location",
    "dir",
    "source",
];

/// What a key or a token is when it is no credential (`next_token`,
/// `sort_key`, `S3Key`, `idempotency_token`).
const NOT_A_CREDENTIAL: &[&str] = &[
    "next",
    "page",
    "pagination",
    "continuation",
    "change",
    "request",
    "idempotency",
    "cursor",
    "resume",
    "sync",
    "marker",
    "sort",
    "partition",
    "range",
    "hash",
    "primary",
    "foreign",
    "cache",
    "object",
    "s3",
    "row",
    "lookup",
    "dict",
    "map",
    "group",
    "index",
    "order",
    "unique",
    "composite",
    "public",
    "signing",
    "routing",
    "message",
    "dedup",
    "deduplication",
    "client",
    "continue",
    "query",
    "start",
    "end",
    "last",
    "first",
    "prev",
    "previous",
    "purchase",
    "forward",
    "backward",
    "output",
    "input",
    "import",
    "export",
    "copy",
    "product",
    "upload",
];

/// Whether `name` says it holds a secret, and how sure that is.
fn name_strength(name: &str) -> Option<NameStrength> {
    let words = name_words(name);
    let last = words.last()?.as_str();
    let all = name.to_ascii_lowercase();
    let says_password = ["password", "passwd", "passphrase", "pwd"].iter().any(|w| all.contains(w));
    let says_secret =
        ["secret", "credential", "apikey", "api_key", "privatekey", "private_key", "accesskey", "access_key"]
            .iter()
            .any(|w| all.contains(w));
    let last_is_secret = matches!(
        last,
        "key"
            | "token"
            | "secret"
            | "pass"
            | "password"
            | "passwd"
            | "pwd"
            | "sig"
            | "credentials"
            | "credential"
            | "apikey"
            | "pat"
            | "auth"
            | "passphrase"
    );
    // `SECRET_KEY`, `api_key`: the name ends with the secret itself; `secret_name` does not.
    if !last_is_secret && NOT_THE_SECRET.contains(&last) {
        return None;
    }
    // `NextToken`, `SortKey`, `S3Key`: a token or key that is not a credential.
    let before_last = words.len().checked_sub(2).map(|i| words[i].as_str());
    if matches!(last, "key" | "token") && before_last.is_some_and(|w| NOT_A_CREDENTIAL.contains(&w)) {
        return None;
    }
    if says_password && (last_is_secret || !NOT_THE_SECRET.contains(&last)) {
        return Some(NameStrength::Password);
    }
    (last_is_secret || says_secret).then_some(NameStrength::Key)
}

/// `OPENAI_API_KEY` → openai, api, key; `apiKey` → api, key; `self.db_password` → self, db, password.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether a value given to a secret-sounding name is a secret, not code,
/// a word or a placeholder.
fn looks_secret(value: &str, strength: NameStrength, bare: bool) -> bool {
    if is_placeholder(value) || is_identifier_path(value) || is_reference(value) {
        return false;
    }
    let has_digit = value.bytes().any(|b| b.is_ascii_digit());
    let has_lower = value.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = value.bytes().any(|b| b.is_ascii_uppercase());
    let has_other = value.bytes().any(|b| !b.is_ascii_alphanumeric());
    let classes = [has_digit, has_lower, has_upper, has_other].iter().filter(|&&c| c).count();
    match strength {
        NameStrength::Password => {
            // Chosen by people: any value of some length mixing kinds of characters
            // (a bare word after `password:` in YAML is often a variable's name).
            // A password of letters alone (`Incorrect`) is more often a word than a password.
            value.len() >= 6
                && classes >= 2
                && (has_digit || has_other)
                && entropy(value) >= 2.0
                && (!bare || has_digit)
        }
        NameStrength::Key => {
            // A type or a constant's name after `key:` (`Utf8SuffixKey`); a
            // person's password may well be made of words, a token is not.
            !is_made_of_words(value)
                && value.len() >= 12
                && value.len() <= 512
                && has_digit
                && (has_lower || has_upper)
                && entropy(value) >= 3.0
                && !value.contains("://")
        }
    }
}

/// Values that name or point at something rather than being a secret: a
/// UUID (an id), a short hex digest, an ARN, a path.
fn is_reference(value: &str) -> bool {
    let is_hex = |part: &str| part.bytes().all(|b| b.is_ascii_hexdigit());
    let parts: Vec<&str> = value.split('-').collect();
    let uuid = parts.len() == 5
        && parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts.iter().all(|p| is_hex(p));
    // A credential in hex has 128 bits or more; shorter hex is a hash or an id.
    let short_hex = value.len() < 32 && is_hex(value);
    uuid || short_hex || value.starts_with("arn:") || value.starts_with('/') || value.ends_with('/')
}

/// `settings.API_KEY`, `os.environ`, `KEY_NAME_FALLBACK`, `CVSS2_VECTOR`: code, not a value.
fn is_identifier_path(value: &str) -> bool {
    let identifier = |segment: &str| {
        let mut chars = segment.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    let dotted = value.contains('.') && value.split(['.', ':']).all(identifier);
    // One case, and no digit or words joined by `_`: a constant's or a function's name.
    let single_case = (!value.bytes().any(|b| b.is_ascii_digit()) || value.contains('_'))
        && (!value.bytes().any(|b| b.is_ascii_uppercase()) || !value.bytes().any(|b| b.is_ascii_lowercase()));
    dotted || (single_case && identifier(value))
}

/// `Utf8SuffixKey`, `ServiceClient2`: an identifier made of words is a
/// name, not a random token. A word here is a capital or nothing, then
/// small letters, three or more letters in all, a quarter of them vowels
/// (as in English); random letters rarely line up that way.
fn is_made_of_words(value: &str) -> bool {
    let bytes = value.as_bytes();
    let mut in_words = 0;
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        if bytes[i].is_ascii_uppercase() {
            i += 1;
        }
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        if i == start {
            i += 1;
            continue;
        }
        let word = &bytes[start..i];
        let vowels = word.iter().filter(|b| b"aeiouyAEIOUY".contains(b)).count();
        if word.len() >= 3 && vowels * 4 >= word.len() {
            in_words += word.len();
        }
    }
    in_words * 10 >= value.len() * 8
}

/// Values people write as stand-ins (`user:password@host`,
/// `SomeKindOfPassword1`, `testPass`, `mock_key`): placeholders for the rules
/// whose values people write (see `RuleSpec::word_placeholders`), never for
/// a token format of its own.
pub(super) fn is_word_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    ["password", "passwd", "test", "mock", "fake"].iter().any(|word| lower.contains(word))
        || matches!(lower.as_str(), "pass" | "secret" | "pwd" | "pw" | "token" | "apikey" | "api_key")
}

/// Values written to be replaced, and ctx's own redactions.
pub(super) fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    const MARKS: &[&str] = &[
        "example",
        "xxxx",
        "****",
        "....",
        "placeholder",
        "changeme",
        "change_me",
        "change-me",
        "your_",
        "your-",
        "yourkey",
        "yourtoken",
        "redacted",
        "dummy",
        "<",
        "${",
        "{{",
        "%s",
        "%(",
        "${{",
        "insert",
        "replace",
    ];
    if MARKS.iter().any(|mark| lower.contains(mark)) || lower.starts_with(['$', '{', '%']) {
        return true;
    }
    // One character repeated (`aaaaaaaaaaaa`, `000000000000`).
    let first = value.as_bytes().first();
    value.len() > 1 && value.bytes().all(|b| Some(&b) == first)
}

/// Shannon entropy of `text`'s bytes, in bits per byte.
pub(crate) fn entropy(text: &str) -> f64 {
    if text.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for b in text.bytes() {
        counts[b as usize] += 1;
    }
    let n = text.len() as f64;
    counts.iter().filter(|&&c| c > 0).map(|&c| c as f64 / n).map(|p| -p * p.log2()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::tests::{ALNUM, fake};

    #[test]
    fn random_tokens_are_not_taken_for_words() {
        // The word test keeps identifiers out; it must almost never keep a token out.
        let mut made_of_words = 0;
        for seed in 0..2000 {
            let token = fake(ALNUM, 16 + (seed as usize % 25), seed);
            if is_made_of_words(&token) {
                made_of_words += 1;
            }
        }
        assert!(made_of_words <= 2, "{made_of_words} of 2000 random tokens look like words");
    }

    #[test]
    fn names() {
        assert_eq!(name_words("OPENAI_API_KEY"), ["openai", "api", "key"]);
        assert_eq!(name_words("apiKey"), ["api", "key"]);
        assert_eq!(name_strength("self.db_password"), Some(NameStrength::Password));
        assert_eq!(name_strength("secret_key_base"), Some(NameStrength::Key));
        assert_eq!(name_strength("secret_name"), None);
        assert_eq!(name_strength("token_url"), None);
        assert_eq!(name_strength("monkey"), None);
    }
}
