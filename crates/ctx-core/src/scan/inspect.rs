//! What a scan learns about one file: its language, whether it is text,
//! binary or too large to read, its content hash, and whether it looks like
//! a secret (by name or by content).

use std::path::Path;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

/// How much of a file is sniffed for NUL bytes to call it binary (as git does).
const BINARY_SNIFF_BYTES: usize = 8000;

/// The result of reading one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Inspection {
    pub kind: FileKind,
    pub hash: Option<[u8; 32]>,
    pub secret: Option<&'static str>,
}

/// Whether a file's content was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// Read and hashed.
    Text,
    /// Has NUL bytes near its start; recorded, not hashed.
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

/// Read `path` (of `size` bytes) and classify it. The name-based secret check
/// is the caller's (it needs no I/O).
pub(crate) fn inspect(path: &Path, size: u64, max_bytes: u64) -> std::io::Result<Inspection> {
    if size > max_bytes {
        return Ok(Inspection { kind: FileKind::Oversized, hash: None, secret: None });
    }
    let bytes = std::fs::read(path)?;
    Ok(inspect_bytes(&bytes))
}

pub(crate) fn inspect_bytes(bytes: &[u8]) -> Inspection {
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    if sniff.contains(&0) {
        return Inspection { kind: FileKind::Binary, hash: None, secret: None };
    }
    Inspection {
        kind: FileKind::Text,
        hash: Some(*blake3::hash(bytes).as_bytes()),
        secret: secret_by_content(bytes),
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

/// Why a file's content looks like a secret, if it does. Prefix signatures
/// must be followed by enough token characters to be a real token, so prose
/// that mentions "AKIA" is not flagged.
pub fn secret_by_content(bytes: &[u8]) -> Option<&'static str> {
    static MATCHER: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let matcher = MATCHER
        .get_or_init(|| AhoCorasick::new(SECRET_SIGNATURES.iter().map(|(pattern, _)| pattern)).ok())
        .as_ref()?;
    for found in matcher.find_overlapping_iter(bytes) {
        let (pattern, reason) = SECRET_SIGNATURES[found.pattern().as_usize()];
        let rest = &bytes[found.end()..];
        let token_len =
            rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'-').count();
        let real = match pattern {
            "PRIVATE KEY-----" | "PRIVATE KEY BLOCK-----" => {
                // `-----BEGIN [RSA |EC |OPENSSH |PGP ]PRIVATE KEY[ BLOCK]-----` opening a line
                let line_start =
                    bytes[..found.start()].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
                bytes[line_start..found.start()].starts_with(b"-----BEGIN ")
            }
            "AKIA" | "ASIA" => {
                token_len >= 16 && rest[..16].iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            }
            "aws_secret_access_key" => {
                let value = rest.iter().skip_while(|b| matches!(b, b' ' | b'=' | b':' | b'"' | b'\''));
                value.take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'+')).count() >= 40
            }
            "AIza" => token_len >= 35,
            _ => token_len >= 20,
        };
        // A signature glued to a preceding identifier (`MY_AKIA...`) is not a token start.
        let glued = found.start() > 0 && !pattern.starts_with("PRIVATE KEY") && {
            let before = bytes[found.start() - 1];
            before.is_ascii_alphanumeric() || before == b'_'
        };
        // Vendors' documented placeholders (`AKIAIOSFODNN7EXAMPLE`) are not secrets.
        let placeholder = bytes[found.end()..found.end() + token_len].windows(7).any(|w| w == b"EXAMPLE");
        if real && !glued && !placeholder {
            return Some(reason);
        }
    }
    None
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
    fn binary_and_text() {
        let text = inspect_bytes(b"fn main() {}\n");
        assert_eq!(text.kind, FileKind::Text);
        assert_eq!(text.hash, Some(*blake3::hash(b"fn main() {}\n").as_bytes()));
        let binary = inspect_bytes(b"\x7fELF\0\0\0binary");
        assert_eq!(binary.kind, FileKind::Binary);
        assert_eq!(binary.hash, None);
    }

    #[test]
    fn languages() {
        assert_eq!(language("main.rs"), Some("rust"));
        assert_eq!(language("App.TSX"), Some("tsx"));
        assert_eq!(language("Makefile"), Some("make"));
        assert_eq!(language("LICENSE"), None);
    }
}
