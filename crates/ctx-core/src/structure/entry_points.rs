//! The entry points a project declares, and which README is the project's:
//! key files an agent opens first.

/// Whether `name` is the README itself, not a translation of it
/// (`README.中文.md`, `README-ja.md`) or another file named like one.
pub(super) fn is_primary_readme(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let stem = lower.rsplit_once('.').map_or(lower.as_str(), |(stem, _)| stem);
    stem == "readme"
}

/// The folders the root Cargo.toml's `[workspace]` excludes (`exclude =
/// ["ci"]`), without a leading `./` or `/` or a trailing `/*` or `/`.
pub(super) fn workspace_excluded(read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let Some(doc) = read("Cargo.toml").and_then(|t| t.parse::<toml::Table>().ok()) else { return Vec::new() };
    let excluded = doc.get("workspace").and_then(|w| w.get("exclude")).and_then(|e| e.as_array());
    let folder = |dir: &str| {
        dir.trim_start_matches("./")
            .trim_start_matches('/')
            .trim_end_matches("/*")
            .trim_end_matches('/')
            .to_string()
    };
    excluded.into_iter().flatten().filter_map(|e| e.as_str()).map(folder).filter(|d| !d.is_empty()).collect()
}

/// The entry points the root's manifests declare, that exist: package.json's
/// `main`, `module`, `source`, `types`, `bin` and `exports["."]`; pyproject.toml's
/// `[project.scripts]` and `[tool.poetry.scripts]`, and setup.cfg's
/// `console_scripts` (`black = "black:patched_main"` is `src/black/__init__.py`
/// or `black.py`); Cargo.toml's `[lib]` and `[[bin]]` paths.
pub(super) fn declared(read: &dyn Fn(&str) -> Option<String>, paths: &[String]) -> Vec<String> {
    let exists = |path: &str| paths.iter().any(|p| p == path);
    let mut found: Vec<String> = Vec::new();
    let mut add = |path: &str| {
        let path = path.trim_start_matches("./");
        if exists(path) && !found.iter().any(|f| f == path) {
            found.push(path.to_string());
        }
    };
    if let Some(json) = read("package.json").and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    {
        let strings = |value: Option<&serde_json::Value>| -> Vec<String> {
            match value {
                Some(serde_json::Value::String(s)) => vec![s.clone()],
                // `"bin": {"tool": "cli.js"}`, `"exports": {".": {"require": …, "import": …}}`.
                Some(serde_json::Value::Object(map)) => {
                    map.values().filter_map(|v| v.as_str().map(str::to_string)).collect()
                }
                _ => Vec::new(),
            }
        };
        let exports = json.get("exports");
        let dot = exports.and_then(|e| e.get(".")).or(exports.filter(|e| e.is_string()));
        // `source`: the file a bundler builds `main` from (immer's `src/immer.ts`).
        for key in ["main", "module", "source", "types", "typings", "bin"] {
            strings(json.get(key)).iter().for_each(|p| add(p));
        }
        strings(dot).iter().for_each(|p| add(p));
    }
    // A Python script's target (`black:patched_main`, `httpie.__main__:main`): its module's file.
    let mut add_script = |target: &str| {
        let module = target.split(':').next().unwrap_or(target).trim().replace('.', "/");
        for prefix in ["src/", ""] {
            add(&format!("{prefix}{module}.py"));
            add(&format!("{prefix}{module}/__init__.py"));
        }
    };
    if let Some(doc) = read("pyproject.toml").and_then(|t| t.parse::<toml::Table>().ok()) {
        let project = doc.get("project").and_then(|p| p.get("scripts"));
        let poetry = doc.get("tool").and_then(|t| t.get("poetry")).and_then(|p| p.get("scripts"));
        let scripts = project.into_iter().chain(poetry).filter_map(|s| s.as_table()).flat_map(|t| t.values());
        scripts.filter_map(|v| v.as_str()).for_each(&mut add_script);
    }
    if let Some(cfg) = read("setup.cfg") {
        setup_cfg_scripts(&cfg).into_iter().for_each(&mut add_script);
    }
    if let Some(doc) = read("Cargo.toml").and_then(|t| t.parse::<toml::Table>().ok()) {
        let lib = doc.get("lib").and_then(|l| l.get("path")).and_then(|p| p.as_str());
        let bins = doc.get("bin").and_then(|b| b.as_array()).into_iter().flatten();
        lib.into_iter().chain(bins.filter_map(|b| b.get("path")?.as_str())).for_each(&mut add);
    }
    found
}

/// The targets of setup.cfg's `console_scripts` and `gui_scripts` under
/// `[options.entry_points]` (`http = httpie.__main__:main`), one a line below
/// the key or after its `=`.
fn setup_cfg_scripts(cfg: &str) -> Vec<&str> {
    let (mut section, mut in_scripts, mut targets) = ("", false, Vec::new());
    for line in cfg.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed;
            in_scripts = false;
            continue;
        }
        if section != "[options.entry_points]" || trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        let continued = line.starts_with([' ', '\t']);
        let item = if continued {
            in_scripts.then_some(trimmed)
        } else {
            let (key, value) = trimmed.split_once('=').unwrap_or((trimmed, ""));
            in_scripts = matches!(key.trim(), "console_scripts" | "gui_scripts");
            in_scripts.then_some(value.trim()).filter(|v| !v.is_empty())
        };
        if let Some((_, target)) = item.and_then(|i| i.split_once('=')) {
            targets.push(target.trim());
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_readme_s_translations_are_not_the_readme() {
        assert!(is_primary_readme("readme.rst") && is_primary_readme("README"));
        assert!(!is_primary_readme("README-ja.md") && !is_primary_readme("README.zh-CN.md"));
    }

    #[test]
    fn only_declared_entry_points_that_exist_are_found() {
        let manifests = |rel: &str| match rel {
            "package.json" => Some(
                r#"{"main": "./index.js", "source": "src/lib.ts", "bin": {"a": "cli.js", "b": "gone.js"}}"#
                    .to_string(),
            ),
            "Cargo.toml" => Some(
                "[lib]\npath = \"src/core.rs\"\n[[bin]]\nname = \"x\"\npath = \"src/x.rs\"\n".to_string(),
            ),
            _ => None,
        };
        let paths = ["index.js", "cli.js", "src/lib.ts", "src/core.rs", "src/x.rs"].map(String::from);
        assert_eq!(
            declared(&manifests, &paths),
            ["index.js", "src/lib.ts", "cli.js", "src/core.rs", "src/x.rs"]
        );
        assert!(declared(&manifests, &[]).is_empty());
    }

    #[test]
    fn python_scripts_are_read_from_setup_cfg_and_poetry_too() {
        // httpie's setup.cfg, and a poetry project's pyproject.toml.
        let cfg = "[metadata]\nname = httpie\n\n[options.entry_points]\nconsole_scripts =\n    \
                   http = httpie.__main__:main\n    httpie = httpie.manager.__main__:main\n\
                   pygments.lexers =\n    json = httpie.output.lexers:Lexer\n\n[flake8]\nx = a.b:c\n";
        let manifests = |rel: &str| match rel {
            "setup.cfg" => Some(cfg.to_string()),
            "pyproject.toml" => Some("[tool.poetry.scripts]\npoe = \"poethepoet:main\"\n".to_string()),
            _ => None,
        };
        let paths = [
            "httpie/__main__.py",
            "httpie/manager/__main__.py",
            "httpie/output/lexers.py",
            "src/poethepoet/__init__.py",
        ]
        .map(String::from);
        assert_eq!(
            declared(&manifests, &paths),
            ["src/poethepoet/__init__.py", "httpie/__main__.py", "httpie/manager/__main__.py"]
        );
    }
}
