//! The Rust library crates of a workspace, by the names their uses write
//! (`regex-automata/src/lib.rs` is `regex_automata`), and which of them is
//! the one its users meet first: the crate the others are named after
//! (`regex` of `regex-syntax` and `regex-automata`, `axum` of `axum-core`).

use rustc_hash::FxHashMap as HashMap;

use crate::index::IndexedFile;

pub(super) struct Crates {
    /// Each crate's name, with the folder it lives in (`regex-automata`, the
    /// root's `""`) and that of its root file (`regex-automata/src`).
    crates: Vec<Crate>,
    /// The crate the others are named after, if there are others.
    facade: Option<usize>,
}

struct Crate {
    name: String,
    home: String,
    root: String,
}

impl Crates {
    /// The crates of `files`. The crate at the repository's root is named only
    /// by its manifest, which is not read here: when most others are named
    /// after one name that no crate has (`regex-syntax`, `regex-automata`;
    /// `clap_builder`, `clap_derive`), that name is the root's.
    pub(super) fn of(files: &[IndexedFile]) -> Crates {
        let roots = files.iter().filter(|f| f.lang == "rust").filter_map(|f| f.path.strip_suffix("lib.rs"));
        let mut crates: Vec<Crate> = Vec::new();
        let mut root_crate = None;
        for root in roots.map(|r| r.trim_end_matches('/')) {
            let home = root.strip_suffix("src").map_or(root, |h| h.trim_end_matches('/'));
            match home.rsplit('/').next().filter(|name| !name.is_empty()) {
                Some(name) => {
                    let name = name.replace('-', "_");
                    crates.push(Crate { name, home: home.to_string(), root: root.to_string() })
                }
                None => root_crate = Some(root.to_string()),
            }
        }
        // The name most crates start with, if it is more than one's.
        let mut families: HashMap<&str, usize> = HashMap::default();
        for c in &crates {
            *families.entry(c.name.split('_').next().unwrap_or(&c.name)).or_default() += 1;
        }
        let family = families.into_iter().filter(|&(_, n)| n >= 2).max_by_key(|&(name, n)| (n, name));
        let family = family.map(|(name, _)| name.to_string());
        let mut facade = family.as_ref().and_then(|f| crates.iter().position(|c| &c.name == f));
        if let (Some(root), Some(family), None) = (root_crate, family, facade) {
            crates.push(Crate { name: family, home: String::new(), root });
            facade = Some(crates.len() - 1);
        }
        Crates { crates, facade }
    }

    /// Per file of `files`, whether it belongs to a crate of a workspace with a
    /// facade that the facade does not pass on (`pub use regex_automata::…`,
    /// `pub use clap_builder::*`): its API is for those who go past the facade,
    /// after the facade's (regex-automata's `meta::Regex` after regex's `Regex`).
    pub(super) fn beside_the_facade(&self, files: &[IndexedFile]) -> Vec<bool> {
        let Some(facade) = self.facade else { return vec![false; files.len()] };
        let crate_of: Vec<Option<usize>> = files.iter().map(|f| self.crate_of(&f.path)).collect();
        let mut passed_on = vec![false; self.crates.len()];
        passed_on[facade] = true;
        let first = |path: &str| path.split("::").next().map(str::to_string);
        for file in files.iter().zip(&crate_of).filter(|(_, c)| **c == Some(facade)).map(|(f, _)| f) {
            let reexported =
                file.tags.refs.iter().filter(|r| r.exported > 0).filter_map(|r| r.from.as_deref());
            for name in reexported.chain(file.tags.reexports_all.iter().map(String::as_str)).filter_map(first)
            {
                if let Some(at) = self.crates.iter().position(|c| c.name == name) {
                    passed_on[at] = true;
                }
            }
        }
        crate_of.iter().map(|c| c.is_some_and(|c| !passed_on[c])).collect()
    }

    /// The crate `path` belongs to: the one whose folder holds it nearest.
    fn crate_of(&self, path: &str) -> Option<usize> {
        let holds =
            |home: &str| home.is_empty() || path.strip_prefix(home).is_some_and(|rest| rest.starts_with('/'));
        let holders = self.crates.iter().enumerate().filter(|(_, c)| holds(&c.home));
        holders.max_by_key(|(_, c)| c.home.len()).map(|(at, _)| at)
    }

    /// The folder of the root file of the crate its uses call `name`.
    pub(super) fn root_folder(&self, name: &str) -> Option<&str> {
        self.crates.iter().find(|c| c.name == name).map(|c| c.root.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn crates(paths: &[&str]) -> Crates {
        Crates::of(&paths.iter().map(|p| IndexedFile::parsed(p, Lang::Rust, "")).collect::<Vec<_>>())
    }

    #[test]
    fn the_crate_the_others_are_named_after_is_the_facade() {
        let regex = crates(&[
            "src/lib.rs",
            "regex-syntax/src/lib.rs",
            "regex-automata/src/lib.rs",
            "regex-test/lib.rs",
        ]);
        assert_eq!(regex.root_folder("regex"), Some("src"));
        assert_eq!(regex.root_folder("regex_test"), Some("regex-test"));
        assert_eq!(regex.facade.map(|f| regex.crates[f].name.as_str()), Some("regex"));
        let axum = crates(&[
            "axum/src/lib.rs",
            "axum-core/src/lib.rs",
            "axum-extra/src/lib.rs",
            "examples/x/src/main.rs",
        ]);
        assert_eq!(axum.facade.map(|f| axum.crates[f].home.as_str()), Some("axum"));
        // No family, no facade; nor a name for the root's crate.
        let lone = crates(&["src/lib.rs", "tokio-util/src/lib.rs"]);
        assert!(lone.facade.is_none() && lone.root_folder("tokio").is_none());
        assert_eq!(lone.root_folder("tokio_util"), Some("tokio-util/src"));
    }

    #[test]
    fn what_the_facade_does_not_pass_on_is_beside_it() {
        let file = |path: &str, source: &str| IndexedFile::parsed(path, Lang::Rust, source);
        let files = [
            file("axum/src/lib.rs", "pub use axum_core::Error;\nuse axum_extra::Cookie;\n"),
            file("axum/src/routing.rs", "pub struct Router;\n"),
            file("axum-core/src/lib.rs", "pub struct Error;\n"),
            file("axum-extra/src/lib.rs", "pub struct Cookie;\n"),
            file("axum-extra/tests/cookie.rs", ""),
            file("axum-macros/src/lib.rs", ""),
            file("axum-macros-support/src/lib.rs", ""),
            file("examples/hello/main.rs", ""),
        ];
        let beside = Crates::of(&files).beside_the_facade(&files);
        assert_eq!(beside, [false, false, false, true, true, true, true, false]);
        // A glob passes a crate on whole (clap's `pub use clap_builder::*;`).
        let files = [file("src/lib.rs", "pub use clap_builder::*;\n"), file("clap_builder/src/lib.rs", "")];
        assert_eq!(Crates::of(&files).beside_the_facade(&files), [false, false]);
    }
}
