//! The data of the prompt templates, with the seed's variable names:
//! `project.name`, `project.current_stage`, `currentArtifact.*` (its
//! `sections` with `is_done`, `title`, `slug`), `userMessage`,
//! `researchQuery`, `targetSection`; and ours: `targetSectionTitle`,
//! `targetContent` (the section's text, private notes withheld).

use serde::Serialize;

use super::agent::{PromptKind, PromptRequest};
use super::view::Loaded;
use super::{ArtifactView, ProjectView};

#[derive(Debug, Serialize)]
pub(crate) struct PromptData {
    project: PromptProject,
    #[serde(rename = "currentArtifact")]
    current_artifact: Option<PromptArtifact>,
    #[serde(rename = "userMessage")]
    user_message: Option<String>,
    #[serde(rename = "researchQuery")]
    research_query: Option<String>,
    #[serde(rename = "targetSection")]
    target_section: Option<String>,
    #[serde(rename = "targetSectionTitle")]
    target_section_title: Option<String>,
    #[serde(rename = "targetContent")]
    target_content: Option<String>,
}

#[derive(Debug, Serialize)]
struct PromptProject {
    name: String,
    description: String,
    current_stage: Option<String>,
}

#[derive(Debug, Serialize)]
struct PromptArtifact {
    name: String,
    slug: String,
    stage: String,
    status: super::ArtifactStatus,
    sections_complete: usize,
    sections_total: usize,
    sections: Vec<PromptSection>,
}

#[derive(Debug, Serialize)]
struct PromptSection {
    slug: String,
    title: String,
    level: u8,
    is_done: bool,
}

pub(crate) fn data(
    project: &ProjectView,
    artifact: Option<&(Loaded, ArtifactView)>,
    section: Option<&str>,
    request: &PromptRequest,
) -> PromptData {
    let current_artifact = artifact.map(|(_, view)| PromptArtifact {
        name: view.name.clone(),
        slug: view.slug.clone(),
        stage: view.stage.clone(),
        status: view.status,
        sections_complete: view.sections_complete,
        sections_total: view.sections_total,
        sections: view
            .sections
            .iter()
            .map(|s| PromptSection {
                slug: s.slug.clone(),
                title: super::private::without_comments(&s.title),
                level: s.level,
                is_done: s.is_done,
            })
            .collect(),
    });
    let mut target_section_title = None;
    let mut target_content = None;
    if let (Some((loaded, view)), Some(slug)) = (artifact, section)
        && let Some(index) = loaded.doc.sections.iter().position(|s| s.slug == slug)
    {
        target_section_title = view.sections.get(index).map(|s| super::private::without_comments(&s.title));
        let private = super::private::sections(&loaded.text, &loaded.doc);
        if !private.get(index).copied().unwrap_or(false) {
            let body = super::private::body_withheld(&loaded.text, &loaded.doc, index);
            target_content = Some(body.trim().to_string()).filter(|body| !body.is_empty());
        }
    }
    let (user_message, research_query) = match request.kind {
        PromptKind::Chat => (Some(request.text.clone()), None),
        PromptKind::Research => (None, Some(request.text.clone())),
    };
    PromptData {
        project: PromptProject {
            name: project.name.clone(),
            description: project.description.clone(),
            current_stage: project.current_stage.clone(),
        },
        current_artifact,
        user_message,
        research_query,
        target_section: section.map(str::to_string),
        target_section_title,
        target_content,
    }
}
