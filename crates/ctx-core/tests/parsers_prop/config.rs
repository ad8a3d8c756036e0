//! The config file (`Config::load`: `.ctx/config.toml` as any bytes) and the
//! token budget's environment (`Budget::resolve`: any `CTX_TOKEN_BUDGET_*` values).

use std::collections::HashMap;

use ctxkeep_core::{Budget, Config, DEFAULT_CONFIG_TOML};
use proptest::prelude::*;

use super::soup;

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

/// A TOML value of any type, the awkward ones favoured.
fn odd_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("9223372036854775807".to_string()),
        Just("99999999999999999999999".to_string()),
        Just("1e309".to_string()),
        Just("nan".to_string()),
        Just("-inf".to_string()),
        Just("0x7FFFFFFFFFFFFFFF".to_string()),
        Just("true".to_string()),
        Just("\"\"".to_string()),
        Just("\"\\u0000\\r\\n\"".to_string()),
        Just("'(a+)+$'".to_string()),
        Just("'a{1000}{1000}'".to_string()),
        Just("'\\p{Nope}'".to_string()),
        Just("'(?<x>'".to_string()),
        Just("[\"../x\", \"/abs\", \".ctx/x\", \"\", \"a\", \"a\"]".to_string()),
        Just("[\"{\", \"**/[\", \"\\\\\"]".to_string()),
        Just("[\"pack\", \"pack\"]".to_string()),
        Just("{ a = 1 }".to_string()),
        Just("1979-05-27T07:32:00Z".to_string()),
        (1usize..200).prop_map(|n| format!("{}1{}", "[".repeat(n), "]".repeat(n))),
        (1usize..200).prop_map(|n| format!("{}{}", "{ a = ".repeat(n), "}".repeat(n))),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|n| format!("{n:?}")),
        soup(&["\"", "'", "[", "]", "=", "{", "}", "\\", "#", "\n", ".", ","], 12),
    ]
}

/// How the shipped file is spoiled.
#[derive(Debug, Clone)]
enum Spoil {
    /// A key gets another value.
    Value(prop::sample::Index, String),
    /// A line goes.
    Drop(prop::sample::Index),
    /// A line of noise goes in.
    Insert(prop::sample::Index, String),
    /// The text is cut short.
    Truncate(prop::sample::Index),
}

fn spoil() -> impl Strategy<Value = Spoil> {
    prop_oneof![
        4 => (any::<prop::sample::Index>(), odd_value()).prop_map(|(i, v)| Spoil::Value(i, v)),
        1 => any::<prop::sample::Index>().prop_map(Spoil::Drop),
        1 => (any::<prop::sample::Index>(), prop_oneof![
            Just("[scan]".to_string()), Just("[[secrets.rules]]".to_string()), Just("typo = 1".to_string()),
            Just("[budget.x]".to_string()), Just("id = \"mine\"".to_string()), Just("keywords = [\"k\"]".to_string()),
            soup(&["[", "]", "=", "\"", "#"], 10),
        ]).prop_map(|(i, l)| Spoil::Insert(i, l)),
        1 => any::<prop::sample::Index>().prop_map(Spoil::Truncate),
    ]
}

fn near_valid() -> impl Strategy<Value = Vec<u8>> {
    (prop::collection::vec(spoil(), 1..5), any::<bool>()).prop_map(|(spoils, crlf)| {
        let mut lines = default_lines();
        let mut truncate = None;
        for spoil in spoils {
            match spoil {
                Spoil::Value(i, value) => {
                    let keys: Vec<usize> = (0..lines.len()).filter(|&l| lines[l].contains(" = ")).collect();
                    let line = &mut lines[keys[i.index(keys.len())]];
                    let key = line.split(" = ").next().unwrap().to_string();
                    *line = format!("{key} = {value}");
                }
                Spoil::Drop(i) => {
                    let at = i.index(lines.len());
                    lines.remove(at);
                }
                Spoil::Insert(i, line) => {
                    let at = i.index(lines.len() + 1);
                    lines.insert(at, line);
                }
                Spoil::Truncate(i) => truncate = Some(i),
            }
        }
        let mut text = lines.join(if crlf { "\r\n" } else { "\n" }).into_bytes();
        if let Some(i) = truncate {
            text.truncate(i.index(text.len()));
        }
        text
    })
}

/// An environment variable's value.
fn env_value() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        (0usize..10_000).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just("18446744073709551616".to_string()),
        Just("-5".to_string()),
        Just(" 900 ".to_string()),
        Just("+7".to_string()),
        Just("1e3".to_string()),
        Just("".to_string()),
        soup(&["0", "9", " ", "-", "+", "\u{0}"], 6),
    ])
}

fn config_file() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => near_valid(),
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
