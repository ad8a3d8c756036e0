//! The secret detector: finds credentials in text and redacts them, so no
//! secret leaves ctx (see docs/security.md).
//!
//! Text is redacted where it enters ctx — a file's summary, path and map
//! signatures when a scan or the map reads them, whatever a person or an
//! agent hands over (records, transcripts, descriptions, decisions, frames,
//! pins) before it is stored — so the store holds no secret and every
//! rendering made from it holds none. The secret value becomes
//! `[REDACTED:<rule>]`; the rest of the line stays.
//!
//! Rules are data ([`BUILTIN_RULES_TOML`], plus `[secrets] rules`): a regex
//! per token format, keywords that gate it, an optional entropy floor. One Aho–Corasick pass finds the
//! keywords of every rule; a rule's regex then runs only on the lines where
//! its keywords are, so text that holds none costs one linear scan.
//!
//! Precedence of what is allowed, highest first:
//! 1. `[secrets] allow_paths`: nothing in a file there is redacted, and no
//!    file there is hidden whole;
//! 2. `[secrets] allow_fingerprints`: a value with that fingerprint is kept
//!    wherever it is;
//! 3. placeholders (`EXAMPLE`, `xxxx`, `your-…`, `<…>`, `${…}`) are never secrets.

mod inputs;
mod judge;
mod report;
mod rules;
pub(crate) mod scrub;

use std::borrow::Cow;
use std::path::Path;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use rustc_hash::FxHashSet as HashSet;
use serde::{Deserialize, Serialize};

pub(crate) use inputs::Redacted;
use judge::{entropy, is_placeholder, is_word_placeholder, secret_of};
pub use report::{HiddenFile, SecretFinding, SecretsReport};
use rules::Rule;
pub use rules::{BUILTIN_RULES_TOML, RuleSpec};

/// How a redacted value starts in text: `[REDACTED:<rule>]`.
pub(crate) const REDACTED_MARK: &str = "[REDACTED:";

/// How far a rule looks around its keyword, in bytes, on a long line.
const LINE_REACH: usize = 4096;
/// How far a multi-line rule (a PEM block) looks past its keyword.
const BLOCK_REACH: usize = 64 * 1024;

/// `[secrets]` in `.ctx/config.toml`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecretsConfig {
    /// Rules added to the built-in ones (same fields, see docs/security.md).
    pub rules: Vec<RuleSpec>,
    /// gitignore-style globs of paths whose files are neither redacted nor
    /// hidden whole (test fixtures that must stay visible).
    pub allow_paths: Vec<String>,
    /// Fingerprints (from `ctx secrets scan`) of values that are not secrets.
    pub allow_fingerprints: Vec<String>,
}

impl SecretsConfig {
    /// Why this configuration cannot be used, if it cannot.
    pub(crate) fn problem(&self) -> Option<String> {
        for rule in &self.rules {
            if let Some(problem) = rule.problem() {
                return Some(format!("[secrets] {problem}"));
            }
        }
        for fingerprint in &self.allow_fingerprints {
            if fingerprint.len() != FINGERPRINT_HEX || !fingerprint.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Some(format!(
                    "[secrets] allow_fingerprints: {fingerprint:?} is not a fingerprint ({FINGERPRINT_HEX} hex digits, as `ctx secrets scan` prints them)"
                ));
            }
        }
        allow_matcher(&self.allow_paths).err().map(|err| format!("[secrets] allow_paths: {err}"))
    }
}

/// One secret found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's id.
    pub rule: String,
    /// Byte range of the secret value in the text.
    pub start: usize,
    pub end: usize,
    /// [`fingerprint`] of the value.
    pub fingerprint: String,
    /// Found by the generic `NAME = "value"` rule, not a format's own.
    pub generic: bool,
}

/// Hex digits of a fingerprint.
const FINGERPRINT_HEX: usize = 16;

/// A value's fingerprint: the first 64 bits of its blake3 hash, in hex. It
/// names a value in `allow_fingerprints` without writing it down (a weak
/// password can still be guessed from it by trying a dictionary).
pub fn fingerprint(value: &str) -> String {
    blake3::hash(value.as_bytes()).to_hex()[..FINGERPRINT_HEX].to_string()
}

/// The detector: the built-in rules, the configuration's, and what is allowed.
#[derive(Debug)]
pub struct Detector {
    rules: Vec<Rule>,
    /// Keywords matched regardless of case, and the rule of each pattern.
    folded: Option<(AhoCorasick, Vec<usize>)>,
    /// Keywords matched as written.
    exact: Option<(AhoCorasick, Vec<usize>)>,
    allow_fingerprints: HashSet<String>,
    allow_paths: Option<Gitignore>,
    digest: String,
}

impl Detector {
    /// The built-in rules and `config`'s. `config` must have been checked
    /// ([`Config::load`](crate::Config::load) does): its rules that cannot
    /// compile are left out here.
    pub fn new(config: &SecretsConfig) -> Detector {
        let specs: Vec<RuleSpec> = rules::builtin()
            .iter()
            .cloned()
            .chain(config.rules.iter().filter(|r| r.problem().is_none()).cloned())
            .collect();
        let automaton = |case_sensitive: bool| {
            let mut patterns = Vec::new();
            let mut owners = Vec::new();
            for (index, spec) in
                specs.iter().enumerate().filter(|(_, s)| s.case_sensitive_keywords == case_sensitive)
            {
                for keyword in &spec.keywords {
                    patterns.push(keyword.clone());
                    owners.push(index);
                }
            }
            if patterns.is_empty() {
                return None;
            }
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(!case_sensitive)
                .match_kind(MatchKind::Standard)
                .build(&patterns)
                .ok()
                .map(|automaton| (automaton, owners))
        };
        let (folded, exact) = (automaton(false), automaton(true));
        let mut digest = blake3::Hasher::new();
        digest.update(BUILTIN_RULES_TOML.as_bytes());
        digest.update(serde_json::to_string(config).unwrap_or_default().as_bytes());
        Detector {
            rules: specs.into_iter().map(Rule::new).collect(),
            folded,
            exact,
            allow_fingerprints: config.allow_fingerprints.iter().map(|f| f.to_ascii_lowercase()).collect(),
            allow_paths: allow_matcher(&config.allow_paths).ok().flatten(),
            digest: digest.finalize().to_hex()[..FINGERPRINT_HEX].to_string(),
        }
    }

    /// The built-in rules alone, shared by the whole process.
    pub fn builtin() -> &'static Detector {
        static DETECTOR: std::sync::OnceLock<Detector> = std::sync::OnceLock::new();
        DETECTOR.get_or_init(|| Detector::new(&SecretsConfig::default()))
    }

    /// Changes whenever what is detected or allowed changes: text stored
    /// under another digest is scrubbed again when a workspace opens.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The rules in force: built-in first, then the configuration's.
    pub fn rules(&self) -> impl Iterator<Item = &RuleSpec> {
        self.rules.iter().map(|rule| &rule.spec)
    }

    /// Whether `path` (repository-relative, `/`-separated) is allow-listed.
    pub fn allows_path(&self, path: &str) -> bool {
        self.allow_paths
            .as_ref()
            .is_some_and(|matcher| matcher.matched_path_or_any_parents(Path::new(path), false).is_ignore())
    }

    /// The secrets in `text`, in order, not overlapping; allowed values left out.
    pub fn find(&self, text: &str) -> Vec<Finding> {
        let mut windows: Vec<(usize, usize, usize)> = Vec::new();
        // Per rule, how far its windows already reach: a keyword met again
        // on a line already looked at adds nothing.
        let mut reached = vec![0usize; self.rules.len()];
        for (automaton, owners) in [&self.folded, &self.exact].into_iter().flatten() {
            for found in automaton.find_overlapping_iter(text) {
                let rule = owners[found.pattern().as_usize()];
                if found.start() < reached[rule] {
                    continue;
                }
                let (start, end) = window(text, found.start(), found.end(), self.rules[rule].spec.multiline);
                reached[rule] = end;
                windows.push((rule, start, end));
            }
        }
        if windows.is_empty() {
            return Vec::new();
        }
        let mut findings = Vec::new();
        for (rule_index, start, end) in windows {
            let rule = &self.rules[rule_index];
            let Some(regex) = rule.regex() else { continue };
            for captures in regex.captures_iter(&text[start..end]) {
                let Some(value) = secret_of(&rule.spec, &captures, &text[start..end]) else { continue };
                let secret = value.as_str();
                if rule.spec.entropy.is_some_and(|least| entropy(secret) < least)
                    || is_placeholder(secret)
                    || ((rule.spec.word_placeholders || rule.spec.assignment) && is_word_placeholder(secret))
                {
                    continue;
                }
                let fingerprint = fingerprint(secret);
                if self.allow_fingerprints.contains(&fingerprint) {
                    continue;
                }
                findings.push(Finding {
                    generic: rule.spec.assignment,
                    rule: rule.spec.id.clone(),
                    start: start + value.start(),
                    end: start + value.end(),
                    fingerprint,
                });
            }
        }
        // A format's own rule names a secret better than the generic one.
        findings.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end), f.generic));
        // Overlapping findings become one, named by the first.
        let mut merged: Vec<Finding> = Vec::with_capacity(findings.len());
        for finding in findings {
            match merged.last_mut() {
                Some(last) if finding.start < last.end => last.end = last.end.max(finding.end),
                _ => merged.push(finding),
            }
        }
        merged
    }

    /// `text` with every secret replaced by `[REDACTED:<rule>]`.
    pub fn redact<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let findings = self.find(text);
        if findings.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for finding in &findings {
            out.push_str(&text[at..finding.start]);
            out.push_str(REDACTED_MARK);
            out.push_str(&finding.rule);
            out.push(']');
            at = finding.end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// [`Detector::redact`] for text read from the file at `path`: unchanged
    /// when the path is allow-listed.
    pub fn redact_in<'t>(&self, path: &str, text: &'t str) -> Cow<'t, str> {
        if self.allows_path(path) { Cow::Borrowed(text) } else { self.redact(text) }
    }

    /// [`Detector::redact`] into an owned string, for values about to be stored.
    pub fn redacted(&self, text: &str) -> String {
        self.redact(text).into_owned()
    }
}

fn allow_matcher(globs: &[String]) -> Result<Option<Gitignore>, String> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut builder = GitignoreBuilder::new("");
    for glob in globs {
        builder.add_line(None, glob).map_err(|err| format!("{glob:?}: {err}"))?;
    }
    builder.build().map(Some).map_err(|err| err.to_string())
}

/// The part of `text` a rule looks at for a keyword at `start..end`: its
/// line (at most [`LINE_REACH`] bytes each way), or for a multi-line rule
/// from the line's start to [`BLOCK_REACH`] bytes on.
fn window(text: &str, start: usize, end: usize, multiline: bool) -> (usize, usize) {
    let bytes = text.as_bytes();
    let low = start.saturating_sub(LINE_REACH);
    let line_start = bytes[low..start].iter().rposition(|&b| b == b'\n').map_or(low, |i| low + i + 1);
    let line_end = if multiline {
        text.len().min(end + BLOCK_REACH)
    } else {
        let high = text.len().min(end + LINE_REACH);
        bytes[end..high].iter().position(|&b| b == b'\n').map_or(high, |i| end + i)
    };
    (floor_char_boundary(text, line_start), floor_char_boundary(text, line_end))
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random-looking string of `len` characters of `alphabet` (a fixed
    /// sequence per `seed`), so this file holds no token a scan would flag.
    pub(crate) fn fake(alphabet: &str, len: usize, seed: u64) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (0..len)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                chars[(state >> 33) as usize % chars.len()]
            })
            .collect()
    }

    pub(crate) const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const HEX: &str = "0123456789abcdef";
    const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    fn check(text: &str, rule: &str, secret: &str) {
        let findings = Detector::builtin().find(text);
        assert_eq!(findings.len(), 1, "{text:?}: {findings:?}");
        assert_eq!(findings[0].rule, rule, "{text:?}");
        assert_eq!(&text[findings[0].start..findings[0].end], secret, "{text:?}");
        let redacted = Detector::builtin().redact(text);
        assert!(!redacted.contains(secret), "{redacted}");
        assert!(redacted.contains(&format!("[REDACTED:{rule}]")), "{redacted}");
        // Redacting again changes nothing.
        assert_eq!(Detector::builtin().redact(&redacted), redacted);
    }

    fn clean(text: &str) {
        let findings = Detector::builtin().find(text);
        assert!(findings.is_empty(), "{text:?} is no secret: {findings:?}");
    }

    #[test]
    fn token_formats() {
        let gh = format!("gh{}_{}", "p", fake(ALNUM, 36, 1));
        check(&format!("GITHUB = \"{gh}\""), "github-token", &gh);
        let ghu = format!("gh{}_{}", "u", fake(ALNUM, 36, 2));
        check(&format!("token: {ghu}"), "github-token", &ghu);
        let aws = format!("AK{}{}", "IA", fake(UPPER, 16, 3));
        check(&format!("aws_access_key_id={aws}"), "aws-access-key-id", &aws);
        let openai = format!("sk-{}-{}", "proj", fake(ALNUM, 48, 4));
        check(&format!("OPENAI_API_KEY = \"{openai}\""), "openai-api-key", &openai);
        let anthropic = format!("sk-{}-api03-{}", "ant", fake(ALNUM, 90, 5));
        check(&format!("\"\"\"Call Claude with {anthropic}.\"\"\""), "anthropic-api-key", &anthropic);
        let stripe = format!("rk_{}_{}", "live", fake(ALNUM, 24, 6));
        check(&format!("stripe.api_key = '{stripe}'"), "stripe-key", &stripe);
        let slack = format!("https://hooks.{}.com/services/T0/B0/{}", "slack", fake(ALNUM, 24, 7));
        check(&format!("WEBHOOK = \"{slack}\""), "slack-webhook", &slack);
        let hf = format!("hf_{}", fake("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34, 8));
        check(&format!("login(token=\"{hf}\")"), "huggingface-token", &hf);
        let sendgrid = format!("S{}.{}.{}", "G", fake(ALNUM, 22, 9), fake(ALNUM, 43, 10));
        check(&format!("sg = SendGridAPIClient('{sendgrid}')"), "sendgrid-key", &sendgrid);
        let shopify = format!("shp{}_{}", "at", fake(HEX, 32, 11));
        check(&format!("X-Shopify-Access-Token: {shopify}"), "shopify-token", &shopify);
        let digitalocean = format!("do{}_v1_{}", "p", fake(HEX, 64, 12));
        check(&format!("DO = \"{digitalocean}\""), "digitalocean-token", &digitalocean);
        let twilio = format!("S{}{}", "K", fake(HEX, 32, 13));
        check(&format!("client = Client(\"{twilio}\", secret)"), "twilio-api-key", &twilio);
        let jwt = format!(
            "{}{}.{}{}.{}",
            "eyJ",
            fake(ALNUM, 20, 14),
            "eyJ",
            fake(ALNUM, 30, 15),
            fake(ALNUM, 30, 16)
        );
        check(&format!("assert decode(\"{jwt}\")"), "jwt", &jwt);
    }

    #[test]
    fn connection_strings_and_key_pairs() {
        let password = fake(ALNUM, 14, 20);
        check(
            &format!("DATABASE_URL=postgres://app:{password}@db.internal:5432/app"),
            "connection-string-password",
            &password,
        );
        check(
            &format!("REDIS = \"redis://:{password}@cache:6379/0\""),
            "connection-string-password",
            &password,
        );
        let account_key = format!("{}==", fake(ALNUM, 86, 21));
        let azure = format!(
            "DefaultEndpointsProtocol=https;AccountName=acct;{}={account_key};EndpointSuffix=core.windows.net",
            "AccountKey"
        );
        check(&azure, "azure-storage-key", &account_key);
        // A URL without a password, and templated ones, are not secrets.
        clean("see https://user@example.com/path and postgres://localhost:5432/db");
        clean("url = f\"postgres://{user}:${PASSWORD}@{host}/db\"");
    }

    #[test]
    fn private_keys_plain_and_escaped() {
        let body = fake(ALNUM, 64, 30);
        let begin = concat!("-----BEGIN RSA ", "PRIVATE KEY-----");
        let end = concat!("-----END RSA ", "PRIVATE KEY-----");
        let plain = format!("KEY = \"\"\"{begin}\n{body}\n{body}\n{end}\n\"\"\"\nx = 1\n");
        let findings = Detector::builtin().find(&plain);
        assert_eq!(findings.len(), 1, "{findings:?}");
        let redacted = Detector::builtin().redact(&plain);
        assert!(!redacted.contains(&body) && redacted.contains("x = 1"), "{redacted}");
        let escaped = format!("CREDS = '{{\"private_key\": \"{begin}\\\\n{body}\\\\n{end}\\\\n\"}}'");
        let redacted = Detector::builtin().redact(&escaped);
        assert!(!redacted.contains(&body), "{redacted}");
        assert!(redacted.starts_with("CREDS = '{\"private_key\": \"[REDACTED:private-key]"), "{redacted}");
        // A public certificate is not a secret.
        clean(&format!(
            "{}\n{body}\n{}\n",
            concat!("-----BEGIN ", "CERTIFICATE-----"),
            concat!("-----END ", "CERTIFICATE-----")
        ));
    }

    #[test]
    fn generic_assignments() {
        let value = fake(ALNUM, 32, 40);
        check(&format!("ACME_API_KEY = \"{value}\""), "secret-assignment", &value);
        check(&format!("const apiKey = '{value}';"), "secret-assignment", &value);
        check(&format!("{{\"clientSecret\": \"{value}\"}}"), "secret-assignment", &value);
        check(&format!("pub const SECRET: &str = \"{value}\";"), "secret-assignment", &value);
        check(&format!("export SERVICE_TOKEN={value}"), "secret-assignment", &value);
        check("PASSWORD = \"Tr0ub4dor&3x\"", "secret-assignment", "Tr0ub4dor&3x");
        check("db:\n  password: s3cr3t-pw-2024\n", "secret-assignment", "s3cr3t-pw-2024");
        check(concat!("The admin password is hunt", "er2, do not share."), "secret-assignment", "hunter2");
    }

    #[test]
    fn code_and_data_that_are_not_secrets() {
        for text in [
            "API_KEY = os.environ[\"API_KEY\"]",
            "token = get_token(request)",
            "SECRET_KEY = settings.SECRET_KEY",
            "password = None",
            "password_hash = \"5f4dcc3b5aa765d61d8327deb882cf99\"",
            "cache_key = f\"{prefix}:{name}\"",
            "sort_key = \"last_modified\"",
            "TOKEN_TYPE = \"Bearer\"",
            "SECRET_KEY = 'development key'",
            "AWS keys start with AKIA and are 20 characters long",
            "aws_key = \"AKIAIOSFODNN7EXAMPLE\"",
            "api_key = \"your-api-key-here\"",
            "password: ${DB_PASSWORD}",
            "token = \"<token>\"",
            "uuid = \"123e4567-e89b-12d3-a456-426614174000\"",
            "sha256 = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"",
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.",
            "def get_private_key_from_environment_variable(self, name): ...",
            "the ghp_ prefix marks github tokens; sk_live_ marks stripe's",
            "msg.append(key); key-value pairs; SKIP_TASK_KEYWORDS",
            "password = \"password\"",
            "/** Password secret string or buffer.*/\ntype Password = Uint8Array | string;",
            "export type ApiToken = Base64String;",
            "The password is required and the key is optional.",
            "\"NextToken\": \"eyJDdXN0b21lckFjY291bnRJZCI6IjI3MDIwNTQwMjg0NSJ9\"",
            "\"ChangeToken\": \"abcd12f2-46da-4fdb-b8d5-fbd4c466928f\"",
            "\"AWS::KMS::Key\": \"2b447c471bc70388\",",
            "\"encryptionKey\": \"arn:aws:kms:us-west-2:123456789012:alias/aws/s3\"",
            "\"key\": \"CVSS2_VECTOR\",",
            "url = \"http://User:Pass@www.python.org:080/doc/\"",
            "\"Password\": \"SomeKindOfPassword123!@#\"",
            "INCORRECT_PASSWD = \"Incorrect\"",
            "PASSWD = 'testPass'",
            "\"nextForwardToken\": \"f/31961209122447488583055879464742346735121166569214640130\",",
            "password = \"[REDACTED:secret-assignment]\"",
            "key: Utf8SuffixKey,",
            "let key = Utf8SuffixKey {",
            "const API_KEY = \"ServiceClientFactory2\";",
            "url = \"postgres://app:{password}@db.internal/app\"",
            "/// The first line: `-----BEGIN ENCRYPTED PRIVATE KEY-----` and its kin",
        ] {
            clean(text);
        }
    }

    #[test]
    fn allow_lists() {
        let value = fake(ALNUM, 32, 50);
        let text = format!("ACME_API_KEY = \"{value}\"");
        let config = SecretsConfig {
            allow_fingerprints: vec![fingerprint(&value)],
            allow_paths: vec!["tests/fixtures/".into()],
            ..Default::default()
        };
        assert_eq!(config.problem(), None);
        let detector = Detector::new(&config);
        assert!(detector.find(&text).is_empty());
        assert!(detector.allows_path("tests/fixtures/keys.py"));
        assert!(!detector.allows_path("src/keys.py"));
        let other = fake(ALNUM, 32, 51);
        let text = format!("ACME_API_KEY = \"{other}\"");
        assert_eq!(detector.redact_in("tests/fixtures/keys.py", &text), text);
        assert_ne!(detector.redact_in("src/keys.py", &text), text);
        assert_ne!(detector.digest(), Detector::builtin().digest());
    }

    #[test]
    fn configured_rules_are_used_and_checked() {
        let rule = RuleSpec {
            id: "acme-token".into(),
            description: "ACME token".into(),
            regex: "acme_[a-z0-9]{20}".into(),
            keywords: vec!["acme_".into()],
            case_sensitive_keywords: false,
            entropy: None,
            multiline: false,
            assignment: false,
            word_placeholders: false,
        };
        let config = SecretsConfig { rules: vec![rule], ..Default::default() };
        assert_eq!(config.problem(), None);
        let text = format!("call(acme_{})", fake("abcdefghij0123456789", 20, 60));
        assert_eq!(Detector::new(&config).redact(&text), "call([REDACTED:acme-token])");
        let bad = SecretsConfig { allow_fingerprints: vec!["xyz".into()], ..Default::default() };
        assert!(bad.problem().unwrap().contains("allow_fingerprints"));
    }

    #[test]
    fn long_and_repetitive_text_stays_linear() {
        // Every line holds keywords; each line is looked at once per rule.
        let line = "key = token; secret(key) pass://x sig= eyJ AKIA\n";
        let text = line.repeat(20_000);
        let started = std::time::Instant::now();
        assert!(Detector::builtin().find(&text).is_empty());
        // Generous: a quadratic scan of 1 MB would take minutes.
        assert!(started.elapsed().as_secs() < 20);
        // One huge line: windows are bounded.
        let long = format!("x{}", "key ".repeat(200_000));
        assert!(Detector::builtin().find(&long).is_empty());
    }
}
