//! What a scan learns about one file: its language, whether it is text,
//! binary or too large to read, its content hash, and whether it looks like
//! a secret (by name or by content).

use std::fs::File;
use std::io::Read;

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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    let secret = secret_by_content(bytes).or_else(|| npm_credentials(name, bytes));
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
    // Key stores by nature. A `.pem`, `.crt` or `.asc` file may be a public
    // certificate or key: its content decides (see `secret_by_content`).
    const KEY_EXTENSIONS: &[&str] = &[".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk", ".gpg"];
    if KEY_EXTENSIONS.iter().any(|ext| lower.ends_with(ext)) {
        return Some("key store");
    }
    if matches!(
        lower,
        ".netrc" | "_netrc" | ".pgpass" | ".htpasswd" | ".pypirc" | ".git-credentials" | ".dockercfg"
    ) {
        return Some("credentials file");
    }
    // `credentials.json`, `secrets.yaml`: data named for what it holds. Code
    // named so (Python's `secrets` module, a `secrets.rs`) is no secret itself.
    let (stem, extension) = lower.split_once('.').unwrap_or((lower, ""));
    let data = matches!(
        extension,
        "" | "json" | "yaml" | "yml" | "toml" | "ini" | "cfg" | "conf" | "txt" | "xml" | "properties"
    ) || extension.ends_with(".json")
        || extension.ends_with(".yaml")
        || extension.ends_with(".yml");
    if data && matches!(stem, "credentials" | "secrets" | "secret" | "service-account" | "service_account") {
        return Some("credentials file");
    }
    None
}

/// Why a file's content makes it a secret by nature, if it does: a private
/// key file (its first line opens a PEM, OpenSSH or PGP private key, or a
/// PuTTY key). Such a file is hidden whole. Secrets inside other files —
/// a token in a constant, a key in a docstring — are redacted instead, and
/// the rest of the file stays useful (see `crate::secrets`). A public
/// certificate is not a secret.
pub fn secret_by_content(bytes: &[u8]) -> Option<&'static str> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let first_line = &bytes[start..];
    let first_line = &first_line[..first_line.iter().position(|&b| b == b'\n').unwrap_or(first_line.len())];
    if first_line.starts_with(b"PuTTY-User-Key-File-") {
        return Some("private key");
    }
    let opens_key = first_line.starts_with(b"-----BEGIN ")
        && first_line.len() <= MAX_KEY_HEADER
        && (first_line.windows(16).any(|w| w == b"PRIVATE KEY-----")
            || first_line.windows(22).any(|w| w == b"PRIVATE KEY BLOCK-----"));
    opens_key.then_some("private key")
}

/// Whether `name` is an `.npmrc` that holds credentials: a line setting an
/// auth token, password or key (`//registry.npmjs.org/:_authToken=…`) to a
/// value of its own, not an environment variable (`${NPM_TOKEN}`). Most
/// `.npmrc` files kept in a repository only set options
/// (`shamefully-hoist=true`), and what they set is worth reading.
fn npm_credentials(name: &str, bytes: &[u8]) -> Option<&'static str> {
    const AUTH_KEYS: &[&str] = &["_authtoken", "_auth", "_password", "password", "keyfile", "key"];
    if !name.eq_ignore_ascii_case(".npmrc") {
        return None;
    }
    let text = String::from_utf8_lossy(bytes);
    let holds = text.lines().map(str::trim).filter(|l| !l.starts_with(['#', ';'])).any(|line| {
        let Some((key, value)) = line.split_once('=') else { return false };
        let key = key.trim().rsplit(':').next().unwrap_or("").to_ascii_lowercase();
        let value = value.trim().trim_matches(['"', '\'']);
        let from_environment = value.starts_with("${") && value.ends_with('}') && !value[2..].contains("${");
        AUTH_KEYS.contains(&key.as_str()) && !value.is_empty() && !from_environment
    });
    holds.then_some("credentials file")
}

/// The longest first line of a private key file: `-----BEGIN ENCRYPTED PRIVATE KEY-----`
/// and its kin, with room for trailing spaces.
const MAX_KEY_HEADER: usize = 64;

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
        "pyx" | "pxd" | "pxi" => "cython",
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
            "tls.key",
            ".netrc",
            "credentials.json",
            "secrets.yaml",
            "secrets.prod.yml",
            "credentials",
        ] {
            assert!(secret_by_name(name).is_some(), "{name} should be a secret");
        }
        for name in [
            "id_rsa.pub",
            "environment.py",
            "keys.rs",
            "README.md",
            "secretary.py",
            "envelope.txt",
            "secrets.py",
            "secrets.rs",
            "credentials.ts",
        ] {
            assert_eq!(secret_by_name(name), None, "{name} should not be a secret");
        }
    }

    #[test]
    fn private_key_files_are_secrets_by_content() {
        // Split with concat! so that this source file does not itself look like a secret.
        let key = concat!(
            "\n-----BEGIN OPENSSH ",
            "PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH ",
            "PRIVATE KEY-----\n"
        );
        assert_eq!(secret_by_content(key.as_bytes()), Some("private key"));
        let pgp = concat!("-----BEGIN PGP ", "PRIVATE KEY BLOCK-----\n\nlQOYBF\n");
        assert_eq!(secret_by_content(pgp.as_bytes()), Some("private key"));
        // A certificate or public key is not; neither is code that holds a
        // key (its value is redacted instead) nor a token in a config.
        for text in [
            concat!("-----BEGIN ", "CERTIFICATE-----\nMIIB\n-----END ", "CERTIFICATE-----\n"),
            concat!("-----BEGIN PGP ", "PUBLIC KEY BLOCK-----\nmQEN\n"),
            concat!("KEY = \"\"\"\n-----BEGIN RSA ", "PRIVATE KEY-----\nMIIE\n\"\"\"\n"),
            concat!("token: ghp", "_0123456789abcdefghijABCDEFGHIJ0123\n"),
            "",
        ] {
            assert_eq!(secret_by_content(text.as_bytes()), None, "{text}");
        }
        assert_eq!(secret_by_name("server.pem"), None);
        assert_eq!(secret_by_name("tls.key"), Some("key store"));
    }

    #[test]
    fn an_npmrc_is_a_secret_only_when_it_holds_credentials() {
        let secret = |text: &str| inspect_bytes(".npmrc", text.as_bytes()).secret;
        assert_eq!(secret("shamefully-hoist=true\nignore-workspace-root-check=true\n"), None);
        assert_eq!(secret("//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"), None);
        let token = concat!("//registry.npmjs.org/:_authToken=npm", "_a1B2c3D4e5F6g7H8i9J0\n");
        assert_eq!(secret(token), Some("credentials file"));
        assert_eq!(
            secret("registry=https://npm.example.com/\n_auth = dXNlcjpwYXNz\n"),
            Some("credentials file")
        );
        assert_eq!(secret_by_name(".npmrc"), None);
        let options = inspect_bytes(".npmrc", b"shamefully-hoist=true\n");
        assert!(options.secret.is_none());
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
