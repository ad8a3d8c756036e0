//! The targeting table: phrasings over a small planning project, each with
//! the resolution it must get; and properties over arbitrary input.

use ctxkeep_core::artifact::target::{
    ArtifactRef, CONFIRM_BELOW, MatchKind, Missing, Resolution, SectionRef, Target, resolve,
};
use proptest::prelude::*;

/// concept.md, docs/research.md and docs/spec.md, each with an Overview.
fn project() -> Vec<ArtifactRef<'static>> {
    let section = |slug, title| SectionRef { slug, title };
    vec![
        ArtifactRef {
            slug: "concept",
            title: "Concept",
            path: "concept.md",
            sections: vec![
                section("what-is-it", "What Is It?"),
                section("problem-being-solved", "Problem Being Solved"),
                section("target-users", "Target Users"),
                section("overview", "Overview"),
            ],
        },
        ArtifactRef {
            slug: "research",
            title: "Market Research",
            path: "docs/research.md",
            sections: vec![
                section("competitive-analysis", "Competitive Analysis"),
                section("market-size", "Market Size"),
                section("overview", "Overview"),
            ],
        },
        ArtifactRef {
            slug: "spec",
            title: "Technical Spec",
            path: "docs/spec.md",
            sections: vec![
                section("overview", "Overview"),
                section("api", "API"),
                section("data-model", "Data Model"),
                section("open-questions", "Open Questions"),
            ],
        },
    ]
}

fn kind(kind: MatchKind) -> String {
    serde_json::to_value(kind).ok().and_then(|value| value.as_str().map(str::to_string)).unwrap_or_default()
}

/// One line per outcome, so a table row reads like the answer:
/// `ok research#overview by slug/title | rest`, `ambiguous a#s, b#s`,
/// `not_found section in concept ~ what-is-it, …`.
fn render(resolution: &Resolution) -> String {
    match resolution {
        Resolution::Resolved(Target { artifact, section, rest, artifact_match, section_match, .. }) => {
            let place = section.as_ref().map_or(artifact.clone(), |section| format!("{artifact}#{section}"));
            let how = section_match
                .map_or(kind(*artifact_match), |s| format!("{}/{}", kind(*artifact_match), kind(s)));
            format!("ok {place} by {how} | {rest}")
        }
        Resolution::Ambiguous(ambiguity) => {
            let places: Vec<String> = (ambiguity.candidates.iter())
                .map(|c| c.section.as_ref().map_or(c.artifact.clone(), |s| format!("{}#{s}", c.artifact)))
                .collect();
            format!("ambiguous {}", places.join(", "))
        }
        Resolution::NotFound(not_found) => {
            let missing = match not_found.missing {
                Missing::Artifact => "artifact",
                Missing::Section => "section",
            };
            let inside =
                not_found.artifact.as_ref().map_or(String::new(), |artifact| format!(" in {artifact}"));
            format!("not_found {missing}{inside} ~ {}", not_found.suggestion_slugs().join(", "))
        }
    }
}

/// (current artifact, message, expected resolution)
#[rustfmt::skip]
const TABLE: &[(Option<&str>, &str, &str)] = &[
    // `@artifact#section`: explicit syntax, exact, prefix, typo, case, path
    (None, "@concept#what-is-it update the definition", "ok concept#what-is-it by explicit/explicit | update the definition"),
    (None, "@concept update the definition", "ok concept by explicit | update the definition"),
    (None, "@concept#what-is", "ok concept#what-is-it by explicit/prefix | "),
    (None, "@concept#what-si-it fix it", "not_found section in concept ~ what-is-it"),
    (None, "@Concept#What-Is-It tighten", "ok concept#what-is-it by explicit/explicit | tighten"),
    (None, "@concpet#what-is-it update", "not_found artifact ~ concept"),
    (None, "@research.md#market-size add 2025 numbers", "ok research#market-size by path/explicit | add 2025 numbers"),
    (None, "@concept #target-users add personas", "ok concept#target-users by explicit/explicit | add personas"),
    (None, "@concept add personas to the target users", "ok concept#target-users by explicit/title | add personas to the target users"),
    (None, "@spec#q fix", "not_found section in spec ~ overview, api, data-model, open-questions"),
    (None, "please look at @spec#api.", "ok spec#api by explicit/explicit | please look at"),
    (None, "@con update the overview", "ok concept#overview by prefix/title | update the overview"),
    (None, "@research#competitive add Cursor pricing", "ok research#competitive-analysis by explicit/prefix | add Cursor pricing"),
    (None, "@docs/research.md#overview x", "ok research#overview by path/explicit | x"),
    (None, "@concept's overview is thin", "ok concept#overview by explicit/title | overview is thin"),
    (None, "@#market-size recheck", "ok research#market-size by inferred/explicit | recheck"),
    // only the first target counts: several targets in one message are not supported
    (None, "@concept#overview, and @spec#overview", "ok concept#overview by explicit/explicit | and @spec#overview"),
    (Some("spec"), "@research#overview summarise", "ok research#overview by explicit/explicit | summarise"),
    // `/artifact section`: slug, title words, prefix, rest words, typos
    (None, "/research competitive-analysis add Cursor pricing", "ok research#competitive-analysis by explicit/explicit | add Cursor pricing"),
    (None, "/research competitive analysis add Cursor pricing", "ok research#competitive-analysis by explicit/title | add Cursor pricing"),
    (None, "/research competitive add Cursor pricing", "ok research#competitive-analysis by explicit/prefix | add Cursor pricing"),
    (None, "/spec add an endpoint to the data model", "ok spec#data-model by explicit/title | add an endpoint to the data model"),
    (None, "/research competetive-analysis add pricing", "not_found section in research ~ competitive-analysis"),
    (None, "/reserch market-size", "not_found artifact ~ research"),
    (None, "/spec", "ok spec by explicit | "),
    (None, "/spec api document auth", "ok spec#api by explicit/explicit | document auth"),
    (None, "/concept target users add personas", "ok concept#target-users by explicit/title | add personas"),
    (None, "/concept Target-Users", "ok concept#target-users by explicit/explicit | "),
    (None, "/research.md market size up", "ok research#market-size by path/title | up"),
    (None, "/docs/spec.md open-questions list blockers", "ok spec#open-questions by path/explicit | list blockers"),
    // `#section`: current artifact first, then a unique match elsewhere
    (Some("concept"), "#problem-being-solved", "ok concept#problem-being-solved by current/explicit | "),
    (Some("concept"), "#problem-being-solved needs a sharper statement", "ok concept#problem-being-solved by current/explicit | needs a sharper statement"),
    (None, "#problem-being-solved", "ok concept#problem-being-solved by inferred/explicit | "),
    (None, "#overview tighten", "ambiguous concept#overview, research#overview, spec#overview"),
    (Some("spec"), "#overview tighten", "ok spec#overview by current/explicit | tighten"),
    (Some("concept"), "#market-size double-check", "ok research#market-size by inferred/explicit | double-check"),
    (Some("concept"), "#problem", "ok concept#problem-being-solved by current/prefix | "),
    (Some("concept"), "#xyz", "not_found section in concept ~ what-is-it, problem-being-solved, target-users, overview"),
    (None, "#ove", "ambiguous concept#overview, research#overview, spec#overview"),
    (None, "#ov", "not_found section ~ concept#overview, research#overview, spec#overview"),
    (None, "#overview in research.md", "ok research#overview by path/explicit | in research.md"),
    (Some("nonexistent"), "#api", "ok spec#api by inferred/explicit | "),
    // plain titles: case, punctuation, order, file names, bare slugs
    (None, "fix the competitive analysis in research.md", "ok research#competitive-analysis by path/title | fix the competitive analysis in research.md"),
    (None, "mark the what is it section done", "ok concept#what-is-it by inferred/title | mark the what is it section done"),
    (None, "Update the WHAT IS IT?", "ok concept#what-is-it by inferred/title | Update the WHAT IS IT?"),
    (None, "rewrite Competitive-Analysis", "ok research#competitive-analysis by inferred/title | rewrite Competitive-Analysis"),
    (None, "update what-is-it", "ok concept#what-is-it by inferred/title | update what-is-it"),
    (None, "add personas to target users", "ok concept#target-users by inferred/title | add personas to target users"),
    (None, "update the data model", "ok spec#data-model by inferred/title | update the data model"),
    (None, "update the API", "ok spec#api by inferred/title | update the API"),
    (None, "update the research overview", "ok research#overview by slug/title | update the research overview"),
    (None, "update the overview in the spec", "ok spec#overview by slug/title | update the overview in the spec"),
    (None, "update the overview in docs/spec.md", "ok spec#overview by path/title | update the overview in docs/spec.md"),
    (None, "fix the market research overview", "ok research#overview by title/title | fix the market research overview"),
    (None, "research the target users", "ok concept#target-users by inferred/title | research the target users"),
    (None, "mettre à jour «Market Size»", "ok research#market-size by inferred/title | mettre à jour «Market Size»"),
    (None, "mail bob@example.com about the api", "ok spec#api by inferred/title | mail bob@example.com about the api"),
    (None, "update the technical spec", "ok spec by title | update the technical spec"),
    (None, "the target market size", "ok research#market-size by inferred/title | the target market size"),
    (None, "update the concept", "ok concept by slug | update the concept"),
    // partial titles and stems
    (None, "update the problem statement", "ok concept#problem-being-solved by inferred/partial_title | update the problem statement"),
    (None, "expand the competitive part", "ok research#competitive-analysis by inferred/partial_title | expand the competitive part"),
    (None, "add more competitors", "ok research#competitive-analysis by inferred/partial_title | add more competitors"),
    (None, "Update the problem section", "ok concept#problem-being-solved by inferred/partial_title | Update the problem section"),
    (None, "in concept.md, rewrite the problem", "ok concept#problem-being-solved by path/partial_title | in concept.md, rewrite the problem"),
    // known weakness: an incidental word ("models") is a unique partial title; low confidence flags it
    (Some("concept"), "add a note about pricing models", "ok spec#data-model by inferred/partial_title | add a note about pricing models"),
    (None, "describe the data flow", "ok spec#data-model by inferred/partial_title | describe the data flow"),
    (None, "add a question about auth", "ok spec#open-questions by inferred/title | add a question about auth"),
    // typos
    (None, "fix the competetive analysis", "ok research#competitive-analysis by inferred/fuzzy | fix the competetive analysis"),
    (None, "update the target usres", "ok concept#target-users by inferred/fuzzy | update the target usres"),
    (Some("spec"), "update the overveiw", "ok spec#overview by current/fuzzy | update the overveiw"),
    // ambiguous: comparable matches in different places
    (None, "update the overview", "ambiguous concept#overview, research#overview, spec#overview"),
    (None, "update the overveiw", "ambiguous concept#overview, research#overview, spec#overview"),
    (None, "compare target users with market size", "ambiguous concept#target-users, research#market-size"),
    (None, "## Overview\nnew text", "ambiguous concept#overview, research#overview, spec#overview"),
    (None, "fix #42 in the overview", "ambiguous concept#overview, research#overview, spec#overview"),
    (None, "@spec update the api and the data model", "ambiguous spec#api, spec#data-model"),
    // current artifact settles ties and stands in when nothing is named
    (Some("research"), "update the overview", "ok research#overview by current/title | update the overview"),
    (Some("concept"), "tighten the wording", "ok concept by current | tighten the wording"),
    // weak matches: did you mean
    (None, "update the compet section", "not_found section ~ research#competitive-analysis"),
    (None, "competetive", "not_found section ~ research#competitive-analysis"),
    (Some("concept"), "fix the xyz section", "not_found section in concept ~ what-is-it, problem-being-solved, target-users, overview"),
    (None, "fix the market size section in concept.md", "not_found section in concept ~ research#market-size"),
    // nothing matches
    (None, "update the date", "not_found section ~ spec#data-model"),
    (None, "anaylsis", "not_found section ~ research#competitive-analysis"),
    (None, "hello there", "not_found artifact ~ concept, research, spec"),
    (None, "fix reserch.md", "not_found artifact ~ research"),
    (None, "", "not_found artifact ~ concept, research, spec"),
    (None, "@", "not_found artifact ~ concept, research, spec"),
    (None, "/", "not_found artifact ~ concept, research, spec"),
    (None, "#", "not_found artifact ~ concept, research, spec"),
];

#[test]
fn targeting_table() {
    let artifacts = project();
    let mut failures = Vec::new();
    for (current, text, want) in TABLE {
        let got = render(&resolve(text, &artifacts, *current));
        if got != *want {
            failures.push(format!("{text:?} (current {current:?})\n   want: {want}\n    got: {got}"));
        }
    }
    assert!(TABLE.len() >= 40, "the table has {} rows", TABLE.len());
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        TABLE.len(),
        failures.join("\n")
    );
}

fn confidence(text: &str, current: Option<&str>) -> f64 {
    match resolve(text, &project(), current) {
        Resolution::Resolved(target) => target.confidence,
        other => panic!("{text:?} did not resolve: {other:?}"),
    }
}

#[test]
fn confidence_orders_the_kinds_of_match() {
    let explicit = confidence("@concept#what-is-it x", None);
    let prefix = confidence("@concept#what-is x", None);
    let phrase = confidence("fix the competitive analysis", None);
    let typo = confidence("fix the competetive analysis", None);
    let partial = confidence("update the problem statement", None);
    let current_only = confidence("tighten the wording", Some("concept"));
    assert_eq!(explicit, 1.0);
    assert!(explicit > prefix && prefix > typo, "{explicit} {prefix} {typo}");
    assert!(phrase > typo && typo > partial, "{phrase} {typo} {partial}");
    assert!(partial < CONFIRM_BELOW, "a partial title is a did-you-mean: {partial}");
    assert!(current_only < CONFIRM_BELOW);
}

#[test]
fn outcomes_map_to_the_seed_error_codes() {
    let artifacts = project();
    let code = |text| resolve(text, &artifacts, None).error_code();
    assert_eq!(code("@concept#what-is-it"), None);
    assert_eq!(code("update the overview"), Some("AMBIGUOUS_TARGET"));
    assert_eq!(code("@concept#xyz"), Some("SECTION_NOT_FOUND"));
    assert_eq!(code("@nope#xyz"), Some("ARTIFACT_NOT_FOUND"));
}

#[test]
fn json_is_tagged_by_outcome() {
    let artifacts = project();
    let resolved = serde_json::to_value(resolve("@concept#what-is-it update", &artifacts, None)).ok();
    let resolved = resolved.unwrap_or_default();
    assert_eq!(resolved["outcome"], "resolved");
    assert_eq!(resolved["section"], "what-is-it");
    assert_eq!(resolved["section_match"], "explicit");
    assert_eq!(resolved["confidence"], 1.0);
    let ambiguous =
        serde_json::to_value(resolve("update the overview", &artifacts, None)).unwrap_or_default();
    assert_eq!(ambiguous["outcome"], "ambiguous");
    assert_eq!(ambiguous["candidates"][0]["title"], "Overview");
    let missing = serde_json::to_value(resolve("@concept#xyz", &artifacts, None)).unwrap_or_default();
    assert_eq!(missing["outcome"], "not_found");
    assert_eq!(missing["missing"], "section");
    assert_eq!(missing["artifact"], "concept");
}

#[test]
fn no_artifacts_means_nothing_found() {
    for text in ["@concept#what-is-it", "#overview", "update the overview", "/spec api"] {
        let resolution = resolve(text, &[], Some("concept"));
        assert_eq!(resolution.error_code(), Some("ARTIFACT_NOT_FOUND"), "{text}: {resolution:?}");
    }
}

/// Every outcome names only places that exist, within its bounds.
fn check_invariants(resolution: &Resolution, artifacts: &[ArtifactRef<'_>]) -> Result<(), TestCaseError> {
    let exists = |artifact: &str, section: Option<&str>| {
        artifacts
            .iter()
            .any(|a| a.slug == artifact && section.is_none_or(|s| a.sections.iter().any(|x| x.slug == s)))
    };
    match resolution {
        Resolution::Resolved(target) => {
            prop_assert!(exists(&target.artifact, target.section.as_deref()), "{target:?}");
            prop_assert!((0.0..=1.0).contains(&target.confidence));
            prop_assert_eq!(target.section.is_some(), target.section_match.is_some());
        }
        Resolution::Ambiguous(ambiguity) => {
            prop_assert!(ambiguity.candidates.len() >= 2, "{ambiguity:?}");
            for candidate in &ambiguity.candidates {
                prop_assert!(exists(&candidate.artifact, candidate.section.as_deref()));
                prop_assert!((0.0..=1.0).contains(&candidate.score));
            }
        }
        Resolution::NotFound(not_found) => {
            prop_assert!(not_found.suggestions.len() <= 5);
            for candidate in &not_found.suggestions {
                prop_assert!(exists(&candidate.artifact, candidate.section.as_deref()));
            }
        }
    }
    Ok(())
}

/// Messages built from the pieces targeting reacts to, and any characters.
fn message() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("@".to_string()),
        Just("#".to_string()),
        Just("/".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("-".to_string()),
        Just(".md".to_string()),
        Just("concept".to_string()),
        Just("research.md".to_string()),
        Just("what-is-it".to_string()),
        Just("overview".to_string()),
        Just("section".to_string()),
        Just("İ".to_string()),
        Just("ß".to_string()),
        Just("💥".to_string()),
        "\\PC{0,4}",
    ];
    prop_oneof![
        "\\PC{0,80}",
        "[@#/ \\-]{0,12}",
        prop::collection::vec(piece, 0..16).prop_map(|pieces| pieces.concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn resolve_never_panics_and_names_real_places(
        text in message(),
        current in prop_oneof![Just(None), Just(Some("concept")), Just(Some("spec")), Just(Some("gone"))],
    ) {
        let artifacts = project();
        let resolution = resolve(&text, &artifacts, current);
        check_invariants(&resolution, &artifacts)?;
    }

    #[test]
    fn arbitrary_titles_and_slugs_never_panic(
        text in message(),
        titles in prop::collection::vec(("\\PC{0,12}", "\\PC{0,24}"), 0..6),
    ) {
        let sections: Vec<SectionRef<'_>> =
            titles.iter().map(|(slug, title)| SectionRef { slug: slug.as_str(), title: title.as_str() }).collect();
        let artifacts = vec![
            ArtifactRef { slug: "a", title: "İ ß", path: "", sections: sections.clone() },
            ArtifactRef { slug: "", title: "", path: "/", sections },
        ];
        let resolution = resolve(&text, &artifacts, Some("a"));
        check_invariants(&resolution, &artifacts)?;
    }
}

#[test]
fn long_messages_are_read_at_their_start_and_end() {
    let artifacts = project();
    let paste = "lorem ipsum dolor sit amet ".repeat(2_000);
    let at_end = format!("{paste} put this in the market size section");
    assert_eq!(
        render(&resolve(&at_end, &artifacts, None)).split(" | ").next(),
        Some("ok research#market-size by inferred/title")
    );
    let at_start = format!("update the data model: {paste}");
    assert_eq!(
        render(&resolve(&at_start, &artifacts, None)).split(" | ").next(),
        Some("ok spec#data-model by inferred/title")
    );
    // The middle of a long paste is not read: its words are content, not a target.
    let in_middle = format!("{paste} market size {paste}");
    assert_eq!(resolve(&in_middle, &artifacts, None).error_code(), Some("ARTIFACT_NOT_FOUND"));
}

/// An artifact's slug, title, path and sections (slug, title), owned.
type OwnedArtifact = (String, String, String, Vec<(String, String)>);

fn artifact_refs(names: &[OwnedArtifact]) -> Vec<ArtifactRef<'_>> {
    names
        .iter()
        .map(|(slug, title, path, sections)| ArtifactRef {
            slug,
            title,
            path,
            sections: sections.iter().map(|(slug, title)| SectionRef { slug, title }).collect(),
        })
        .collect()
}

/// Any text at all (control characters, NUL, lone combining marks, BOMs,
/// right-to-left marks), `@`/`#`/`/` soup, and names that are not ours to
/// choose: slugs, titles and paths of any characters, a current artifact
/// that does not exist.
fn any_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(&[
            "@", "#", "/", "@@", "##", "//", "@#", "#@", "/#", "@/", " ", "\n", "\t", ".md", "..", "'s", "(", ")",
            "concept", "what-is-it", "docs/spec.md", "market size", "\u{0}", "\u{FEFF}", "\u{202E}", "\u{301}",
            "İ", "ß", "ﬃ", "💥", "\r\n", "\u{85}", "\u{2028}",
        ][..]).prop_map(str::to_string),
        2 => any::<char>().prop_map(String::from),
        1 => "[a-z]{1,10}",
    ];
    prop_oneof![any::<String>(), prop::collection::vec(piece, 0..40).prop_map(|p| p.concat())]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_and_any_names_resolve_to_real_places(
        text in any_text(),
        current in prop::option::of(any_text()),
        names in prop::collection::vec((any_text(), any_text(), any_text(), prop::collection::vec((any_text(), any_text()), 0..5)), 0..4),
    ) {
        let artifacts = artifact_refs(&names);
        let resolution = resolve(&text, &artifacts, current.as_deref());
        check_invariants(&resolution, &artifacts)?;
        // The rest is what the message said, never more.
        prop_assert!(resolution.rest().len() <= text.len(), "{resolution:?}");
    }
}

/// A message of 200,000 bytes of targeting syntax against 60 artifacts of
/// 30 sections each: answered (a quadratic pass over its tokens would not be).
#[test]
fn a_huge_soup_of_syntax_is_answered() {
    let names: Vec<OwnedArtifact> = (0..60)
        .map(|a| {
            let sections = (0..30).map(|s| (format!("s{a}-{s}"), format!("Section {s} of {a}"))).collect();
            (format!("a{a}"), format!("Artifact {a}"), format!("docs/a{a}.md"), sections)
        })
        .collect();
    let artifacts = artifact_refs(&names);
    let soup: String =
        (0..20_000).map(|i| ["@a1#s1-2 ", "#s3-4 ", "/a5 ", "section ", "@#/ "][i % 5]).collect();
    let soup = soup.repeat(2);
    assert!(soup.len() > 200_000);
    let resolution = resolve(&soup, &artifacts, Some("a7"));
    check_invariants(&resolution, &artifacts).unwrap();
}
