//! A `package.json`'s part of the structure: the stack its dependencies say
//! (React, Vitest, ESLint, …) and the commands its scripts run, each under
//! the purpose its name or its command says (`test:types` runs a type check).

use std::collections::BTreeSet;
use std::path::Path;

use super::{Command, one_test, purpose_of};

/// The stack and commands of the `package.json` at `path` (`text`): `top`
/// when it is the repository's own, not a workspace member's.
pub(super) fn node_facts(
    root: &Path,
    text: &str,
    path: &str,
    top: bool,
    paths: &[String],
    commands: &mut Vec<Command>,
    note: &mut impl FnMut(usize, &str, &str),
) {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return };
    let deps = |key: &str| {
        json.get(key)
            .and_then(|d| d.as_object())
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    // A framework is what the package is built on when it needs it to run (or asks its
    // users for it); a library's tests or fixtures may use one it is not built on (h3's
    // `react` among its devDependencies). Tools are the project's wherever they are listed.
    let shipped: BTreeSet<String> =
        deps("dependencies").into_iter().chain(deps("peerDependencies")).collect();
    let all: BTreeSet<String> = shipped.iter().cloned().chain(deps("devDependencies")).collect();
    for (order, dep, what, framework) in [
        (3, "typescript", "TypeScript", false),
        (14, "react", "React", true),
        (15, "vue", "Vue", true),
        (16, "svelte", "Svelte", true),
        (17, "next", "Next.js", true),
        (18, "vite", "Vite", false),
        (19, "jest", "Jest", false),
        (19, "vitest", "Vitest", false),
        (24, "eslint", "ESLint", false),
    ] {
        if if framework { shipped.contains(dep) } else { all.contains(dep) } {
            note(order, what, path);
        }
    }
    if !top {
        return;
    }
    // The package manager the project names (`"packageManager": "bun@1.2.20"`), else
    // the one whose lockfile it keeps: its scripts are run by it.
    let declared = json.get("packageManager").and_then(|m| m.as_str()).and_then(|m| m.split('@').next());
    let lockfile = |name: &str| root.join(path).with_file_name(name).exists();
    let runner = match declared {
        Some("bun") => "bun run",
        Some("pnpm") => "pnpm",
        Some("yarn") => "yarn",
        Some("npm") => "npm run",
        _ if lockfile("bun.lock") || lockfile("bun.lockb") => "bun run",
        _ if lockfile("pnpm-lock.yaml") => "pnpm",
        _ if lockfile("yarn.lock") => "yarn",
        _ => "npm run",
    };
    // How it runs a tool the package installs (`pnpm exec vitest`).
    let exec = match runner {
        "bun run" => "bunx",
        "pnpm" => "pnpm exec",
        "yarn" => "yarn",
        _ => "npx",
    };
    if let Some(scripts) = json.get("scripts").and_then(|s| s.as_object()) {
        // A `format` that only checks (`prettier --check`) changes nothing: it checks,
        // and its variant that writes (`format:fix`) is the one that formats.
        let script_of = |name: &str| scripts.get(name).and_then(|s| s.as_str()).unwrap_or_default();
        let checks_only = |name: &str| {
            let script = script_of(name);
            (script.contains("--check") || script.contains("--list-different")) && !script.contains("--write")
        };
        // A script that runs its own variants (jotai's `"test": "pnpm run \"/^test:.*/\""` over
        // `test:format`, `test:types`, `test:lint`, `test:spec`) is all of the checks, and
        // each variant of another purpose is that purpose's command: `pnpm test:lint` lints.
        let runs_its_variants = |first: &str| script_of(first).contains(&format!("{first}:"));
        let of_its_own = |name: &str| {
            let (first, rest) = name.split_once(':')?;
            let purpose = variant_purpose(rest)?;
            // The tests among all the checks are their own too (`test:spec`); a fixer's
            // variants (`fix:lint`) only where they format.
            let own = match purpose_of(first) {
                Some(parent) => parent != purpose || parent == "test",
                None => purpose == "format",
            };
            (own && runs_its_variants(first)).then_some(purpose)
        };
        // A script named for what it does (`test`) before another that does it too
        // (ofetch's `"dev": "vitest"`): a task's map shows one command a purpose.
        let mut names: Vec<&String> = scripts.keys().collect();
        names.sort_by_key(|name| purpose_of(name).is_none_or(|p| p != **name));
        // A step before the tests that only checks (`pnpm lint && vitest run`) is no part of running one.
        let only_checks = |step: &str| {
            let words: Vec<&str> = step.split_whitespace().collect();
            let script = match words.as_slice() {
                ["npm" | "pnpm" | "yarn" | "bun", "run", name] | ["pnpm" | "yarn", name] => Some(*name),
                _ => None,
            };
            let checking = |p: String| matches!(p.as_str(), "lint" | "format" | "check");
            script.is_some_and(|name| purpose_of(name).is_some_and(checking))
                || words.first().is_some_and(|tool| LINTERS.contains(tool))
                || (words.first() == Some(&"tsc") && words.contains(&"--noEmit"))
        };
        for name in names {
            // `test` runs what `test:node`, `test:karma:server`, … do: it alone says how to
            // test; `bench` what pino's nine `bench-child`, `bench-object`, … do.
            let own = of_its_own(name);
            let variant = name.split_once([':', '-']).is_some_and(|(first, _)| {
                let writes = first == "format" && checks_only(first) && !checks_only(name);
                scripts.contains_key(first) && !writes && own.is_none()
            });
            if variant {
                continue;
            }
            let script = script_of(name);
            let purpose = match own {
                Some(own) => Some(own),
                // Its variants of other purposes are listed each: it is them all, the checks.
                None if purpose_of(name).as_deref() == Some("test")
                    && scripts.keys().any(|n| {
                        n.starts_with(&format!("{name}:")) && of_its_own(n).is_some_and(|p| p != "test")
                    }) =>
                {
                    Some("check".to_string())
                }
                None => purpose_of(name),
            };
            let purpose = purpose.map(|p| match (p.as_str(), test_runner_purpose(script)) {
                ("format", _) if checks_only(name) => "check".into(),
                // `"dev": "vitest"` runs the tests; `"dev": "jest --watch"` never returns.
                ("run" | "test", Some(runner)) => runner.into(),
                _ => p,
            });
            if let Some(purpose) = purpose {
                let run = format!("{runner} {name}");
                if purpose == "test"
                    && !commands.iter().any(|c| c.purpose == one_test::PURPOSE)
                    && let Some(one) = one_test::from_script(&run, exec, script, paths, only_checks)
                {
                    commands.push(Command {
                        purpose: one_test::PURPOSE.into(),
                        command: one,
                        source: path.into(),
                    });
                }
                commands.push(Command { purpose, command: run, source: path.to_string() });
            }
        }
    }
}

/// What a script's variant is for, by the part of its name after its parent's
/// (`spec` of `test:spec` tests, `types` of `test:types` checks).
fn variant_purpose(rest: &str) -> Option<String> {
    match rest {
        "spec" | "unit" => Some("test".into()),
        "types" | "type" | "tsc" => Some("check".into()),
        _ => purpose_of(rest),
    }
}

/// Tools that only check the code (or format it), as a package.json script runs them.
const LINTERS: &[&str] = &["eslint", "prettier", "biome", "oxlint", "xo", "standard"];

/// What a script that runs a test runner is for (`"dev": "vitest"` tests), if it
/// does: `watch` when told to watch the files, where it never exits (`jest
/// --watch`, `vitest watch`). A bare `vitest` watches only on an interactive
/// terminal, and runs once for an agent.
fn test_runner_purpose(script: &str) -> Option<&'static str> {
    const RUNNERS: &[&str] = &["vitest", "jest", "mocha", "ava", "karma"];
    let words: Vec<&str> = script.split_whitespace().collect();
    RUNNERS.contains(words.first()?).then_some(())?;
    // Vitest's `--ui` serves a page until stopped (pinia's `"dev": "vitest --coverage --ui"`).
    let watching = words.iter().any(|w| {
        matches!(*w, "watch" | "dev" | "-w" | "--ui") || w.starts_with("--watch") || w.starts_with("--ui=")
    });
    Some(if watching { "watch" } else { "test" })
}
