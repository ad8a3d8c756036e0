//! TOML text that is almost right: real files spoiled line by line (the
//! config file, the front matter of knowledge files).

use proptest::prelude::*;

use super::soup;

/// A TOML value of any type, the awkward ones favoured.
pub fn toml_value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "-1",
                "0",
                "9223372036854775807",
                "99999999999999999999999",
                "1e309",
                "nan",
                "-inf",
                "0x7FFFFFFFFFFFFFFF",
                "true",
                "\"\"",
                "\"\\u0000\\r\\n\"",
                "'(a+)+$'",
                "'a{1000}{1000}'",
                "'\\p{Nope}'",
                "'(?<x>'",
                "[\"../x\", \"/abs\", \".ctx/x\", \"\", \"a\", \"a\"]",
                "[\"{\", \"**/[\", \"\\\\\"]",
                "[\"pack\", \"pack\"]",
                "{ a = 1 }",
                "1979-05-27T07:32:00Z",
            ][..]
        )
        .prop_map(str::to_string),
        (1usize..200).prop_map(|n| format!("{}1{}", "[".repeat(n), "]".repeat(n))),
        (1usize..200).prop_map(|n| format!("{}{}", "{ a = ".repeat(n), "}".repeat(n))),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|n| format!("{n:?}")),
        soup(&["\"", "'", "[", "]", "=", "{", "}", "\\", "#", "\n", ".", ","], 12),
    ]
}

/// How a TOML file is spoiled.
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

/// A spoil; `cuts` weighs dropped lines and truncation (against 4 for a value, 1 for noise).
fn spoil(noise: impl Strategy<Value = String>, cuts: u32) -> impl Strategy<Value = Spoil> {
    prop_oneof![
        4 => (any::<prop::sample::Index>(), toml_value()).prop_map(|(i, v)| Spoil::Value(i, v)),
        cuts => any::<prop::sample::Index>().prop_map(Spoil::Drop),
        1 => (any::<prop::sample::Index>(), noise).prop_map(|(i, l)| Spoil::Insert(i, l)),
        cuts => any::<prop::sample::Index>().prop_map(Spoil::Truncate),
    ]
}

/// The text of `lines` (a TOML file's) spoiled one to four times: a
/// value of another type, a line of `noise` put in, and (weighed by
/// `cuts`, 0: never) a line dropped, the text cut short; LF or CRLF.
pub fn spoiled_toml(
    lines: impl Strategy<Value = Vec<String>>,
    noise: impl Strategy<Value = String>,
    cuts: u32,
) -> impl Strategy<Value = Vec<u8>> {
    (lines, prop::collection::vec(spoil(noise, cuts), 1..5), any::<bool>()).prop_map(
        |(mut lines, spoils, crlf)| {
            let mut truncate = None;
            for spoil in spoils {
                match spoil {
                    Spoil::Value(i, value) => {
                        let keys: Vec<usize> =
                            (0..lines.len()).filter(|&l| lines[l].contains(" = ")).collect();
                        if keys.is_empty() {
                            continue;
                        }
                        let line = &mut lines[keys[i.index(keys.len())]];
                        let key = line.split(" = ").next().unwrap().to_string();
                        *line = format!("{key} = {value}");
                    }
                    Spoil::Drop(i) if !lines.is_empty() => {
                        let at = i.index(lines.len());
                        lines.remove(at);
                    }
                    Spoil::Drop(_) => {}
                    Spoil::Insert(i, line) => {
                        let at = i.index(lines.len() + 1);
                        lines.insert(at, line);
                    }
                    Spoil::Truncate(i) => truncate = Some(i),
                }
            }
            let mut text = lines.join(if crlf { "\r\n" } else { "\n" }).into_bytes();
            if let Some(i) = truncate {
                text.truncate(i.index(text.len().max(1)));
            }
            text
        },
    )
}
