//! The entry points a project declares, and which README is the project's:
//! key files an agent opens first.

/// Whether `name` is the README itself, not a translation of it
/// (`README.中文.md`, `README-ja.md`) or another file named like one.
pub(super) fn is_primary_readme(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let stem = lower.rsplit_once('.').map_or(lower.as_str(), |(stem, _)| stem);
    stem == "readme"
}

/// The entry points the root's manifests declare, that exist: package.json's
/// `main`, `module`, `types`, `bin` and `exports["."]`; pyproject.toml's
/// `[project.scripts]` (`black = "black:patched_main"` is `src/black/__init__.py`
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
        for key in ["main", "module", "types", "typings", "bin"] {
            strings(json.get(key)).iter().for_each(|p| add(p));
        }
        strings(dot).iter().for_each(|p| add(p));
    }
    if let Some(doc) = read("pyproject.toml").and_then(|t| t.parse::<toml::Table>().ok()) {
        let scripts = doc.get("project").and_then(|p| p.get("scripts")).and_then(|s| s.as_table());
        for target in scripts.into_iter().flat_map(|t| t.values()).filter_map(|v| v.as_str()) {
            let module = target.split(':').next().unwrap_or(target).trim().replace('.', "/");
            for prefix in ["src/", ""] {
                add(&format!("{prefix}{module}.py"));
                add(&format!("{prefix}{module}/__init__.py"));
            }
        }
    }
    if let Some(doc) = read("Cargo.toml").and_then(|t| t.parse::<toml::Table>().ok()) {
        let lib = doc.get("lib").and_then(|l| l.get("path")).and_then(|p| p.as_str());
        let bins = doc.get("bin").and_then(|b| b.as_array()).into_iter().flatten();
        lib.into_iter().chain(bins.filter_map(|b| b.get("path")?.as_str())).for_each(&mut add);
    }
    found
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
            "package.json" => {
                Some(r#"{"main": "./index.js", "bin": {"a": "cli.js", "b": "gone.js"}}"#.to_string())
            }
            "Cargo.toml" => Some(
                "[lib]\npath = \"src/core.rs\"\n[[bin]]\nname = \"x\"\npath = \"src/x.rs\"\n".to_string(),
            ),
            _ => None,
        };
        let paths = ["index.js", "cli.js", "src/core.rs", "src/x.rs"].map(String::from);
        assert_eq!(declared(&manifests, &paths), ["index.js", "cli.js", "src/core.rs", "src/x.rs"]);
        assert!(declared(&manifests, &[]).is_empty());
    }
}
