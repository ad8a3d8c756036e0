//! `ctx cache clear [ID]`.

use super::Env;
use crate::args::CacheCommand;
use crate::output;

pub fn run(env: &Env, command: CacheCommand) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let CacheCommand::Clear { id } = command;
    let cleared = ws.clear_context_cache(id.as_deref())?;
    if env.json {
        return output::json(&serde_json::json!({ "cleared": cleared }));
    }
    env.report(format_args!("cleared {}", ctxkeep_core::wording::count(cleared, "cached context")))?;
    Ok(())
}
