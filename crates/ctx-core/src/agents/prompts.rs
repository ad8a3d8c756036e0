//! The prompts ctx ships into `.ctx/`: boot.md (how to get context here),
//! constitution.md (operating principles), runloop.md (the autonomous
//! loop's contract). `init` writes those that are absent; `update` also
//! upgrades one still exactly as some version of ctx shipped it, and leaves
//! one a person edited alone.
//!
//! Each prompt carries the blake3 hash of every version ever shipped,
//! current included (a unit test holds that): a file is "as shipped" when
//! its hash, line endings made LF first (a Windows checkout), is in the list.

use serde::Serialize;

/// A prompt file ctx ships.
pub(crate) struct Shipped {
    /// Its name in `.ctx/`.
    pub name: &'static str,
    /// The current text.
    pub text: &'static str,
    /// The blake3 hashes (hex, of the LF text) of every shipped version.
    pub versions: &'static [&'static str],
}

pub(crate) const PROMPTS: &[Shipped] = &[
    Shipped {
        name: "boot.md",
        text: crate::build::BOOT_MD,
        versions: &[
            // e7f8e3f: the first boot.md.
            "f1b6c16a809b849830bca72fa4f59b3f9c9bcd7a5a7c9c4c840a9133fbf1d5c8",
            // 46f56b7: dot-folders written %2E.
            "30406e9252fd70676f6bfce011c0095147d5c2efc57024d21d583573aea8e1aa",
            // Names the map, rank, memory, frames, tasks and the knowledge files; update upgrades it.
            "233b756e7f30f060e4b53206a70122abf250692a017cdda6907ffc686a82e4c2",
        ],
    },
    Shipped {
        name: "constitution.md",
        text: include_str!("../../defaults/constitution.md"),
        versions: &["90335b2550a3bed97f785f8b83c77efde4ca84363f2cde41618b80ba56269b2e"],
    },
    Shipped {
        name: "runloop.md",
        text: include_str!("../../defaults/runloop.md"),
        versions: &["eee099d0648af6660d88cc28da004ffa2e61c3a1376d0cfcf699bc154f35530b"],
    },
];

/// What a prompt file on disk is, compared with what ctx ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptState {
    /// No such file.
    Absent,
    /// Exactly the current text (line endings aside).
    Current,
    /// An older shipped version, never edited: upgraded by `update`.
    Outdated,
    /// Edited by someone: left alone.
    Edited,
}

/// The hash that identifies a shipped version: blake3 of the text with CRLF made LF.
pub(crate) fn version_hash(bytes: &[u8]) -> String {
    let mut hasher = blake3::Hasher::new();
    let mut rest = bytes;
    while let Some(at) = rest.windows(2).position(|w| w == b"\r\n") {
        hasher.update(&rest[..at]);
        rest = &rest[at + 1..];
    }
    hasher.update(rest);
    hasher.finalize().to_hex().to_string()
}

impl Shipped {
    /// What `existing` (the file's bytes, `None`: absent) is.
    pub fn state(&self, existing: Option<&[u8]>) -> PromptState {
        let Some(bytes) = existing else { return PromptState::Absent };
        let hash = version_hash(bytes);
        if hash == version_hash(self.text.as_bytes()) {
            PromptState::Current
        } else if self.versions.contains(&hash.as_str()) {
            PromptState::Outdated
        } else {
            PromptState::Edited
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_current_text_is_in_its_list_of_versions() {
        for prompt in PROMPTS {
            let hash = version_hash(prompt.text.as_bytes());
            assert!(
                prompt.versions.contains(&hash.as_str()),
                "{}: add {hash} to its versions (keep the old ones: they are upgraded)",
                prompt.name
            );
        }
    }

    #[test]
    fn states() {
        let boot = &PROMPTS[0];
        assert_eq!(boot.state(None), PromptState::Absent);
        assert_eq!(boot.state(Some(boot.text.as_bytes())), PromptState::Current);
        let crlf = boot.text.replace('\n', "\r\n");
        assert_eq!(boot.state(Some(crlf.as_bytes())), PromptState::Current);
        assert_eq!(boot.state(Some(b"# mine\n")), PromptState::Edited);
        let edited = format!("{}\nmy line\n", boot.text);
        assert_eq!(boot.state(Some(edited.as_bytes())), PromptState::Edited);
    }

    #[test]
    fn the_boot_files_shipped_before_are_outdated() {
        // The texts of boot.md at e7f8e3f and 46f56b7, kept for this test.
        let first = include_str!("testdata/boot-e7f8e3f.md");
        let second = include_str!("testdata/boot-46f56b7.md");
        for old in [first, second] {
            assert_eq!(PROMPTS[0].state(Some(old.as_bytes())), PromptState::Outdated);
            assert_eq!(PROMPTS[0].state(Some(old.replace('\n', "\r\n").as_bytes())), PromptState::Outdated);
        }
    }
}
