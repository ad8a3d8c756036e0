//! `.ctx/config.toml`: the workspace's settings.
//!
//! Precedence, highest first:
//! 1. for the token budget only, `CTX_TOKEN_BUDGET_*` environment variables
//!    (see [`crate::Budget::resolve`]);
//! 2. `.ctx/config.toml` in the workspace;
//! 3. the built-in defaults, which are the file [`DEFAULT_CONFIG_TOML`] that
//!    `ctx init` writes (every key commented with its default).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::secrets::SecretsConfig;
use crate::tokens::TokenizerKind;

/// The commented default configuration that `ctx init` writes.
pub const DEFAULT_CONFIG_TOML: &str = include_str!("../defaults/config.toml");

/// The workspace configuration. Unknown keys are an error, so a typo never
/// silently falls back to a default.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub scan: ScanConfig,
    pub build: BuildConfig,
    pub budget: BudgetConfig,
    pub selection: SelectionConfig,
    pub cache: CacheConfig,
    pub pack: PackConfig,
    pub memory: MemoryConfig,
    pub secrets: SecretsConfig,
    pub agents: AgentsConfig,
    pub hooks: HooksConfig,
    pub artifacts: ArtifactsConfig,
}

/// `[artifacts]`: planning documents and their project view (docs/artifacts.md).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ArtifactsConfig {
    /// The project's name in `ctx artifact project`. Default: empty, the root folder's name.
    pub project_name: String,
    /// The project's description. Default: empty, the root folder's description (`ctx folder describe .`).
    pub project_description: String,
    /// The stages, in order; an artifact may name another (it comes after these).
    /// Default: discovery, design, build, launch.
    pub stages: Vec<String>,
    /// The stage of an artifact added without `--stage`. Default: the first of `stages`.
    pub default_stage: String,
    /// How old (seconds) a view an agent holds may be before `ctx artifact check`
    /// calls it stale. Default: 300.
    pub max_age_seconds: u64,
    /// An artifact's full content is refused (CONTEXT_TOO_LARGE) past this many bytes;
    /// its sections can still be read one by one. Default: 200000.
    pub max_content_bytes: usize,
    /// `[artifacts.context]`: the token allocation of `ctx artifact context`.
    pub context: ContextAllocation,
}

/// `[artifacts.context]`: how many tokens each part of an agent context may
/// take (`ctx artifact context`). The defaults are the ACK seed's table for
/// a 200k window; the system prompt, the answer and the reserve of that
/// table are the model's, not ctx's to fill. `--tokens N` scales every share
/// by N / their sum.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ContextAllocation {
    /// Project name, stage, description and stage progress. Default: 1000.
    pub project: usize,
    /// The current artifact: section list, previews, referenced sections, content. Default: 10000.
    pub current_artifact: usize,
    /// Summaries of related artifacts. Default: 5000.
    pub related_artifacts: usize,
    /// Recent chat turns of the session. Default: 20000.
    pub chat_history: usize,
}

impl Default for ContextAllocation {
    fn default() -> Self {
        ContextAllocation {
            project: 1000,
            current_artifact: 10_000,
            related_artifacts: 5000,
            chat_history: 20_000,
        }
    }
}

impl ContextAllocation {
    /// Every share together (at most `usize::MAX`: shares as large as TOML
    /// allows do not overflow).
    pub fn total(&self) -> usize {
        [self.current_artifact, self.related_artifacts, self.chat_history]
            .into_iter()
            .fold(self.project, usize::saturating_add)
    }

    /// The shares scaled so that they add up to (about) `total`.
    pub fn scaled_to(&self, total: usize) -> ContextAllocation {
        let shares = [self.project, self.current_artifact, self.related_artifacts, self.chat_history];
        let sum = shares.iter().map(|&share| share as u128).sum::<u128>().max(1);
        let scale = |share: usize| ((share as u128 * total as u128) / sum) as usize;
        ContextAllocation {
            project: scale(self.project),
            current_artifact: scale(self.current_artifact),
            related_artifacts: scale(self.related_artifacts),
            chat_history: scale(self.chat_history),
        }
    }
}

impl Default for ArtifactsConfig {
    fn default() -> Self {
        ArtifactsConfig {
            project_name: String::new(),
            project_description: String::new(),
            stages: ["discovery", "design", "build", "launch"].map(String::from).to_vec(),
            default_stage: String::new(),
            max_age_seconds: 300,
            max_content_bytes: 200_000,
            context: ContextAllocation::default(),
        }
    }
}

impl ArtifactsConfig {
    /// The stage of an artifact that names none.
    pub fn default_stage(&self) -> &str {
        if !self.default_stage.is_empty() {
            return &self.default_stage;
        }
        self.stages.first().map_or("discovery", String::as_str)
    }
}

/// `[agents]`: the files whose ctx section `ctx init` and `ctx update` keep
/// (docs/agents.md).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AgentsConfig {
    /// Paths relative to the root. A file named CLAUDE.md gets the Claude
    /// Code section, the others the vendor-neutral one. Default: AGENTS.md,
    /// CLAUDE.md; empty: none.
    pub files: Vec<String>,
}

impl Default for AgentsConfig {
    fn default() -> Self {
        AgentsConfig { files: vec!["AGENTS.md".into(), "CLAUDE.md".into()] }
    }
}

/// `[hooks]`: what `ctx hook EVENT` injects into a Claude Code session and
/// ingests from its transcript (docs/hooks.md).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct HooksConfig {
    /// Past this many milliseconds a hook gives up: nothing injected, exit 0. Default: 2000.
    pub timeout_ms: u64,
    pub session_start: SessionStartHook,
    pub user_prompt_submit: UserPromptHook,
    /// Which events ingest the session's transcript (all, by default).
    pub ingest: IngestHooks,
}

impl Default for HooksConfig {
    fn default() -> Self {
        HooksConfig {
            timeout_ms: 2000,
            session_start: SessionStartHook::default(),
            user_prompt_submit: UserPromptHook::default(),
            ingest: IngestHooks::default(),
        }
    }
}

/// What a hook can inject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Inject {
    /// `.ctx/boot.md` (or a short version of it when the cap is tight).
    Boot,
    /// The context file of the folder the session works in (minimal tier).
    Folder,
    /// The L1 pack (pins, summary, manifest, last search, recent turns).
    Pack,
    /// The files `ctx rank` finds for the prompt.
    Rank,
    /// Session records `ctx search` finds for the prompt.
    Memory,
}

/// `[hooks.session_start]`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct SessionStartHook {
    /// Any of `boot`, `folder`, `pack`, in the order shown. Default: all three.
    pub inject: Vec<Inject>,
    /// The cap, in tokens. Default: 2000.
    pub tokens: usize,
}

impl Default for SessionStartHook {
    fn default() -> Self {
        SessionStartHook { inject: vec![Inject::Boot, Inject::Folder, Inject::Pack], tokens: 2000 }
    }
}

/// `[hooks.user_prompt_submit]`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct UserPromptHook {
    /// Any of `rank`, `memory`, `pack` (the contract's per-turn pack,
    /// `autoInject`), in the order shown. Default: rank, memory.
    pub inject: Vec<Inject>,
    /// The cap, in tokens. Default: 600.
    pub tokens: usize,
    /// Distinct words of the prompt some file's path and names must share
    /// with it for the prompt to be about the code (then rank's first files
    /// are shown), and a record's summary for the record to be shown (fewer
    /// when the prompt has fewer). Default: 2.
    pub min_terms: usize,
    /// Shown only what scores at least this share of the best. Default: 0.5.
    pub min_score: f64,
    /// At most this many files and this many records. Default: 5, 3.
    pub files: usize,
    pub records: usize,
}

impl Default for UserPromptHook {
    fn default() -> Self {
        UserPromptHook {
            inject: vec![Inject::Rank, Inject::Memory],
            tokens: 600,
            min_terms: 2,
            min_score: 0.5,
            files: 5,
            records: 3,
        }
    }
}

/// `[hooks.ingest]`: whether each event ingests the new lines of the transcript.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct IngestHooks {
    pub pre_compact: bool,
    pub stop: bool,
    pub session_end: bool,
    /// At a session start, read what earlier sessions' transcripts (in the
    /// same folder) gained after their last hook ran.
    pub session_start: bool,
}

impl Default for IngestHooks {
    fn default() -> Self {
        IngestHooks { pre_compact: true, stop: true, session_end: true, session_start: true }
    }
}

/// `[memory]`: session memory.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryConfig {
    /// The embedder of the vector channel of `ctx search` (`vector`,
    /// `hybrid`): `builtin` (default; hashed n-grams, no model, see
    /// `HashedNgrams`) or `none` (records are not embedded; vector and
    /// hybrid searches are served lexically and say why).
    pub embedder: EmbedderChoice,
}

/// `[memory] embedder`.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum EmbedderChoice {
    #[default]
    Builtin,
    None,
}

/// `[pack]`: the L1 pack (`ctx pack`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct PackConfig {
    /// The threshold, in tokens. Default: 1000.
    pub tokens: usize,
    /// Default: `<<<CONTEXTFS:BEGIN>>>` (the contract's).
    pub delimiter_start: String,
    /// Default: `<<<CONTEXTFS:END>>>`.
    pub delimiter_end: String,
}

impl Default for PackConfig {
    fn default() -> Self {
        PackConfig {
            tokens: 1000,
            delimiter_start: crate::memory::pack::DEFAULT_START.into(),
            delimiter_end: crate::memory::pack::DEFAULT_END.into(),
        }
    }
}

/// `[budget]`: the token budget of assembled work context (`ctx frame
/// context`, `ctx task prompt`). `None`: the default, see [`crate::Budget`].
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct BudgetConfig {
    pub total: Option<u64>,
    pub ancestors: Option<u64>,
    pub siblings: Option<u64>,
    pub current: Option<u64>,
    pub overhead: Option<u64>,
}

/// `[selection]`: how ancestors and siblings are chosen.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct SelectionConfig {
    /// Completed siblings scoring below this are filtered out of a frame's
    /// context as irrelevant. Default: 30.
    pub min_sibling_score: f64,
}

impl Default for SelectionConfig {
    fn default() -> Self {
        SelectionConfig { min_sibling_score: 30.0 }
    }
}

/// `[cache]`: the cache of assembled context.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CacheConfig {
    /// How long an entry is served, in seconds; 0 turns the cache off. Default: 30.
    pub ttl_seconds: u64,
    /// Past this many entries, the least recently used are evicted down to
    /// `evict_to`. Default: 50.
    pub max_entries: usize,
    /// How many entries stay after an eviction. Default: 25.
    pub evict_to: usize,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig { ttl_seconds: 30, max_entries: 50, evict_to: 25 }
    }
}

/// `[build]`: how context files are made.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct BuildConfig {
    /// What tier caps are counted in: `o200k` (exact, default) or `estimate`
    /// (four characters a token).
    pub tokenizer: TokenizerKind,
}

/// `[scan]`: what the scanner walks and reads.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ScanConfig {
    /// gitignore-style globs, relative to the root, of paths to leave out. Default: none.
    pub exclude: Vec<String>,
    /// Files larger than this are recorded but not read. Default: 1 MiB.
    pub max_file_bytes: u64,
    /// Scan hidden files and folders. Default: true.
    pub hidden: bool,
    /// Follow symbolic links. Default: false.
    pub follow_symlinks: bool,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig { exclude: Vec::new(), max_file_bytes: 1024 * 1024, hidden: true, follow_symlinks: false }
    }
}

impl HooksConfig {
    /// What is wrong with these settings, if anything.
    fn problem(&self) -> Option<String> {
        let (start, prompt) = (&self.session_start, &self.user_prompt_submit);
        let allowed = [
            ("session_start", &start.inject, [Inject::Boot, Inject::Folder, Inject::Pack]),
            ("user_prompt_submit", &prompt.inject, [Inject::Rank, Inject::Memory, Inject::Pack]),
        ];
        for (table, inject, allowed) in allowed {
            for (i, item) in inject.iter().enumerate() {
                if !allowed.contains(item) || inject[..i].contains(item) {
                    let names = allowed.map(|a| format!("{a:?}").to_lowercase()).join(", ");
                    return Some(format!(
                        "[hooks.{table}] inject: {} is not one of {names}, or is listed twice",
                        format!("{item:?}").to_lowercase()
                    ));
                }
            }
        }
        if self.timeout_ms == 0 || start.tokens == 0 || prompt.tokens == 0 {
            return Some("[hooks] timeout_ms and the tokens of each hook must be above 0".into());
        }
        if !(0.0..=1.0).contains(&prompt.min_score) {
            return Some("[hooks.user_prompt_submit] min_score must be between 0 and 1".into());
        }
        None
    }
}

impl Config {
    /// Parse a configuration file's text; `path` only names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        toml::from_str(text).map_err(|err| Error::Config {
            path: path.to_path_buf(),
            message: err.to_string().trim_end().replace('\n', " "),
        })
    }

    /// Settings that parse but cannot work together.
    fn checked(self, path: &Path) -> Result<Config> {
        let cache = &self.cache;
        if cache.max_entries == 0 || cache.evict_to > cache.max_entries {
            return Err(Error::Config {
                path: path.to_path_buf(),
                message: format!(
                    "[cache] max_entries ({}) must be above 0 and at least evict_to ({})",
                    cache.max_entries, cache.evict_to
                ),
            });
        }
        if let Some(message) = self.secrets.problem() {
            return Err(Error::Config { path: path.to_path_buf(), message });
        }
        if self.pack.tokens == 0 {
            return Err(Error::Config {
                path: path.to_path_buf(),
                message: "[pack] tokens must be above 0".into(),
            });
        }
        if !self.selection.min_sibling_score.is_finite() {
            return Err(Error::Config {
                path: path.to_path_buf(),
                message: "[selection] min_sibling_score must be a number".into(),
            });
        }
        if let Some(message) = self.hooks.problem() {
            return Err(Error::Config { path: path.to_path_buf(), message });
        }
        let files = &self.agents.files;
        for (i, file) in files.iter().enumerate() {
            let problem = if !crate::agents::valid_agent_path(file) {
                "must be a relative path inside the repository, outside .ctx/"
            } else if files[..i].contains(file) {
                "is listed twice"
            } else {
                continue;
            };
            return Err(Error::Config {
                path: path.to_path_buf(),
                message: format!("[agents] files: {file:?} {problem}"),
            });
        }
        Ok(self)
    }

    /// Read `path`, or the defaults when it does not exist.
    pub fn load(path: &Path) -> Result<Config> {
        match std::fs::read(path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|err| {
                    let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
                    let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
                    Error::Config {
                        path: path.to_path_buf(),
                        message: format!("line {line}: not UTF-8 text"),
                    }
                })?;
                Config::parse(&text, path)?.checked(path)
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(err) => Err(Error::io(path, err)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_is_the_defaults() {
        let parsed = Config::parse(DEFAULT_CONFIG_TOML, Path::new("config.toml")).unwrap();
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn values_override_defaults() {
        let text = "[scan]\nexclude = [\"vendor/**\"]\nmax_file_bytes = 10\n";
        let config = Config::parse(text, Path::new("c.toml")).unwrap();
        assert_eq!(config.scan.exclude, ["vendor/**"]);
        assert_eq!(config.scan.max_file_bytes, 10);
        assert!(config.scan.hidden);
        let config = Config::parse("[build]\ntokenizer = \"estimate\"\n", Path::new("c.toml")).unwrap();
        assert_eq!(config.build.tokenizer, TokenizerKind::Estimate);
        assert!(Config::parse("[build]\ntokenizer = \"gpt2\"\n", Path::new("c.toml")).is_err());
    }

    #[test]
    fn hooks_settings_are_checked() {
        let path = Path::new("c.toml");
        let text =
            "[hooks.user_prompt_submit]\ninject = [\"pack\"]\ntokens = 300\n[hooks.ingest]\nstop = false\n";
        let config = Config::parse(text, path).unwrap().checked(path).unwrap();
        assert_eq!(config.hooks.user_prompt_submit.inject, [Inject::Pack]);
        assert_eq!(config.hooks.user_prompt_submit.tokens, 300);
        assert!(!config.hooks.ingest.stop && config.hooks.ingest.session_end);
        for bad in [
            "[hooks.session_start]\ninject = [\"rank\"]\n",
            "[hooks.session_start]\ninject = [\"boot\", \"boot\"]\n",
            "[hooks.user_prompt_submit]\nmin_score = 2.0\n",
            "[hooks]\ntimeout_ms = 0\n",
        ] {
            let err = Config::parse(bad, path).unwrap().checked(path).unwrap_err().to_string();
            assert!(err.contains("[hooks"), "{bad}: {err}");
        }
        assert!(Config::parse("[hooks.session_start]\ninject = [\"bogus\"]\n", path).is_err());
    }

    #[test]
    fn cache_limits_are_checked() {
        let path = Path::new("c.toml");
        let bad = Config::parse("[cache]\nmax_entries = 10\nevict_to = 20\n", path).unwrap();
        assert!(bad.checked(path).unwrap_err().to_string().contains("evict_to"));
        let zero = Config::parse("[cache]\nmax_entries = 0\nevict_to = 0\n", path).unwrap();
        assert_eq!(zero.checked(path).unwrap_err().code(), "CONFIG_ERROR");
    }

    #[test]
    fn unknown_keys_and_bad_types_are_errors() {
        let err = Config::parse("[scan]\nexclud = []\n", Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains("exclud"), "{err}");
        let err = Config::parse("[scan]\nmax_file_bytes = \"big\"\n", Path::new("c.toml")).unwrap_err();
        assert_eq!(err.code(), "CONFIG_ERROR");
        assert!(err.to_string().starts_with("c.toml: "), "{err}");
    }

    #[test]
    fn agent_files_stay_inside_the_root_and_out_of_ctx() {
        let path = Path::new("c.toml");
        let check = |files: &str| Config::parse(&format!("[agents]\nfiles = {files}\n"), path)?.checked(path);
        assert_eq!(check("[]").unwrap().agents.files, Vec::<String>::new());
        let ok = check(r#"["AGENTS.md", ".github/copilot-instructions.md"]"#).unwrap();
        assert_eq!(ok.agents.files[1], ".github/copilot-instructions.md");
        for bad in [
            r#"["../x.md"]"#,
            r#"["/etc/x.md"]"#,
            r#"[".ctx/boot.md"]"#,
            r#"["a/../b.md"]"#,
            r#"[""]"#,
            r#"["A.md", "A.md"]"#,
        ] {
            let err = check(bad).unwrap_err();
            assert!(err.to_string().contains("[agents] files"), "{bad}: {err}");
        }
        assert!(Config::parse("[agents]\nfile = []\n", path).is_err());
    }
}
