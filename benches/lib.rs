//! Helpers shared by the criterion benchmarks and the scripts: synthetic
//! repositories of a chosen shape written into temp dirs, and a work tree of
//! frames ([`write_frames`], kept on disk by [`frames_fixture`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use ctxkeep_core::{FrameStatus, NewAttempt, NewDecision, NewFrame, NewTask, Workspace};

/// Write a tree of `n_files` small source files, `per_folder` to a folder,
/// folders nested three deep, into `root`.
pub fn write_tree(root: &Path, n_files: usize, per_folder: usize) -> std::io::Result<()> {
    for i in 0..n_files {
        let folder = i / per_folder.max(1);
        let dir = root.join(format!("pkg{}/mod{}/sub{folder}", folder % 10, folder % 37));
        std::fs::create_dir_all(&dir)?;
        let body = format!("def function_{i}(x):\n    \"\"\"Doc {i}.\"\"\"\n    return x + {i}\n").repeat(20);
        std::fs::write(dir.join(format!("file_{i}.py")), body)?;
    }
    Ok(())
}

/// What the fixture helpers fail with: ctx's errors and I/O errors alike.
pub type BoxResult<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// Bumped whenever [`write_frames`] writes another tree: a kept fixture of
/// another version is rebuilt by [`frames_fixture`].
pub const FRAMES_FIXTURE_VERSION: u32 = 1;

/// The marker [`frames_fixture`] writes last into a complete fixture.
const FIXTURE_MARKER: &str = "fixture.txt";

/// A work tree written by [`write_frames`]: where, its shape, and the frames
/// worth asking about.
#[derive(Debug, Clone, PartialEq)]
pub struct FramesFixture {
    /// The workspace root (holding `.ctx/`).
    pub root: PathBuf,
    /// Frames in all: the mission, the epics, the features and the tasks.
    pub frames: usize,
    pub epics: usize,
    pub features: usize,
    pub tasks: usize,
    /// Tasks by status at the end.
    pub completed: usize,
    pub failed: usize,
    pub planned: usize,
    /// Decisions and attempts logged on frames, artifacts added.
    pub decisions: usize,
    pub attempts: usize,
    pub artifacts: usize,
    /// The top-level frame, in progress (`F1`).
    pub mission: String,
    /// The focus's epic and feature, both in progress.
    pub epic: String,
    pub feature: String,
    /// The current frame: an in-progress task at depth 3 (mission > epic >
    /// feature > task), retried after a failed attempt, with two decisions.
    pub focus: String,
    /// The focus's siblings (the other tasks of its feature).
    pub siblings: usize,
    /// Seconds [`write_frames`] took to write it.
    pub write_secs: f64,
}

impl FramesFixture {
    /// `key=value` lines: the marker file's text, and what the `frames_fixture`
    /// example prints for the scripts (values never hold spaces or quotes but the root's).
    pub fn to_lines(&self) -> String {
        let mut out = format!("version={FRAMES_FIXTURE_VERSION}\nroot={}\n", self.root.display());
        for (key, value) in [
            ("frames", self.frames),
            ("epics", self.epics),
            ("features", self.features),
            ("tasks", self.tasks),
            ("completed", self.completed),
            ("failed", self.failed),
            ("planned", self.planned),
            ("decisions", self.decisions),
            ("attempts", self.attempts),
            ("artifacts", self.artifacts),
            ("siblings", self.siblings),
        ] {
            out.push_str(&format!("{key}={value}\n"));
        }
        for (key, value) in [
            ("mission", &self.mission),
            ("epic", &self.epic),
            ("feature", &self.feature),
            ("focus", &self.focus),
        ] {
            out.push_str(&format!("{key}={value}\n"));
        }
        out.push_str(&format!("write_secs={:.1}\n", self.write_secs));
        out
    }

    /// The fixture [`FramesFixture::to_lines`] describes; `None` when
    /// anything is missing or of another version.
    fn from_lines(text: &str) -> Option<FramesFixture> {
        let map: std::collections::HashMap<&str, &str> =
            text.lines().filter_map(|line| line.split_once('=')).collect();
        if map.get("version")?.parse::<u32>().ok()? != FRAMES_FIXTURE_VERSION {
            return None;
        }
        let n = |key: &str| map.get(key)?.parse::<usize>().ok();
        let s = |key: &str| map.get(key).map(|v| v.to_string());
        Some(FramesFixture {
            root: PathBuf::from(map.get("root")?),
            frames: n("frames")?,
            epics: n("epics")?,
            features: n("features")?,
            tasks: n("tasks")?,
            completed: n("completed")?,
            failed: n("failed")?,
            planned: n("planned")?,
            decisions: n("decisions")?,
            attempts: n("attempts")?,
            artifacts: n("artifacts")?,
            mission: s("mission")?,
            epic: s("epic")?,
            feature: s("feature")?,
            focus: s("focus")?,
            siblings: n("siblings")?,
            write_secs: map.get("write_secs")?.parse().ok()?,
        })
    }
}

/// The shape of a tree of `n` frames: one mission, `n / 5000` epics (at
/// least one), `n / 100` features spread evenly over them, and the rest tasks
/// spread evenly over the features. For 100,000: 20 epics, 50 features
/// each, 98 or 99 tasks a feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixtureShape {
    pub epics: usize,
    pub features: usize,
    pub tasks: usize,
}

impl FixtureShape {
    pub fn of(n: usize) -> FixtureShape {
        let features = (n / 100).max(1);
        let epics = (n / 5000).clamp(1, features);
        let tasks = n.saturating_sub(1 + epics + features).max(1);
        FixtureShape { epics, features, tasks }
    }

    pub fn frames(&self) -> usize {
        1 + self.epics + self.features + self.tasks
    }

    /// How many of `total` items go to slot `i` of `slots`, spread evenly.
    fn share(total: usize, slots: usize, i: usize) -> usize {
        total / slots + usize::from(i < total % slots)
    }
}

/// A small deterministic generator (SplitMix64): the same tree every time
/// (and the same trials of the fault tests, tests/e2e/faults.rs, from a seed).
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const AREAS: &[&str] = &[
    "auth",
    "billing",
    "search",
    "storage",
    "sync",
    "notifications",
    "reporting",
    "onboarding",
    "gateway",
    "scheduler",
    "importer",
    "exporter",
    "permissions",
    "audit",
    "payments",
    "analytics",
    "cache",
    "migrations",
    "admin",
    "mobile",
];
const COMPONENTS: &[&str] = &[
    "session store",
    "token refresh",
    "rate limiter",
    "retry queue",
    "webhook handler",
    "config loader",
    "schema validator",
    "batch writer",
    "index builder",
    "query planner",
    "event bus",
    "job runner",
    "file upload",
    "email digest",
    "cursor pagination",
    "bulk import",
    "csv export",
    "role mapping",
    "request signer",
    "health check",
    "feature flags",
    "usage meter",
    "invoice renderer",
    "search ranker",
    "snapshot writer",
];
const VERBS: &[&str] =
    &["Add", "Fix", "Refactor", "Test", "Document", "Speed up", "Harden", "Simplify", "Log", "Validate"];
const OBJECTS: &[&str] = &[
    "the error path",
    "pagination",
    "input validation",
    "the retry policy",
    "structured logging",
    "metrics",
    "timeout handling",
    "the feature flag",
    "the database query",
    "serialization",
    "the command-line flag",
    "the config option",
    "unicode handling",
    "the cleanup job",
    "concurrent writers",
    "the public API",
    "the test fixtures",
    "caching of lookups",
    "the migration script",
    "backpressure",
];
const FILES: &[&str] =
    &["mod", "handler", "config", "store", "client", "errors", "types", "query", "worker", "api"];
const OUTCOMES: &[&str] = &[
    "callers get a typed error instead of a panic",
    "the slow path no longer holds the lock",
    "a restart resumes where the last run stopped",
    "the limits come from the configuration",
    "two writers cannot interleave their batches",
    "the output is the same on every platform",
    "nothing is retried after a permanent failure",
    "the common case does one round trip",
];
const FINDINGS: &[&str] = &[
    "the old code swallowed the error and returned an empty list",
    "two call sites built the same query by hand",
    "the lock was held across an await point",
    "the fixture relied on the test order",
    "the default timeout was thirty seconds, far above the budget",
    "the retry loop had no upper bound",
];
const REASONS: &[&str] = &[
    "the integration test times out under load",
    "the change breaks the mobile client's older protocol version",
    "the migration locks the table for minutes on production-sized data",
    "the new dependency does not build on the oldest supported toolchain",
];

fn slug(text: &str) -> String {
    text.replace(' ', "_")
}

/// Write a workspace into `dir` (which must exist; `.ctx/` is created there)
/// holding a work tree of `n` frames, through ctxkeep-core's public API, one
/// write transaction per change, as agents would make it:
///
/// - `F1`, the mission: a pushed frame, in progress;
/// - epics under it (type `epic`), features under the epics (type
///   `feature`), tasks under the features ([`FixtureShape`]); every epic
///   and feature but the focus's (in progress) and the ones after the focus
///   feature (planned) is completed with a summary and an artifact glob;
/// - tasks of a finished feature: 88% started, given 1–3 artifacts and
///   completed with a one-paragraph summary (one in ten of them also logs a
///   decision); 6% started, given artifacts and failed with an attempt; 6%
///   still planned. Every task has a description and one or two criteria;
/// - the focus: a task two thirds of the way through a feature near the end
///   of the last epic (tasks before it finished as above, after it
///   planned), failed once, given two decisions and started again: the
///   current frame, at depth 3, with its feature's other tasks as siblings.
///
/// Every frame is made within the same minute or so, so recency scores
/// (which halve by the hour) are alike for all of them.
pub fn write_frames(dir: &Path, n: usize) -> BoxResult<FramesFixture> {
    let started = Instant::now();
    let shape = FixtureShape::of(n);
    let (mut ws, _) = Workspace::init(dir)?;
    let mut rng = Rng(0x005E_EDF4_A3E5);
    let mut fx = FramesFixture {
        root: ws.root().to_path_buf(),
        frames: shape.frames(),
        epics: shape.epics,
        features: shape.features,
        tasks: shape.tasks,
        completed: 0,
        failed: 0,
        planned: 0,
        decisions: 0,
        attempts: 0,
        artifacts: 0,
        mission: String::new(),
        epic: String::new(),
        feature: String::new(),
        focus: String::new(),
        siblings: 0,
        write_secs: 0.0,
    };

    let mission = ws.push_frame(&NewFrame {
        goal: "Ship version 2 of the platform: every service behind the new gateway, billing and \
               search rebuilt on the event bus, and the mobile client on the new sync protocol, \
               without downtime for existing customers."
            .into(),
        title: Some("Platform v2".into()),
        parent: None,
        frame_type: Some("mission".into()),
    })?;
    fx.mission = mission.id.clone();

    let focus_epic = shape.epics - 1;
    let features_of_focus_epic = FixtureShape::share(shape.features, shape.epics, focus_epic);
    // Near the end of the last epic, with a few planned features after it.
    let focus_feature = features_of_focus_epic.saturating_sub(5);
    let mut feature_index = 0;
    let mut focus_id = String::new();
    for e in 0..shape.epics {
        let area = AREAS[e % AREAS.len()];
        let epic = ws.add_task(&NewTask {
            title: format!("Rebuild {area} for v2"),
            epic: Some(fx.mission.clone()),
            description: Some(format!(
                "Move {area} onto the v2 platform: its services behind the gateway, its state in the \
                 new storage layer, its events on the bus. Keep the v1 endpoints working until every \
                 client has moved."
            )),
            criteria: vec![
                format!("{area} serves all traffic through v2"),
                "no v1-only code path left".into(),
            ],
            task_type: Some("epic".into()),
        })?;
        ws.start_task(&epic.id)?;
        let features = FixtureShape::share(shape.features, shape.epics, e);
        for f in 0..features {
            let component = COMPONENTS[(e * 7 + f) % COMPONENTS.len()];
            let tasks = FixtureShape::share(shape.tasks, shape.features, feature_index);
            feature_index += 1;
            let is_focus = e == focus_epic && f == focus_feature;
            let after_focus = e == focus_epic && f > focus_feature;
            let feature = ws.add_task(&NewTask {
                title: format!("{area}: {component} ({})", f + 1),
                epic: Some(epic.id.clone()),
                description: Some(format!(
                    "The {component} of {area}, rebuilt for v2: same behaviour for v1 clients, the new \
                     limits and metrics, and tests that run against both protocol versions."
                )),
                criteria: vec![format!("the {component} passes the v1 and v2 suites")],
                task_type: Some("feature".into()),
            })?;
            if !after_focus {
                ws.start_task(&feature.id)?;
            }
            // Plan every task first, then work through them in order.
            let mut ids = Vec::with_capacity(tasks);
            for _ in 0..tasks {
                let verb = rng.pick(VERBS);
                let object = rng.pick(OBJECTS);
                let file = rng.pick(FILES);
                let title = format!("{verb} {object} in the {component}");
                let description = format!(
                    "{title}. Today the {component} of {area} handles {object} ad hoc in {file}.rs; \
                     change it so that {}, and cover the change with a test.",
                    rng.pick(OUTCOMES)
                );
                let mut criteria = vec![format!("{object} is covered by a test")];
                if rng.below(2) == 0 {
                    criteria.push(format!("no regression in the {component} benchmarks"));
                }
                let task = ws.add_task(&NewTask {
                    title,
                    epic: Some(feature.id.clone()),
                    description: Some(description),
                    criteria,
                    task_type: None,
                })?;
                ids.push((task.id, object, file));
            }
            let focus_at = if is_focus { tasks * 2 / 3 } else { usize::MAX };
            for (i, (id, object, file)) in ids.iter().enumerate() {
                if after_focus || i > focus_at {
                    fx.planned += 1;
                    continue;
                }
                let mut artifacts: Vec<String> = vec![format!("src/{area}/{}/{file}.rs", slug(component))];
                for _ in 0..rng.below(3) {
                    let path = format!("src/{area}/{}/{}.rs", slug(component), rng.pick(FILES));
                    if !artifacts.contains(&path) {
                        artifacts.push(path);
                    }
                }
                if i == focus_at {
                    focus_id = id.clone();
                    ws.start_task(id)?;
                    fx.artifacts += ws.add_frame_artifacts(Some(id), &artifacts[..1])?.artifacts.len();
                    ws.fail_task(id, &attempt(&mut rng, object))?;
                    fx.attempts += 1;
                    for title in [
                        format!("Keep {object} behind the v2 feature flag until the mobile client moves"),
                        format!("Test {object} against a recorded v1 session, not a mock"),
                    ] {
                        let rationale = "Found while the first attempt failed.".to_string();
                        ws.add_frame_decision(
                            Some(id),
                            &NewDecision { title, rationale, tags: vec![area.into()] },
                        )?;
                        fx.decisions += 1;
                    }
                    continue;
                }
                let roll = rng.below(100);
                if roll >= 94 {
                    fx.planned += 1;
                    continue;
                }
                ws.start_task(id)?;
                fx.artifacts += ws.add_frame_artifacts(Some(id), &artifacts)?.artifacts.len();
                if roll >= 88 {
                    ws.fail_task(id, &attempt(&mut rng, object))?;
                    fx.failed += 1;
                    fx.attempts += 1;
                    continue;
                }
                if rng.below(10) == 0 {
                    let title = format!("Handle {object} in the {component} with one shared helper");
                    let rationale = format!("{}; one place to fix next time.", rng.pick(FINDINGS));
                    ws.add_frame_decision(
                        Some(id),
                        &NewDecision { title, rationale, tags: vec![area.into()] },
                    )?;
                    fx.decisions += 1;
                }
                let summary = format!(
                    "Changed {} so that {}. While there, found that {}, and fixed that too. Added {} \
                     tests (unit and one end-to-end against the v1 protocol); the {} suite passes and \
                     its benchmark did not move. Left for later: {} in the same module.",
                    artifacts.join(", "),
                    rng.pick(OUTCOMES),
                    rng.pick(FINDINGS),
                    2 + rng.below(5),
                    component,
                    rng.pick(OBJECTS)
                );
                ws.finish_task(id, Some(&summary))?;
                fx.completed += 1;
            }
            if is_focus {
                fx.feature = feature.id.clone();
                fx.siblings = tasks - 1;
            } else if !after_focus {
                let glob = format!("src/{area}/{}/**", slug(component));
                fx.artifacts += ws.add_frame_artifacts(Some(&feature.id), &[glob])?.artifacts.len();
                let summary = format!(
                    "The {component} of {area} runs on v2: {tasks} tasks, the v1 and v2 suites pass, \
                     and the dashboards show the new metrics."
                );
                ws.finish_task(&feature.id, Some(&summary))?;
            }
        }
        if e == focus_epic {
            fx.epic = epic.id.clone();
        } else {
            let summary = format!("{area} serves all its traffic through v2; the v1 code paths are gone.");
            ws.finish_task(&epic.id, Some(&summary))?;
        }
    }
    // Last: the focus is retried, and so is the current frame.
    ws.start_task(&focus_id)?;
    fx.focus = focus_id;
    let status = ws.frame(None)?;
    assert_eq!(status.frame.id, fx.focus, "the focus is the current frame");
    assert_eq!(status.frame.status, FrameStatus::InProgress);
    assert_eq!(status.ancestors.len(), 3, "the focus is at depth 3");
    fx.write_secs = started.elapsed().as_secs_f64();
    Ok(fx)
}

fn attempt(rng: &mut Rng, object: &str) -> NewAttempt {
    NewAttempt {
        reason: rng.pick(REASONS).to_string(),
        observations: vec![format!("{object} works in isolation"), rng.pick(FINDINGS).to_string()],
        avoid: vec![format!("changing {object} and the protocol in one step")],
    }
}

/// The work tree of `n` frames kept on disk: read back when a complete one of
/// this [`FRAMES_FIXTURE_VERSION`] is there, else written anew by
/// [`write_frames`] (tens of seconds for 100,000 frames). Where:
/// `$CTX_BENCH_FRAMES_DIR/<n>`, by default `target/bench-frames/<n>`.
pub fn frames_fixture(n: usize) -> BoxResult<FramesFixture> {
    let base = std::env::var_os("CTX_BENCH_FRAMES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-frames"));
    let dir = base.join(n.to_string());
    if let Ok(text) = std::fs::read_to_string(dir.join(FIXTURE_MARKER))
        && let Some(fixture) = FramesFixture::from_lines(&text)
        && fixture.frames == FixtureShape::of(n).frames()
    {
        return Ok(fixture);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    let dir = dir.canonicalize()?;
    eprintln!("writing a work tree of {n} frames into {} ...", dir.display());
    let fixture = write_frames(&dir, n)?;
    eprintln!("... {} frames in {:.1} s", fixture.frames, fixture.write_secs);
    std::fs::write(dir.join(FIXTURE_MARKER), fixture.to_lines())?;
    Ok(fixture)
}

/// Open the workspace at `root` with `config_toml` as its `.ctx/config.toml`
/// (the file is replaced).
pub fn open_with_config(root: &Path, config_toml: &str) -> ctxkeep_core::Result<Workspace> {
    ctxkeep_core::write_atomic(&root.join(".ctx/config.toml"), config_toml.as_bytes())?;
    Workspace::open(root)
}

// docs/crates.md, the guide to the library crates' API, is compiled (and its
// first example run) as doctests of this crate, which is never published.
#[cfg(doctest)]
#[doc = include_str!("../docs/crates.md")]
struct CratesGuide;
