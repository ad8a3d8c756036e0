//! The README of the `ctxkeep` crate (crates/ctx-cli/README.md, its page on
//! crates.io): every `ctx` command it shows runs as it says.

use crate::util::Repo;

/// The commands of the README's `sh` block, comments and `cd` cut, split into
/// words (double quotes group words); `cargo install` is left out.
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme.split("```sh\n").nth(1).unwrap().split("```").next().unwrap();
    let mut commands = Vec::new();
    for line in block.lines() {
        let line = line.split("  #").next().unwrap().trim();
        let line = line.rsplit("&& ").next().unwrap();
        if line.starts_with("cargo install") {
            continue;
        }
        let words: Vec<String> = line
            .split('"')
            .enumerate()
            .flat_map(|(i, part)| match i % 2 {
                0 => part.split_whitespace().map(String::from).collect(),
                _ => vec![part.to_string()],
            })
            .collect();
        assert_eq!(words[0], "ctx", "a README line that is not a ctx command: {line}");
        commands.push(words[1..].to_vec());
    }
    commands
}

#[test]
fn the_ctxkeep_readme_commands_run() {
    let commands = readme_commands();
    assert!(commands.len() >= 5, "{commands:?}");
    let repo = Repo::with_files(
        "
        //- src/auth/jwt.rs
        pub fn sign_token(user: &str) -> String { format!(\"signed:{user}\") }
        //- src/db/pool.rs
        pub struct Pool;
        pub fn acquire(timeout_ms: u64) -> Pool { let _ = timeout_ms; Pool }
        //- src/main.rs
        mod auth;
        mod db;
        fn main() { let _ = db::acquire(5); println!(\"{}\", auth::sign_token(\"me\")); }
        ",
    );
    let home = tempfile::tempdir().unwrap();
    for args in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = repo.cmd(&args).env("HOME", home.path()).output().unwrap();
        assert!(out.status.success(), "ctx {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty(), "ctx {args:?} printed nothing");
    }
    // What the README says the last command did.
    assert!(repo.path(".mcp.json").is_file() && repo.path(".claude/settings.json").is_file());
}
