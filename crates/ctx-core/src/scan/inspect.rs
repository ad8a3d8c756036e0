//! What a scan learns about one file: its language, whether it is text,
//! binary or too large to read, its content hash, and whether it looks like
//! a secret (by name or by content).

use std::fs::File;
use std::io::Read;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use super::summary::summarize;

/// How much of a file is sniffed for NUL bytes to call it binary (as git does).
const BINARY_SNIFF_BYTES: usize = 8000;

/// The result of reading one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Inspection {
    pub kind: FileKind,
    pub hash: Option<[u8; 32]>,
    pub secret: Option<&'static str>,
    /// What the file says it is about (see [`summarize`]); text files only.
    pub summary: Option<String>,
}

/// Whether a file's content was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// Read and hashed.
    Text,
    /// Has NUL bytes near its start; hashed, never shown.
    Binary,
    /// Larger than `[scan] max_file_bytes`; recorded, never opened.
    Oversized,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Text => "text",
            FileKind::Binary => "binary",
            FileKind::Oversized => "oversized",
        }
    }

    pub(crate) fn parse(text: &str) -> FileKind {
        match text {
            "binary" => FileKind::Binary,
            "oversized" => FileKind::Oversized,
            _ => FileKind::Text,
        }
    }
}

/// Read the file `open` opens (of `size` bytes) and classify it. The
/// name-based secret check is the caller's (it needs no I/O).
///
/// Binary files are hashed (so a touched binary is not a changed one) but
/// never searched for secrets or shown; oversized files are never opened.
pub(crate) fn inspect(
    open: impl FnOnce() -> std::io::Result<File>,
    name: &str,
    size: u64,
    max_bytes: u64,
) -> std::io::Result<Inspection> {
    if size > max_bytes {
        return Ok(Inspection::oversized());
    }
    let file = open()?;
    // The file may have grown since it was stat'ed: never hold more than the limit.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Ok(Inspection::oversized());
    }
    Ok(inspect_bytes(name, &bytes))
}

pub(crate) fn inspect_bytes(name: &str, bytes: &[u8]) -> Inspection {
    let hash = Some(*blake3::hash(bytes).as_bytes());
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    if sniff.contains(&0) {
        return Inspection { kind: FileKind::Binary, hash, secret: None, summary: None };
    }
    let secret = secret_by_content(bytes);
    // A secret's words stay out of every output, its summary included.
    let summary = if secret.is_some() { None } else { summarize(name, language(name), bytes) };
    Inspection { kind: FileKind::Text, hash, secret, summary }
}

impl Inspection {
    fn oversized() -> Inspection {
        Inspection { kind: FileKind::Oversized, hash: None, secret: None, summary: None }
    }
}

/// Why a file name looks like it holds secrets, if it does.
pub fn secret_by_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let lower = lower.as_str();
    if lower == ".env" || lower.starts_with(".env.") || lower.ends_with(".env") {
        return Some("environment file");
    }
    if matches!(lower, "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519" | "id_ecdsa_sk" | "id_ed25519_sk") {
        return Some("ssh private key");
    }
    const KEY_EXTENSIONS: &[&str] =
        &[".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk", ".gpg", ".asc"];
    if KEY_EXTENSIONS.iter().any(|ext| lower.ends_with(ext)) {
        return Some("key or certificate store");
    }
    if matches!(
        lower,
        ".netrc"
            | "_netrc"
            | ".pgpass"
            | ".htpasswd"
            | ".pypirc"
            | ".npmrc"
            | ".git-credentials"
            | ".dockercfg"
    ) {
        return Some("credentials file");
    }
    let stem = lower.split('.').next().unwrap_or(lower);
    if matches!(stem, "credentials" | "secrets" | "secret" | "service-account" | "service_account") {
        return Some("credentials file");
    }
    None
}

/// Content signatures of private keys and well-known API tokens.
const SECRET_SIGNATURES: &[(&str, &str)] = &[
    ("PRIVATE KEY-----", "private key"),
    ("PRIVATE KEY BLOCK-----", "pgp private key"),
    ("AKIA", "aws access key id"),
    ("ASIA", "aws access key id"),
    ("aws_secret_access_key", "aws secret access key"),
    ("ghp_", "github token"),
    ("gho_", "github token"),
    ("ghs_", "github token"),
    ("github_pat_", "github token"),
    ("xoxb-", "slack token"),
    ("xoxp-", "slack token"),
    ("sk_live_", "stripe secret key"),
    ("glpat-", "gitlab token"),
    ("AIza", "google api key"),
];

/// The longest token a signature check looks at: real tokens are shorter,
/// and bounding the look-ahead keeps a file full of `AKIA`s linear.
const MAX_TOKEN_BYTES: usize = 64;

/// How far before `PRIVATE KEY-----` the `-----BEGIN ` that opens its line may
/// start (`-----BEGIN ENCRYPTED ` is the longest prefix in use).
const MAX_KEY_HEADER_PREFIX: usize = 32;

/// Why a file's content looks like a secret, if it does. Prefix signatures
/// must be followed by enough token characters to be a real token, so prose
/// that mentions "AKIA" is not flagged. Every check looks at a bounded window
/// around a match, so the cost is linear in the file's size.
pub fn secret_by_content(bytes: &[u8]) -> Option<&'static str> {
    static MATCHER: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let matcher = MATCHER
        .get_or_init(|| AhoCorasick::new(SECRET_SIGNATURES.iter().map(|(pattern, _)| pattern)).ok())
        .as_ref()?;
    let is_token_byte = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-';
    for found in matcher.find_overlapping_iter(bytes) {
        let (pattern, reason) = SECRET_SIGNATURES[found.pattern().as_usize()];
        let is_key_header = pattern.starts_with("PRIVATE KEY");
        // A signature glued to a preceding identifier (`MY_AKIA...`) is not a token start.
        let glued = !is_key_header
            && found.start() > 0
            && matches!(bytes[found.start() - 1], b if b.is_ascii_alphanumeric() || b == b'_');
        if glued {
            continue;
        }
        let rest = &bytes[found.end()..bytes.len().min(found.end() + MAX_TOKEN_BYTES)];
        let token = &rest[..rest.iter().take_while(|b| is_token_byte(b)).count()];
        let real = match pattern {
            "PRIVATE KEY-----" | "PRIVATE KEY BLOCK-----" => opens_key_header(bytes, found.start()),
            "AKIA" | "ASIA" => {
                token.len() >= 16 && token[..16].iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            }
            "aws_secret_access_key" => {
                let value = rest.iter().skip_while(|b| matches!(b, b' ' | b'=' | b':' | b'"' | b'\''));
                value.take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'+')).count() >= 40
            }
            "AIza" => token.len() >= 35,
            _ => token.len() >= 20,
        };
        // Vendors' documented placeholders (`AKIAIOSFODNN7EXAMPLE`) are not secrets.
        let placeholder = token.windows(7).any(|w| w == b"EXAMPLE");
        if real && !placeholder {
            return Some(reason);
        }
    }
    None
}

/// Whether the line holding `start` begins with `-----BEGIN ` shortly before it.
fn opens_key_header(bytes: &[u8], start: usize) -> bool {
    let window_start = start.saturating_sub(MAX_KEY_HEADER_PREFIX);
    let window = &bytes[window_start..start];
    let line_start = match window.iter().rposition(|b| *b == b'\n') {
        Some(newline) => window_start + newline + 1,
        None if window_start == 0 => 0,
        None => return false,
    };
    bytes[line_start..start].starts_with(b"-----BEGIN ")
}

/// The language of a file, from its name, for the languages ctx knows.
pub fn language(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let by_name = match lower.as_str() {
        "makefile" | "gnumakefile" => Some("make"),
        "dockerfile" | "containerfile" => Some("dockerfile"),
        "cmakelists.txt" => Some("cmake"),
        _ => None,
    };
    if by_name.is_some() {
        return by_name;
    }
    let ext = lower.rsplit_once('.')?.1;
    Some(match ext {
        "rs" => "rust",
        "py" | "pyi" | "pyw" => "python",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "js" | "mjs" | "cjs" | "jsx" => "javascript",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "cs" => "csharp",
        "rb" => "ruby",
        "php" => "php",
        "swift" => "swift",
        "scala" => "scala",
        "sh" | "bash" | "zsh" => "shell",
        "lua" => "lua",
        "sql" => "sql",
        "md" | "markdown" => "markdown",
        "rst" => "rst",
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "json" => "json",
        "html" | "htm" => "html",
        "css" | "scss" => "css",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for name in [
            ".env",
            ".env.local",
            "prod.env",
            "id_rsa",
            "server.pem",
            "tls.key",
            ".netrc",
            "credentials.json",
        ] {
            assert!(secret_by_name(name).is_some(), "{name} should be a secret");
        }
        for name in ["id_rsa.pub", "environment.py", "keys.rs", "README.md", "secretary.py", "envelope.txt"] {
            assert_eq!(secret_by_name(name), None, "{name} should not be a secret");
        }
    }

    #[test]
    fn secret_contents() {
        // Split with concat! so that this source file does not itself look like a secret.
        let key = concat!("config\n-----BEGIN OPENSSH ", "PRIVATE KEY-----\nb3Blbn\n");
        assert_eq!(secret_by_content(key.as_bytes()), Some("private key"));
        let aws = concat!("aws_key = \"AKIA", "Q7RZ3MT2VX4PLK9D\"\n");
        assert_eq!(secret_by_content(aws.as_bytes()), Some("aws access key id"));
        let github = concat!("token: ghp", "_0123456789abcdefghijABCDEFGHIJ0123\n");
        assert_eq!(secret_by_content(github.as_bytes()), Some("github token"));
        let aws_secret = concat!("aws_secret", "_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEYxx1234\n");
        assert_eq!(secret_by_content(aws_secret.as_bytes()), Some("aws secret access key"));
    }

    #[test]
    fn prose_about_secrets_is_not_a_secret() {
        for text in [
            &b"AWS keys start with AKIA and are 20 characters long"[..],
            b"def parse_private_key(pem): # reads '-----BEGIN' then 'PRIVATE KEY-----'",
            b"MY_AKIAIOSFODNN7EXAMPLE_CONST = 1",
            b"aws_key = \"AKIAIOSFODNN7EXAMPLE\"",
            b"the ghp_ prefix marks github tokens",
        ] {
            assert_eq!(secret_by_content(text), None, "{}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn signatures_in_long_runs_are_judged_by_a_bounded_window() {
        // One long token made of signatures: every match is checked, each in O(1).
        let run = concat!("AK", "IA").repeat(250_000);
        assert_eq!(secret_by_content(run.as_bytes()), Some("aws access key id"));
        // Glued to an identifier, every later match is glued to the one before.
        assert_eq!(secret_by_content(format!("x{run}").as_bytes()), None);
        // A key header far from its line start is prose, however long the line.
        let long_line = format!("{}{}", "-".repeat(100_000), concat!("PRIVATE ", "KEY-----\n").repeat(1000));
        assert_eq!(secret_by_content(long_line.as_bytes()), None);
        let header_after_newline = concat!("x\n-----BEGIN ENCRYPTED ", "PRIVATE KEY-----\n");
        assert_eq!(secret_by_content(header_after_newline.as_bytes()), Some("private key"));
    }

    #[test]
    fn binary_and_text() {
        let text = inspect_bytes("main.rs", b"fn main() {}\n");
        assert_eq!(text.kind, FileKind::Text);
        assert_eq!(text.hash, Some(*blake3::hash(b"fn main() {}\n").as_bytes()));
        let binary = inspect_bytes("a.out", b"\x7fELF\0\0\0binary");
        assert_eq!(binary.kind, FileKind::Binary);
        assert_eq!(binary.hash, Some(*blake3::hash(b"\x7fELF\0\0\0binary").as_bytes()));
        assert_eq!(binary.secret, None);
    }

    #[test]
    fn languages() {
        assert_eq!(language("main.rs"), Some("rust"));
        assert_eq!(language("App.TSX"), Some("tsx"));
        assert_eq!(language("Makefile"), Some("make"));
        assert_eq!(language("LICENSE"), None);
    }
}
