//! The config file (`Config::load`: `.ctx/config.toml` as any bytes) and the
//! token budget's environment (`Budget::resolve`: any `CTX_TOKEN_BUDGET_*` values).

use std::collections::HashMap;

use ctxkeep_core::{Budget, Config, DEFAULT_CONFIG_TOML};
use proptest::prelude::*;

use super::soup;
use super::toml_text::spoiled_toml;

/// The shipped file with every key set (its commented keys uncommented):
/// each line a `key = value` to spoil, or a table header, or a comment.
/// `[artifacts.context]`, which the file leaves out, comes last.
fn default_lines() -> Vec<String> {
    let mut lines: Vec<String> = DEFAULT_CONFIG_TOML
        .lines()
        .map(|line| match line.strip_prefix("# ") {
            Some(rest) if rest.contains(" = ") && !rest.starts_with("regex") => rest.to_string(),
            _ => line.to_string(),
        })
        .collect();
    lines.extend(
        [
            "[artifacts.context]",
            "project = 1000",
            "current_artifact = 10000",
            "related_artifacts = 5000",
            "chat_history = 20000",
        ]
        .map(str::to_string),
    );
    lines
}

/// Lines of noise in a config file.
fn config_noise() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &["[scan]", "[[secrets.rules]]", "typo = 1", "[budget.x]", "id = \"mine\"", "keywords = [\"k\"]",]
                [..]
        )
        .prop_map(str::to_string),
        soup(&["[", "]", "=", "\"", "#"], 10),
    ]
}

/// An environment variable's value.
fn env_value() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        (0usize..10_000).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        prop::sample::select(&["18446744073709551616", "-5", " 900 ", "+7", "1e3", "",][..])
            .prop_map(str::to_string),
        soup(&["0", "9", " ", "-", "+", "\u{0}"], 6),
    ])
}

fn config_file() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => spoiled_toml(Just(default_lines()), config_noise(), 1),
        1 => prop::collection::vec(any::<u8>(), 0..400),
        1 => soup(&["[", "]", "=", "\"", "'''", "#", "\n", "scan", "budget", "total", "."], 30).prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(super::cases(1000))]

    /// Any bytes as the config file: a configuration or CONFIG_ERROR naming
    /// the file; then any environment: a consistent budget or INVALID_BUDGET.
    #[test]
    fn any_config_file_loads_or_is_refused(
        text in config_file(),
        env in prop::collection::vec(env_value(), 5),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, &text).unwrap();
        let config = match Config::load(&path) {
            Ok(config) => config,
            Err(err) => {
                prop_assert_eq!(err.code(), "CONFIG_ERROR", "{}", err);
                prop_assert!(err.to_string().contains("config.toml"), "{}", err);
                return Ok(());
            }
        };
        let names = ["TOTAL", "ANCESTORS", "SIBLINGS", "CURRENT", "OVERHEAD"];
        let env: HashMap<String, String> = names
            .iter()
            .zip(env)
            .filter_map(|(name, value)| Some((format!("CTX_TOKEN_BUDGET_{name}"), value?)))
            .collect();
        match Budget::resolve(&config.budget, &|name| env.get(name).cloned()) {
            Ok((budget, _)) => {
                let shares = [budget.ancestors, budget.siblings, budget.current, budget.overhead];
                prop_assert!(shares.iter().all(|s| *s > 0) && budget.total > 0);
                prop_assert!(shares.iter().map(|s| *s as u128).sum::<u128>() <= budget.total as u128, "{budget:?}");
            }
            Err(err) => prop_assert_eq!(err.code(), "INVALID_BUDGET", "{}", err),
        }
        let allocation = config.artifacts.context.scaled_to(usize::MAX);
        prop_assert!(allocation.total() >= allocation.project);
    }
}

/// Regression: a config file that is not UTF-8 was an IO_ERROR ("stream
/// did not contain valid UTF-8"), as if the disk had failed.
#[test]
fn a_config_file_that_is_not_utf8_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, b"[scan]\nhidden = true # caf\xE9\n").unwrap();
    let err = Config::load(&path).unwrap_err();
    assert_eq!(err.code(), "CONFIG_ERROR");
    let message = err.to_string();
    assert!(
        message.contains("config.toml") && message.contains("line 2") && message.contains("UTF-8"),
        "{message}"
    );
}

/// Regression: `[artifacts.context]` shares near the largest integer TOML
/// holds overflowed when added up (a panic in a debug build, a wrong sum
/// in a release one).
#[test]
fn huge_context_shares_add_up_without_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let max = i64::MAX;
    let text = format!(
        "[artifacts.context]\nproject = {max}\ncurrent_artifact = {max}\nrelated_artifacts = {max}\nchat_history = 1\n"
    );
    std::fs::write(&path, text).unwrap();
    let allocation = Config::load(&path).unwrap().artifacts.context;
    assert_eq!(allocation.total(), usize::MAX);
    let scaled = allocation.scaled_to(1000);
    assert!(scaled.total() <= 1000 && scaled.project >= 333, "{scaled:?}");
}
