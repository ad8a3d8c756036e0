//! Token budgets of assembled work context: a total, and the shares of the
//! ancestors, the siblings, the current frame and the document's structure.
//!
//! Each number comes from, highest priority first:
//! 1. the environment: `CTX_TOKEN_BUDGET_TOTAL`, `_ANCESTORS`, `_SIBLINGS`,
//!    `_CURRENT`, `_OVERHEAD` (an empty variable counts as unset);
//! 2. `[budget]` in `.ctx/config.toml`;
//! 3. the defaults: 4000 = 1500 + 1500 + 800 + 200.
//!
//! A total given without any share scales the default shares to it (their
//! proportions kept, rounded down). Every number must be a whole number above
//! zero and the shares must add up to at most the total; an error names where
//! the offending number came from.

use serde::{Deserialize, Serialize};

use crate::config::BudgetConfig;
use crate::error::{Error, Result};

/// A resolved, consistent token budget. Stable JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Budget {
    pub total: usize,
    pub ancestors: usize,
    pub siblings: usize,
    pub current: usize,
    /// Reserved for the document's own structure (root element, metadata, headings).
    pub overhead: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { total: 4000, ancestors: 1500, siblings: 1500, current: 800, overhead: 200 }
    }
}

/// Where each number of a [`Budget`] came from: `default`, `.ctx/config.toml`
/// or the environment variable's name. Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BudgetSources {
    pub total: String,
    pub ancestors: String,
    pub siblings: String,
    pub current: String,
    pub overhead: String,
}

/// The parts of a budget, in order: (name, environment variable).
const PARTS: [(&str, &str); 5] = [
    ("total", "CTX_TOKEN_BUDGET_TOTAL"),
    ("ancestors", "CTX_TOKEN_BUDGET_ANCESTORS"),
    ("siblings", "CTX_TOKEN_BUDGET_SIBLINGS"),
    ("current", "CTX_TOKEN_BUDGET_CURRENT"),
    ("overhead", "CTX_TOKEN_BUDGET_OVERHEAD"),
];

/// What the config's `[budget]` is called in messages.
const CONFIG_SOURCE: &str = ".ctx/config.toml";

/// The source of a number nobody gave.
const DEFAULT_SOURCE: &str = "default";

/// The source of a default share scaled to a total given without shares.
const SCALED_SOURCE: &str = "default, scaled to the total";

impl Budget {
    /// The budget from the defaults, `config` and the environment as `env`
    /// reads it (`std::env::var` in the front-ends; a map in tests).
    pub fn resolve(
        config: &BudgetConfig,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(Budget, BudgetSources)> {
        let defaults = Budget::default();
        let default_values =
            [defaults.total, defaults.ancestors, defaults.siblings, defaults.current, defaults.overhead];
        let configured = [config.total, config.ancestors, config.siblings, config.current, config.overhead];
        let mut values = [0usize; 5];
        let mut sources: [String; 5] = Default::default();
        for (i, (name, var)) in PARTS.iter().enumerate() {
            let from_env = env(var).filter(|v| !v.trim().is_empty());
            let (value, source) = match (from_env, configured[i]) {
                (Some(text), _) => (parse_env(var, &text)?, var.to_string()),
                (None, Some(n)) => {
                    let source = format!("{CONFIG_SOURCE} [budget] {name}");
                    let n = usize::try_from(n)
                        .map_err(|_| Error::Budget(format!("{source}: {n} is too large")))?;
                    (n, source)
                }
                (None, None) => (default_values[i], DEFAULT_SOURCE.to_string()),
            };
            if value == 0 {
                return Err(Error::Budget(format!("{source}: the {name} budget must be above 0 tokens")));
            }
            values[i] = value;
            sources[i] = source;
        }
        // A total given alone keeps the defaults' proportions.
        if sources[0] != DEFAULT_SOURCE && sources[1..].iter().all(|source| source == DEFAULT_SOURCE) {
            for i in 1..values.len() {
                values[i] = scaled(default_values[i], values[0], defaults.total);
                sources[i] = SCALED_SOURCE.to_string();
            }
        }
        let [total, ancestors, siblings, current, overhead] = values;
        let budget = Budget { total, ancestors, siblings, current, overhead };
        let [total_src, ancestors_src, siblings_src, current_src, overhead_src] = sources;
        let sources = BudgetSources {
            total: total_src,
            ancestors: ancestors_src,
            siblings: siblings_src,
            current: current_src,
            overhead: overhead_src,
        };
        let shares = ancestors.saturating_add(siblings).saturating_add(current).saturating_add(overhead);
        if shares > total {
            return Err(Error::Budget(format!(
                "token budget: the shares add up to {shares} tokens (ancestors {ancestors} from {}, siblings \
                 {siblings} from {}, current {current} from {}, overhead {overhead} from {}), over the total \
                 {total} from {}",
                sources.ancestors, sources.siblings, sources.current, sources.overhead, sources.total
            )));
        }
        Ok((budget, sources))
    }

    /// The budget from `config` and the process environment.
    pub fn from_env(config: &BudgetConfig) -> Result<(Budget, BudgetSources)> {
        Budget::resolve(config, &|name| std::env::var(name).ok())
    }
}

/// `share` of `of` tokens, as a share of `total`: rounded down, at least 1
/// (too small a total then fails the check of the shares' sum).
fn scaled(share: usize, total: usize, of: usize) -> usize {
    let scaled = share as u128 * total as u128 / of.max(1) as u128;
    usize::try_from(scaled).unwrap_or(usize::MAX).max(1)
}

fn parse_env(var: &str, text: &str) -> Result<usize> {
    text.trim()
        .parse::<usize>()
        .map_err(|_| Error::Budget(format!("{var}: {text:?} is not a whole number of tokens")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(config: &BudgetConfig, env: &[(&str, &str)]) -> Result<(Budget, BudgetSources)> {
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Budget::resolve(config, &move |name| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    #[test]
    fn defaults_then_config_then_environment() {
        let (budget, sources) = resolve(&BudgetConfig::default(), &[]).unwrap();
        assert_eq!(budget, Budget::default());
        assert_eq!(sources.total, "default");

        let config = BudgetConfig { total: Some(8000), siblings: Some(3000), ..Default::default() };
        let (budget, sources) = resolve(&config, &[]).unwrap();
        assert_eq!((budget.total, budget.siblings, budget.ancestors), (8000, 3000, 1500));
        assert_eq!(sources.siblings, ".ctx/config.toml [budget] siblings");

        let env = [("CTX_TOKEN_BUDGET_SIBLINGS", "2500"), ("CTX_TOKEN_BUDGET_CURRENT", " 900 ")];
        let (budget, sources) = resolve(&config, &env).unwrap();
        assert_eq!((budget.total, budget.siblings, budget.current), (8000, 2500, 900));
        assert_eq!(sources.siblings, "CTX_TOKEN_BUDGET_SIBLINGS");
        // An empty variable is unset.
        let (budget, _) = resolve(&config, &[("CTX_TOKEN_BUDGET_TOTAL", "")]).unwrap();
        assert_eq!(budget.total, 8000);
    }

    #[test]
    fn bad_values_name_their_source() {
        let err = resolve(&BudgetConfig::default(), &[("CTX_TOKEN_BUDGET_TOTAL", "lots")]).unwrap_err();
        assert_eq!(err.code(), "INVALID_BUDGET");
        assert_eq!(err.to_string(), "CTX_TOKEN_BUDGET_TOTAL: \"lots\" is not a whole number of tokens");
        for bad in ["-5", "1.5", "4k"] {
            assert!(
                resolve(&BudgetConfig::default(), &[("CTX_TOKEN_BUDGET_CURRENT", bad)]).is_err(),
                "{bad}"
            );
        }

        let err = resolve(&BudgetConfig::default(), &[("CTX_TOKEN_BUDGET_OVERHEAD", "0")]).unwrap_err();
        assert!(
            err.to_string().starts_with("CTX_TOKEN_BUDGET_OVERHEAD: the overhead budget must be above 0"),
            "{err}"
        );
        let config = BudgetConfig { ancestors: Some(0), ..Default::default() };
        let err = resolve(&config, &[]).unwrap_err();
        assert!(err.to_string().starts_with(".ctx/config.toml [budget] ancestors:"), "{err}");
    }

    #[test]
    fn shares_over_the_total_are_an_error_naming_every_source() {
        let config = BudgetConfig { total: Some(3000), ..Default::default() };
        let err = resolve(&config, &[("CTX_TOKEN_BUDGET_ANCESTORS", "2000")]).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("add up to 4500 tokens"), "{message}");
        assert!(message.contains("ancestors 2000 from CTX_TOKEN_BUDGET_ANCESTORS"), "{message}");
        assert!(message.contains("over the total 3000 from .ctx/config.toml [budget] total"), "{message}");
        // Exactly the total is fine.
        let env = [("CTX_TOKEN_BUDGET_TOTAL", "4000"), ("CTX_TOKEN_BUDGET_CURRENT", "800")];
        assert!(resolve(&BudgetConfig::default(), &env).is_ok());
    }

    #[test]
    fn a_total_alone_scales_the_default_shares() {
        let (budget, sources) =
            resolve(&BudgetConfig::default(), &[("CTX_TOKEN_BUDGET_TOTAL", "1000")]).unwrap();
        assert_eq!(budget, Budget { total: 1000, ancestors: 375, siblings: 375, current: 200, overhead: 50 });
        assert_eq!(
            (sources.total.as_str(), sources.overhead.as_str()),
            ("CTX_TOKEN_BUDGET_TOTAL", SCALED_SOURCE)
        );
        let config = BudgetConfig { total: Some(10_000), ..Default::default() };
        let (budget, _) = resolve(&config, &[]).unwrap();
        assert_eq!((budget.ancestors, budget.current, budget.overhead), (3750, 2000, 500));
        // Rounded down, so never over the total; at least 1 each.
        for total in [4, 7, 999, 4001, 123_457] {
            let (budget, _) =
                resolve(&BudgetConfig::default(), &[("CTX_TOKEN_BUDGET_TOTAL", &total.to_string())])
                    .unwrap_or_else(|err| panic!("{total}: {err}"));
            let shares = budget.ancestors + budget.siblings + budget.current + budget.overhead;
            assert!(shares <= total && budget.overhead >= 1, "{total}: {budget:?}");
        }
        assert_eq!(
            resolve(&BudgetConfig::default(), &[("CTX_TOKEN_BUDGET_TOTAL", "3")]).unwrap_err().code(),
            "INVALID_BUDGET"
        );
        // Huge totals do not overflow.
        let config = BudgetConfig { total: Some(u64::MAX / 2), ..Default::default() };
        assert!(resolve(&config, &[]).is_ok());
        // A share given with the total: the other defaults stay as they are.
        let env = [("CTX_TOKEN_BUDGET_TOTAL", "8000"), ("CTX_TOKEN_BUDGET_SIBLINGS", "2000")];
        let (budget, sources) = resolve(&BudgetConfig::default(), &env).unwrap();
        assert_eq!((budget.ancestors, budget.siblings, sources.ancestors.as_str()), (1500, 2000, "default"));
    }
}
