//! Commands a justfile offers: its recipes, each with what it is for, and
//! whether one never returns (a watcher, run by the recipe or by one it
//! depends on): an agent told "test: `just test`" must not wait forever.

use std::collections::BTreeSet;

use super::purpose_of;

/// Whether a command line runs something that never returns by itself: a
/// watcher (`cargo watch …`, `watchexec …`, `jest --watch`). An agent that runs
/// it waits forever. What the line runs counts, not what it names (`cargo
/// install cargo-watch` returns).
pub(super) fn runs_until_stopped(line: &str) -> bool {
    // A recipe line's own prefixes: `@` (quiet), `-` (errors ignored).
    let mut words = line.trim_start().trim_start_matches(['@', '-']).split_whitespace();
    let Some(program) = words.next() else { return false };
    let rest: Vec<&str> = words.collect();
    match program {
        "watchexec" | "nodemon" | "bacon" | "cargo-watch" => true,
        "cargo" => rest.first() == Some(&"watch"),
        _ => rest.iter().any(|w| *w == "--watch" || w.starts_with("--watch=")),
    }
}

/// The recipes a justfile offers to run as they are, each with what it is
/// for: as its name says (`test`, `fmt`, `ci`), or `watch` when it, or a
/// recipe it runs first, never returns (casey/just's own `test` depends on a
/// `watch` recipe running `cargo watch`). Private recipes (`_name`,
/// `[private]`) and those with a parameter that has no default are left out.
pub(super) fn recipes(text: &str) -> Vec<(String, String)> {
    struct Recipe {
        name: String,
        dependencies: Vec<String>,
        watches: bool,
        listed: bool,
    }
    let mut recipes: Vec<Recipe> = Vec::new();
    let mut private = false;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            // A body line of the recipe above.
            if let Some(recipe) = recipes.last_mut() {
                recipe.watches |= runs_until_stopped(line);
            }
            continue;
        }
        let line = line.trim_end();
        if line.starts_with('[') {
            private |= line.contains("private");
            continue;
        }
        let Some((head, dependencies)) = recipe_header(line) else {
            private = false;
            continue;
        };
        let mut words = head.split_whitespace();
        let name = words.next().unwrap_or_default().trim_start_matches('@');
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            private = false;
            continue;
        }
        // `name`, `+name` and `$name` need an argument; `name='x'` and `*name` do not.
        let needs_arguments = words.any(|p| !p.contains('=') && !p.starts_with('*'));
        recipes.push(Recipe {
            name: name.to_string(),
            dependencies: dependency_names(dependencies),
            watches: false,
            listed: !private && !name.starts_with('_') && !needs_arguments,
        });
        private = false;
    }
    // Watching is inherited from a dependency, however deep.
    loop {
        let watching: Vec<String> = recipes.iter().filter(|r| r.watches).map(|r| r.name.clone()).collect();
        let mut changed = false;
        for recipe in &mut recipes {
            if !recipe.watches && recipe.dependencies.iter().any(|d| watching.contains(d)) {
                recipe.watches = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // `test` says how to test; `test-quine` is one way of it (as with scripts).
    let names: BTreeSet<String> = recipes.iter().map(|r| r.name.clone()).collect();
    let variant = |name: &str| {
        let first = name.split(['-', '_']).next().unwrap_or(name);
        first != name && names.contains(first)
    };
    recipes
        .into_iter()
        .filter(|r| r.listed && !variant(&r.name))
        .filter_map(|r| {
            let purpose = if r.watches { Some("watch".to_string()) } else { purpose_of(&r.name) }?;
            Some((r.name, purpose))
        })
        .collect()
}

/// A justfile line as a recipe's header and what follows its colon (its
/// dependencies); `None` for anything else (`x := 1`, `alias t := test`,
/// `set …`, `import …`, comments). A colon inside quotes is in a parameter's
/// default (`target='x:y'`); just assigns with `:=` only, so `=` is a default's.
fn recipe_header(line: &str) -> Option<(&str, &str)> {
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ':') if line[i + 1..].starts_with('=') => return None,
            (None, ':') => return Some((&line[..i], &line[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The recipes a header's dependency list names: `a b`, `(watch 'args')`, `&& after`.
fn dependency_names(list: &str) -> Vec<String> {
    let mut unquoted = String::new();
    let mut quote = None;
    for c in list.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | ')' | '&') => unquoted.push(' '),
            (None, c) => unquoted.push(c),
        }
    }
    unquoted.split_whitespace().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_are_commands_and_one_that_watches_is_no_test() {
        // casey/just's own justfile, shortened: `test` and `check` run the `watch` recipe,
        // which never returns; `ci` is the one that runs the checks once.
        let justfile = "#!/usr/bin/env -S just --justfile\n\nalias t := test\n\nlog := \"warn\"\n\n\
                        export JUST_LOG := log\n\n[group: 'dev']\nwatch +args='lcheck':\n  \
                        cargo watch --clear --exec '{{ args }}'\n\n[group: 'test']\n\
                        test: (watch 'ltest --tests --all --all-targets')\n\n[group: 'check']\n\
                        ci: test-once build-book\n  cargo lclippy --all --all-targets -- --deny warnings\n\n\
                        # only run tests matching `PATTERN`\ntest-filter PATTERN: (watch f'ltest {{ PATTERN }}')\n\n\
                        test-once:\n  cargo test --all\n\n[private]\nbuild-book:\n  mdbook build book\n\n\
                        build:\n  cargo install cargo-watch\n  -cargo build\n\n\
                        _helper:\n  echo\n\n@fmt *files:\n  cargo fmt --all {{ files }}\n\n\
                        lint target='x:y':\n  cargo clippy\n";
        let found = recipes(justfile);
        let found: Vec<(&str, &str)> = found.iter().map(|(r, p)| (r.as_str(), p.as_str())).collect();
        // In the file's order; `test-once` is one way of `test`, `build-book` private.
        assert_eq!(
            found,
            [
                ("watch", "watch"),
                ("test", "watch"),
                ("ci", "check"),
                ("build", "build"),
                ("fmt", "format"),
                ("lint", "lint")
            ]
        );
        // `build` installs a watcher but runs none.
        assert!(runs_until_stopped("  @cargo watch -x test") && runs_until_stopped("\tjest --watch"));
        assert!(
            !runs_until_stopped("  cargo install cargo-watch") && !runs_until_stopped("  echo --watched")
        );
    }
}
