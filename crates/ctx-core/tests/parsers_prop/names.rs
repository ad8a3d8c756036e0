//! The context file name codec (`build::names`): folder keys of any
//! Unicode, `--`, `.`, leading dots and long names round-trip; any file
//! name decodes to a folder the encoding gives it, or to nothing.

use ctxkeep_core::Tier;
use ctxkeep_core::build::names::{decode_folder, encode_folder, file_name, parse_file_name};
use proptest::prelude::*;

use super::soup;

/// What the encoding reacts to.
const SPECIALS: &[&str] =
    &["-", "--", "%", "%2D", "%2E", "%25", "~", ".", "_root", "_", " ", ".md", ".standard.md"];

/// A folder name a file system allows: no `/`, no NUL, not `.` or `..`; long ones too.
fn component() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => soup(SPECIALS, 10),
        1 => (prop::sample::select(&["a", "é", "名", "-", "💥", ".", "%"][..]), 1usize..300)
            .prop_map(|(s, n)| s.repeat(n)),
    ]
    .prop_map(|s| s.replace(['/', '\0'], ""))
    .prop_filter("a folder name", |s| !s.is_empty() && s != "." && s != "..")
}

proptest! {
    #![proptest_config(super::cases(3000))]

    /// Every folder key: a name of at most 255 bytes, never hidden, without
    /// `/`, that decodes back to the key unless it had to be shortened.
    #[test]
    fn folder_keys_round_trip(parts in prop::collection::vec(component(), 1..6)) {
        let key = parts.join("/");
        let encoded = encode_folder(&key);
        prop_assert!(!encoded.contains('/') && !encoded.starts_with('.'));
        prop_assert_eq!(decode_folder(&encoded), Some(key.clone()));
        for tier in Tier::ALL {
            let name = file_name(&key, tier);
            prop_assert!(name.len() <= 255, "{} bytes", name.len());
            prop_assert!(!name.contains('/') && !name.starts_with('.'));
            let parsed = parse_file_name(&name);
            // `~` is escaped in full names: only a shortened name holds one.
            if name.contains('~') {
                prop_assert_eq!(parsed, Some((None, tier)), "a shortened name names no folder");
            } else {
                prop_assert_eq!(parsed, Some((Some(key.clone()), tier)));
            }
        }
    }

    /// Two folders never share a file name, shortened or not.
    #[test]
    fn distinct_keys_get_distinct_names(a in prop::collection::vec(component(), 1..4), b in prop::collection::vec(component(), 1..4)) {
        let (a, b) = (a.join("/"), b.join("/"));
        prop_assume!(a != b);
        prop_assert_ne!(file_name(&a, Tier::Full), file_name(&b, Tier::Full));
    }

    /// Any file name: nothing, or a folder whose encoding is that name.
    #[test]
    fn any_file_name_decodes_canonically_or_not_at_all(name in prop_oneof![soup(SPECIALS, 16), any::<String>()]) {
        if let Some(key) = decode_folder(&name) {
            prop_assert_eq!(encode_folder(&key), name.clone());
        }
        for tier in Tier::ALL {
            let file = format!("{name}.{tier}.md");
            match parse_file_name(&file) {
                Some((Some(key), parsed)) => {
                    prop_assert_eq!(parsed, tier);
                    // (A name past the file system's limit is never written: its key's file is shortened.)
                    if file.len() <= 255 {
                        prop_assert_eq!(file_name(&key, tier), file.clone());
                    }
                }
                Some((None, parsed)) => prop_assert_eq!(parsed, tier),
                None => prop_assert!(false, "{file:?} ends like a context file"),
            }
        }
    }
}
