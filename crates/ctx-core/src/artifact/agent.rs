//! What an agent asks of the artifacts: the current artifact (`ctx artifact
//! use`), what a message targets, the context at a level, and the prompts
//! (chat, research) rendered from templates.

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use super::context::{self, AgentContext, ContextRequest, Inputs, MessageContext, Source};
use super::target::{self, ArtifactRef, Missing, Resolution, SectionRef};
use super::view::{self, Loaded};
use super::{ArtifactError, ArtifactView, TargetCandidate, ViewOptions};
use crate::config::ArtifactsConfig;
use crate::error::{Error, Result};
use crate::store::{kv_get, kv_set};
use crate::templates::Templates;
use crate::workspace::{TEMPLATES_DIR, Workspace};

/// Where the current artifact's slug is kept (local state).
const CURRENT_KEY: &str = "artifact.current";
/// The template of a context in Markdown.
pub(crate) const CONTEXT_TEMPLATE: &str = "artifact-context.md.hbs";
/// The chat prompt's template.
pub(crate) const CHAT_TEMPLATE: &str = "artifact-chat.md.hbs";
/// The research prompt's template.
pub(crate) const RESEARCH_TEMPLATE: &str = "artifact-research.md.hbs";
/// How many turns the chat history reads at most before budgeting.
const CHAT_TURNS: usize = 200;

/// Which prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// The seed's Basic Chat prompt: the project, the artifact's sections, the message.
    Chat,
    /// The seed's Research Agent prompt: a query, the section to update, the operation to answer with.
    Research,
}

/// What prompt to render.
#[derive(Debug, Clone)]
pub struct PromptRequest {
    pub kind: PromptKind,
    /// The artifact; default: the text's target, else `ctx artifact use`'s.
    pub slug: Option<String>,
    /// The user's message (chat) or the research query.
    pub text: String,
    /// The target section (research); default: the query's target.
    pub section: Option<String>,
}

/// A rendered prompt. Stable JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArtifactPrompt {
    /// `chat` or `research`.
    pub kind: String,
    pub text: String,
    /// Tokens of `text` (the workspace's tokenizer).
    pub tokens: usize,
    pub artifact: Option<String>,
    pub section: Option<String>,
    /// The artifact's state hash (`ctx artifact check`).
    pub state_hash: Option<String>,
    pub generated_at: String,
    /// What the text targets.
    pub target: Option<Resolution>,
}

/// Every artifact, loaded and viewed.
fn load_all(
    conn: &Connection,
    root: &std::path::Path,
    config: &ArtifactsConfig,
) -> Result<Vec<(Loaded, ArtifactView)>> {
    let mut all = Vec::new();
    for row in super::state::all(conn)? {
        let loaded = view::load(conn, root, row)?;
        let view = view::view(conn, &loaded, &ViewOptions::default(), config)?;
        all.push((loaded, view));
    }
    Ok(all)
}

/// The artifacts as targeting sees them: title = the first level-1 heading, else the file's name.
fn refs(all: &[(Loaded, ArtifactView)]) -> Vec<ArtifactRef<'_>> {
    all.iter()
        .map(|(loaded, view)| ArtifactRef {
            slug: &view.slug,
            title: loaded
                .doc
                .sections
                .iter()
                .find(|s| s.level == 1)
                .map_or_else(|| view.name.trim_end_matches(".md"), |s| s.title.as_str()),
            path: &view.path,
            sections: loaded
                .doc
                .sections
                .iter()
                .map(|s| SectionRef { slug: &s.slug, title: &s.title })
                .collect(),
        })
        .collect()
}

/// The current artifact, if it still exists.
fn current(conn: &Connection, all: &[(Loaded, ArtifactView)]) -> Result<Option<String>> {
    let slug = kv_get(conn, CURRENT_KEY)?.filter(|slug| !slug.is_empty());
    Ok(slug.filter(|slug| all.iter().any(|(_, view)| &view.slug == slug)))
}

/// The seed's error for an unresolved target (`None` when it resolved).
pub fn resolution_error(text: &str, resolution: &Resolution) -> Option<ArtifactError> {
    match resolution {
        Resolution::Resolved(_) => None,
        Resolution::Ambiguous(ambiguity) => {
            let candidates = ambiguity
                .candidates
                .iter()
                .map(|c| TargetCandidate {
                    artifact: c.artifact.clone(),
                    section: c.section.clone(),
                    title: c.title.clone(),
                })
                .collect();
            Some(ArtifactError::ambiguous(text.trim(), candidates))
        }
        Resolution::NotFound(not_found) => {
            let mut err = match (not_found.missing, &not_found.artifact) {
                (Missing::Artifact, _) => ArtifactError::artifact_not_found(&not_found.query, &[]),
                (Missing::Section, Some(artifact)) => {
                    ArtifactError::section_not_found(artifact, &not_found.query, &[])
                }
                (Missing::Section, None) => {
                    let mut err = ArtifactError::section_not_found("", &not_found.query, &[]);
                    err.message = format!("No section matches '{}'", not_found.query);
                    err
                }
            };
            err.suggestions = not_found.suggestion_slugs();
            Some(err)
        }
    }
}

impl Workspace {
    /// Make `slug` the current artifact (`None`: no current artifact); the slug set.
    pub fn use_artifact(&mut self, slug: Option<&str>) -> Result<Option<String>> {
        self.author_in(|conn, _| {
            if let Some(slug) = slug {
                view::row(conn, slug)?;
            }
            kv_set(conn, CURRENT_KEY, slug.unwrap_or_default())?;
            Ok(slug.map(str::to_string))
        })
    }

    /// The current artifact's slug (`ctx artifact use`), if it still exists.
    pub fn current_artifact(&mut self) -> Result<Option<String>> {
        self.author_in(|conn, site| current(conn, &load_all(conn, site.root, &site.config.artifacts)?))
    }

    /// What `text` targets among the artifacts, the current one first
    /// (see [`target::resolve`]): `current`, else the one `ctx artifact use`
    /// set. Unresolved is an outcome, not an error: [`resolution_error`]
    /// makes it the seed's error.
    pub fn resolve_artifact_target(&mut self, text: &str, current: Option<&str>) -> Result<Resolution> {
        self.author_in(|conn, site| {
            let all = load_all(conn, site.root, &site.config.artifacts)?;
            let current = match current {
                Some(slug) => Some(slug.to_string()),
                None => self::current(conn, &all)?,
            };
            Ok(target::resolve(text, &refs(&all), current.as_deref()))
        })
    }

    /// The agent context at `request.level` (see the `context` module).
    pub fn artifact_context(&mut self, request: &ContextRequest) -> Result<AgentContext> {
        let description = self.folder(".").map(|folder| folder.description).unwrap_or_default();
        let tok = self.config().build.tokenizer.get();
        let configured = self.config().artifacts.context;
        let allocation = match request.tokens {
            Some(0) => return Err(Error::InvalidInput("--tokens must be at least 1".into())),
            Some(total) => configured.scaled_to(total),
            None => configured,
        };
        self.author_in(|conn, site| {
            let all = load_all(conn, site.root, &site.config.artifacts)?;
            if let Some(slug) = &request.slug {
                view::row(conn, slug)?;
            }
            let used = current(conn, &all)?;
            let anchor = request.slug.clone().or_else(|| used.clone());
            let target =
                request.message.as_deref().map(|text| target::resolve(text, &refs(&all), anchor.as_deref()));
            let resolved = match &target {
                Some(Resolution::Resolved(found)) => Some((found.artifact.clone(), found.section.clone())),
                _ => None,
            };
            // Without an explicit artifact, the message's target is the current one.
            let current_slug =
                request.slug.clone().or_else(|| resolved.as_ref().map(|(a, _)| a.clone())).or(used);
            let index = |slug: &str| all.iter().position(|(_, view)| view.slug == slug);
            let current_index = current_slug.as_deref().and_then(index);
            let mut referenced = Vec::new();
            match current_index {
                Some(i) => {
                    for section in &request.sections {
                        all[i].0.section(section)?;
                        referenced.push(section.clone());
                    }
                }
                None if !request.sections.is_empty() => {
                    return Err(ArtifactError::invalid(
                        "--section needs an artifact: give SLUG or `ctx artifact use SLUG`",
                    )
                    .into());
                }
                None => {}
            }
            let mut related = Vec::new();
            if let Some((artifact, section)) = &resolved {
                match index(artifact) {
                    Some(i) if Some(i) == current_index => referenced.extend(section.clone()),
                    Some(i) => related.push((i, "referenced", section.clone())),
                    None => {}
                }
            }
            if let Some(i) = current_index {
                for (j, relation) in neighbours(&all, i) {
                    if !related.iter().any(|(k, _, _)| *k == j) {
                        related.push((j, relation, None));
                    }
                }
            }
            let views: Vec<ArtifactView> = all.iter().map(|(_, view)| view.clone()).collect();
            let project = view::project(site.root, description, &views, &site.config.artifacts);
            let (chat_session, chat) = chat(conn, request.session.as_deref())?;
            let source = |i: usize| Source { loaded: &all[i].0, view: &all[i].1 };
            let inputs = Inputs {
                project: &project,
                current: current_index.map(source),
                referenced,
                related: related
                    .into_iter()
                    .map(|(i, relation, section)| (source(i), relation, section))
                    .collect(),
                chat,
                chat_session,
                target,
            };
            context::build(inputs, request.level, allocation, tok)
        })
    }

    /// `context` in Markdown (template `artifact-context.md.hbs`, overridable in `.ctx/templates/`).
    pub fn render_artifact_context(&self, context: &AgentContext) -> Result<String> {
        let templates = Templates::load(&self.ctx_dir().join(TEMPLATES_DIR), &[CONTEXT_TEMPLATE])?;
        templates.render(CONTEXT_TEMPLATE, context)
    }

    /// The chat or research prompt (templates `artifact-chat.md.hbs`,
    /// `artifact-research.md.hbs`, overridable in `.ctx/templates/`).
    pub fn artifact_prompt(&mut self, request: &PromptRequest) -> Result<ArtifactPrompt> {
        let tok = self.config().build.tokenizer.get();
        let templates_dir = self.ctx_dir().join(TEMPLATES_DIR);
        let description = self.folder(".").map(|folder| folder.description).unwrap_or_default();
        let (data, artifact, section, state_hash, target) = self.author_in(|conn, site| {
            let all = load_all(conn, site.root, &site.config.artifacts)?;
            if let Some(slug) = &request.slug {
                view::row(conn, slug)?;
            }
            let used = current(conn, &all)?;
            let anchor = request.slug.clone().or_else(|| used.clone());
            let resolution = target::resolve(&request.text, &refs(&all), anchor.as_deref());
            let resolved = match &resolution {
                Resolution::Resolved(found) => Some((found.artifact.clone(), found.section.clone())),
                _ => None,
            };
            let slug = request.slug.clone().or_else(|| resolved.as_ref().map(|(a, _)| a.clone())).or(used);
            let entry = slug.as_deref().and_then(|slug| all.iter().find(|(_, view)| view.slug == slug));
            let section = match (&request.section, entry, &resolved) {
                (Some(section), Some((loaded, _)), _) => {
                    loaded.section(section)?;
                    Some(section.clone())
                }
                (Some(_), None, _) => {
                    return Err(ArtifactError::invalid(
                        "--section needs an artifact: give SLUG or `ctx artifact use SLUG`",
                    )
                    .into());
                }
                (None, Some((_, view)), Some((artifact, section))) if *artifact == view.slug => {
                    section.clone()
                }
                _ => None,
            };
            if request.kind == PromptKind::Research && section.is_none() {
                let err = resolution_error(&request.text, &resolution).unwrap_or_else(|| {
                    let known: Vec<String> = entry.map(|(loaded, _)| loaded.slugs()).unwrap_or_default();
                    let mut err =
                        ArtifactError::section_not_found(slug.as_deref().unwrap_or(""), &request.text, &[]);
                    err.message = "The research query names no section: give --section".into();
                    err.suggestions = known.into_iter().take(5).collect();
                    err
                });
                return Err(err.into());
            }
            let views: Vec<ArtifactView> = all.iter().map(|(_, view)| view.clone()).collect();
            let project = view::project(site.root, description, &views, &site.config.artifacts);
            let data = super::prompt::data(&project, entry, section.as_deref(), request);
            Ok((
                data,
                entry.map(|(_, v)| v.slug.clone()),
                section,
                entry.map(|(_, v)| v.state_hash.clone()),
                resolution,
            ))
        })?;
        let (kind, name) = match request.kind {
            PromptKind::Chat => ("chat", CHAT_TEMPLATE),
            PromptKind::Research => ("research", RESEARCH_TEMPLATE),
        };
        let text = Templates::load(&templates_dir, &[name])?.render(name, &data)?;
        Ok(ArtifactPrompt {
            kind: kind.into(),
            tokens: tok.count(&text),
            text,
            artifact,
            section,
            state_hash,
            generated_at: crate::time::now_iso(),
            target: Some(target),
        })
    }
}

/// The artifacts related to artifact `i`: those it links to (their path,
/// file name or `@slug` appears in it), then the others of its stage.
fn neighbours(all: &[(Loaded, ArtifactView)], i: usize) -> Vec<(usize, &'static str)> {
    let (loaded, current) = &all[i];
    let text = &loaded.text;
    let mut linked = Vec::new();
    let mut same_stage = Vec::new();
    for (j, (_, other)) in all.iter().enumerate() {
        if j == i {
            continue;
        }
        if text.contains(&other.path)
            || text.contains(&other.name)
            || text.contains(&format!("@{}", other.slug))
        {
            linked.push((j, "linked"));
        } else if other.stage == current.stage {
            same_stage.push((j, "same_stage"));
        }
    }
    linked.extend(same_stage);
    linked
}

/// The session's turns, newest first: `session`, else the latest session with turns.
fn chat(conn: &Connection, session: Option<&str>) -> Result<(Option<String>, Vec<MessageContext>)> {
    let session = match session {
        Some(session) => Some(session.to_string()),
        None => conn
            .query_row(
                "SELECT session_id FROM records WHERE type IN ('query', 'response') AND session_id IS NOT NULL
                 ORDER BY ts DESC, id DESC LIMIT 1",
                [],
                |row| row.get::<_, String>(0),
            )
            .optional()?,
    };
    let mut statement = conn.prepare_cached(
        "SELECT uid, type, role, body, ts, session_id FROM records
         WHERE type IN ('query', 'response') AND (?1 IS NULL OR session_id = ?1)
           AND instr(' ' || tags || ' ', ' subagent ') = 0
         ORDER BY ts DESC, id DESC LIMIT ?2",
    )?;
    let rows = statement.query_map(rusqlite::params![session, CHAT_TURNS as i64], |row| {
        Ok(MessageContext {
            id: row.get(0)?,
            record_type: row.get(1)?,
            role: row.get(2)?,
            content: row.get(3)?,
            ts: row.get(4)?,
            session_id: row.get(5)?,
            truncated: false,
        })
    })?;
    let turns = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    Ok((session, turns))
}
