//! A Makefile's targets as commands: those named for a purpose (`test`,
//! `lint`), none that cleans first, and what they need set up first.

use std::collections::BTreeSet;

/// How to make what a Makefile's recipes need and the repository does not
/// hold: a virtualenv a target creates (`python3 -m venv venv`) that others
/// activate (arrow's `test: . venv/bin/activate; pytest` fails in a fresh
/// clone). `make` when the default goal leads to the target that creates
/// it, else `make TARGET`.
pub(super) fn setup(text: &str, paths: &[String]) -> Option<String> {
    // Each rule's targets and prerequisites, and its recipe's lines.
    let mut rules: Vec<(Vec<&str>, Vec<&str>, Vec<&str>)> = Vec::new();
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            if let Some(rule) = rules.last_mut() {
                rule.2.push(recipe.trim());
            }
        } else if let Some((names, rest)) =
            line.split_once(':').filter(|_| !line.starts_with(['#', ' ', '.']))
        {
            if rest.starts_with('=') || names.contains('=') || names.contains('$') {
                continue;
            }
            let prerequisites = rest.split(['#', ';']).next().unwrap_or("").split_whitespace().collect();
            rules.push((names.split_whitespace().collect(), prerequisites, Vec::new()));
        }
    }
    /// The folder a recipe makes a virtualenv in.
    fn made_by<'t>(recipe: &[&'t str]) -> Option<&'t str> {
        recipe.iter().find_map(|line| {
            let words: Vec<&'t str> = line.split_whitespace().collect();
            let at = words
                .windows(2)
                .position(|w| w == ["-m", "venv"])
                .map(|at| at + 2)
                .or_else(|| words.iter().position(|w| *w == "virtualenv").map(|at| at + 1))?;
            words.get(at..)?.iter().find(|w| !w.starts_with('-')).map(|dir| dir.trim_end_matches('/'))
        })
    }
    let (maker, dir) = rules.iter().find_map(|rule| Some((rule, made_by(&rule.2)?)))?;
    let activate = format!("{dir}/bin/activate");
    let needed = rules.iter().any(|rule| rule.2.iter().any(|line| line.contains(&activate)));
    if !needed || paths.iter().any(|p| p.starts_with(&format!("{dir}/"))) {
        return None;
    }
    // Whether the default goal (the first rule's first target) leads to the maker.
    let goal = rules.first()?.0.first().copied()?;
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut next = vec![goal];
    while let Some(target) = next.pop() {
        if maker.0.contains(&target) {
            return Some("make".into());
        }
        if seen.insert(target) {
            let rule = rules.iter().find(|rule| rule.0.contains(&target));
            next.extend(rule.into_iter().flat_map(|rule| rule.1.iter().copied()));
        }
    }
    Some(format!("make {}", maker.0[0]))
}

/// Targets a Makefile defines (`name:` at the start of a line, not a variable
/// or pattern), less those that clean first, themselves or through another
/// target (httpie's `test-all: clean install test`, whose `clean` deletes the
/// virtualenv): no command to hand an agent as a test or a build.
pub(super) fn targets(text: &str) -> Vec<String> {
    let rules: Vec<(&str, Vec<&str>)> = text
        .lines()
        .filter(|line| !line.starts_with(['\t', ' ', '#', '.']))
        .filter_map(|line| {
            let (name, rest) = line.split_once(':')?;
            let ok = !rest.starts_with('=')
                && !name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || "-_/".contains(c));
            let prerequisites = rest.split(['#', ';']).next().unwrap_or("").split_whitespace().collect();
            ok.then_some((name, prerequisites))
        })
        .collect();
    let mut cleaning: BTreeSet<&str> = ["clean", "distclean", "purge", "uninstall"].into();
    // To a fixed point: a target that needs one that cleans cleans too.
    loop {
        let more: Vec<&str> = rules
            .iter()
            .filter(|(name, needs)| !cleaning.contains(name) && needs.iter().any(|n| cleaning.contains(n)))
            .map(|(name, _)| *name)
            .collect();
        if more.is_empty() {
            break;
        }
        cleaning.extend(more);
    }
    rules.into_iter().filter(|(name, _)| !cleaning.contains(name)).map(|(name, _)| name.to_string()).collect()
}
