//! Secret rules as data: the built-in set (`defaults/secret-rules.toml`) and the
//! ones `[secrets] rules` adds. A rule's regex is compiled the first time one
//! of its keywords is seen, so a process that redacts a few lines compiles a
//! few regexes.

use std::sync::OnceLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// The built-in rules, as shipped.
pub const BUILTIN_RULES_TOML: &str = include_str!("../../defaults/secret-rules.toml");

/// The longest regex a rule may have once compiled (the `regex` crate's size
/// limit): a user rule cannot make every redaction slow.
const REGEX_SIZE_LIMIT: usize = 4 << 20;

/// One rule, as written in `defaults/secret-rules.toml` or `[[secrets.rules]]`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// Lower-case words and dashes; shown as `[REDACTED:<id>]`.
    pub id: String,
    #[serde(default)]
    pub description: String,
    /// Rust `regex` syntax. The secret is the group named `secret`, else the whole match.
    pub regex: String,
    /// The rule runs only on lines holding one of these (at least one).
    pub keywords: Vec<String>,
    /// Keywords match case-insensitively unless this is set.
    #[serde(default)]
    pub case_sensitive_keywords: bool,
    /// The least Shannon entropy (bits per character) of a secret.
    #[serde(default)]
    pub entropy: Option<f64>,
    /// The secret may span lines: the rule looks past the keyword's line.
    #[serde(default)]
    pub multiline: bool,
    /// The generic `NAME = "value"` check: groups `name` and `dq`/`sq`/`bq`/`bare`.
    #[serde(default)]
    pub assignment: bool,
    /// Values people write (a password in a URL): words such as `password`,
    /// `test`, `mock` in them make them placeholders. Always so for `assignment`.
    #[serde(default)]
    pub word_placeholders: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    rule: Vec<RuleSpec>,
}

/// The built-in rules, parsed once per process.
pub(crate) fn builtin() -> &'static [RuleSpec] {
    static RULES: OnceLock<Vec<RuleSpec>> = OnceLock::new();
    RULES.get_or_init(|| {
        // The file ships inside the binary and a test parses it: it cannot fail here.
        toml::from_str::<RulesFile>(BUILTIN_RULES_TOML).map(|file| file.rule).unwrap_or_default()
    })
}

impl RuleSpec {
    /// Why this rule cannot be used, if it cannot.
    pub(crate) fn problem(&self) -> Option<String> {
        let id_ok = !self.id.is_empty()
            && self.id.len() <= 64
            && self.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !id_ok {
            return Some(format!("rule id {:?} must be lower-case letters, digits and dashes", self.id));
        }
        if self.keywords.is_empty() || self.keywords.iter().any(|k| k.trim().is_empty()) {
            return Some(format!("rule {}: needs at least one keyword, none empty", self.id));
        }
        if let Some(entropy) = self.entropy
            && !(0.0..=8.0).contains(&entropy)
        {
            return Some(format!("rule {}: entropy must be between 0 and 8 bits a character", self.id));
        }
        match compile(&self.regex) {
            Ok(_) => None,
            Err(err) => Some(format!("rule {}: {}", self.id, err.lines().last().unwrap_or(&err))),
        }
    }
}

pub(crate) fn compile(pattern: &str) -> Result<Regex, String> {
    regex::RegexBuilder::new(pattern).size_limit(REGEX_SIZE_LIMIT).build().map_err(|err| err.to_string())
}

/// A rule and its regex, compiled on first use.
#[derive(Debug)]
pub(crate) struct Rule {
    pub spec: RuleSpec,
    regex: OnceLock<Option<Regex>>,
}

impl Rule {
    pub fn new(spec: RuleSpec) -> Rule {
        Rule { spec, regex: OnceLock::new() }
    }

    /// The compiled regex; `None` for a pattern that does not compile (the
    /// configuration's rules are checked when it is loaded, the built-in
    /// ones by a test, so this does not happen).
    pub fn regex(&self) -> Option<&Regex> {
        self.regex.get_or_init(|| compile(&self.spec.regex).ok()).as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_rules_parse_compile_and_have_unique_ids() {
        let parsed: RulesFile = toml::from_str(BUILTIN_RULES_TOML).unwrap();
        assert!(parsed.rule.len() >= 40, "{} rules", parsed.rule.len());
        let mut ids = std::collections::BTreeSet::new();
        for rule in &parsed.rule {
            assert_eq!(rule.problem(), None);
            assert!(ids.insert(rule.id.clone()), "duplicate rule id {}", rule.id);
            assert!(!rule.description.is_empty(), "{} has no description", rule.id);
            if !rule.case_sensitive_keywords {
                for keyword in &rule.keywords {
                    assert_eq!(
                        keyword,
                        &keyword.to_lowercase(),
                        "{}: case-insensitive keywords are lower-case",
                        rule.id
                    );
                }
            }
        }
        assert_eq!(builtin().len(), parsed.rule.len());
    }

    #[test]
    fn bad_rules_say_why() {
        let rule = |id: &str, regex: &str, keywords: &[&str]| RuleSpec {
            id: id.into(),
            description: String::new(),
            regex: regex.into(),
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
            case_sensitive_keywords: false,
            entropy: None,
            multiline: false,
            assignment: false,
            word_placeholders: false,
        };
        assert!(rule("Bad Id", "x", &["x"]).problem().unwrap().contains("lower-case"));
        assert!(rule("ok", "x", &[]).problem().unwrap().contains("keyword"));
        assert!(rule("ok", "(", &["x"]).problem().unwrap().starts_with("rule ok: "));
        assert_eq!(rule("acme-token", "acme_[a-z0-9]{32}", &["acme_"]).problem(), None);
    }
}
