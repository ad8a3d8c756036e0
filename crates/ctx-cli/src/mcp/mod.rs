//! `ctx mcp`: ctx's tools served to an agent over the Model Context Protocol
//! (JSON-RPC on stdin/stdout), on the official Rust SDK `rmcp`. rmcp's
//! major versions churn: it is used in this module only.
//!
//! One process serves one workspace and keeps it open, so the assembled
//! context cache and SQLite's page cache stay warm between calls. Every call
//! reads in its own short transaction, so what a `ctx` command wrote in the
//! meantime is seen by the next call; writes are `Workspace` methods, each
//! one short transaction, as on the command line.

mod artifact_tools;
mod tools;

use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use anyhow::Context as _;
use ctxkeep_core::Workspace;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde::Serialize;

use crate::commands::Env;
use crate::output;

/// What the model reads once, when it connects.
const INSTRUCTIONS: &str = "\
ctx knows this repository: folder context files, a repository map, the work tree (frames and \
tasks), decisions and session memory, in one local store. Start with `pack` (what matters now) \
or `context` (a folder), `map`/`rank` to find code for a task. For memory, go cheap first: \
`search` (compact hits with ids), then `timeline` around a hit, then `get` only the ids you need. \
Record what you learn: `log_decision`, `describe_folder`, `remember`. Planning artifacts (ACK): \
`artifact_context`, `artifact_resolve` a message's target, `artifact_apply` an operation, \
`artifact_prompt`. Errors carry a stable `code` (e.g. NOT_A_WORKSPACE: run `ctx init`; \
UNKNOWN_FOLDER; INVALID_INPUT); artifact errors are `{\"error\": \"SECTION_NOT_FOUND\", \"message\", \"suggestions\"}`.";

/// Serve until the client closes stdin.
pub fn run(env: Env) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the MCP server's runtime")?;
    runtime.block_on(async {
        let service = Server::new(env).serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        anyhow::Ok(())
    })
}

/// The server: the tools, and the workspace they share.
#[derive(Clone)]
pub struct Server {
    workspaces: Arc<Mutex<Workspaces>>,
    tool_router: ToolRouter<Server>,
}

/// The workspaces a call may need, opened on first use and kept open.
struct Workspaces {
    env: Env,
    /// The workspace (`.ctx/` here or above, or in `--root`).
    workspace: Option<Workspace>,
    /// Where there is no `.ctx/`: the one `map` and `rank` use, its store in
    /// the user's cache directory (as on the command line).
    cached: Option<Workspace>,
    /// When the workspace's configuration was last read.
    config_mtime: Option<SystemTime>,
}

fn config_mtime(ws: &Workspace) -> Option<SystemTime> {
    std::fs::metadata(ws.ctx_dir().join(ctxkeep_core::CONFIG_FILE)).and_then(|m| m.modified()).ok()
}

impl Workspaces {
    /// The workspace; until there is one, every call looks again (`ctx init`
    /// may run meanwhile). An edited `.ctx/config.toml` is read again (a
    /// broken one fails each call, as it fails each command, until fixed).
    fn workspace(&mut self) -> anyhow::Result<&mut Workspace> {
        if self.workspace.is_none() {
            let ws = self.env.workspace()?;
            self.config_mtime = config_mtime(&ws);
            self.workspace = Some(ws);
            self.cached = None;
        }
        let ws = self.workspace.as_mut().expect("opened above");
        let mtime = config_mtime(ws);
        if mtime != self.config_mtime {
            ws.reload_config()?;
            self.config_mtime = mtime;
        }
        Ok(ws)
    }

    /// The workspace, or where there is none, the cached one.
    fn workspace_or_cache(&mut self) -> anyhow::Result<&mut Workspace> {
        match self.workspace() {
            Ok(_) => self.workspace(),
            Err(err) if is_not_a_workspace(&err) => {
                if self.cached.is_none() {
                    self.cached = Some(self.env.workspace_or_cache()?);
                }
                Ok(self.cached.as_mut().expect("opened above"))
            }
            Err(err) => Err(err),
        }
    }
}

fn is_not_a_workspace(err: &anyhow::Error) -> bool {
    matches!(err.downcast_ref::<ctxkeep_core::Error>(), Some(ctxkeep_core::Error::NotAWorkspace { .. }))
}

/// Which workspace a tool needs.
#[derive(Clone, Copy)]
enum Needs {
    Workspace,
    /// `map` and `rank` work in any folder.
    AnyFolder,
}

impl Server {
    fn new(env: Env) -> Server {
        let workspaces = Workspaces { env, workspace: None, cached: None, config_mtime: None };
        Server {
            workspaces: Arc::new(Mutex::new(workspaces)),
            tool_router: Server::tool_router() + Server::artifact_tool_router(),
        }
    }

    /// Run `f` on the workspace on a blocking thread (the engine is
    /// synchronous), one call at a time. Any error becomes the tool's error
    /// result, with the code `--json` prints: never a failed server.
    async fn with<T, F>(&self, needs: Needs, f: F) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Workspace) -> anyhow::Result<T> + Send + 'static,
    {
        let workspaces = Arc::clone(&self.workspaces);
        let joined = tokio::task::spawn_blocking(move || {
            // A call that panicked leaves the workspace as usable as any
            // failed call does: every write is one transaction.
            let mut guard = workspaces.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let ws = match needs {
                Needs::Workspace => guard.workspace()?,
                Needs::AnyFolder => guard.workspace_or_cache()?,
            };
            f(ws)
        })
        .await;
        match joined {
            Ok(result) => result.map_err(ToolError::from),
            Err(err) => Err(ToolError(anyhow::anyhow!("internal error: {err}"))),
        }
    }
}

/// A tool's failure: reported as an MCP tool error (`isError`) whose text is
/// `{"error": {"code", "message"}}`, as `ctx --json` prints it.
pub struct ToolError(anyhow::Error);

impl From<anyhow::Error> for ToolError {
    fn from(err: anyhow::Error) -> ToolError {
        ToolError(err)
    }
}

impl From<ToolError> for CallToolResult {
    fn from(err: ToolError) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(output::error_json(&err.0).to_string())])
    }
}

impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::from(self).into())
    }
}

/// A tool's answer: `value` as structured content (it matches the tool's
/// output schema), and as text for the model either the value's JSON or,
/// for tools whose product is a rendered text (context, map, pack), that text.
fn reply<T: Serialize>(value: &T, text: Option<String>) -> Result<CallToolResult, ToolError> {
    let json = serde_json::to_value(value).context("cannot serialize the result")?;
    let mut result = CallToolResult::structured(json);
    if let Some(text) = text {
        result.content = vec![ContentBlock::text(text)];
    }
    Ok(result)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("ctx", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, ErrorData> {
        Ok(rmcp::model::ListToolsResult::with_all_items(self.tool_router.list_all()))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.tool_router.get(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let response = self.tool_router.call(ToolCallContext::new(self, request, context)).await?;
        Ok(match response {
            CallToolResponse::Complete(result) => CallToolResponse::Complete(coded(result)),
            other => other,
        })
    }
}

/// Arguments that do not fit a tool's input schema are rmcp's tool errors,
/// in its words: give them the code our own errors have.
fn coded(result: CallToolResult) -> CallToolResult {
    if result.is_error != Some(true) || result.content.iter().any(is_coded) {
        return result;
    }
    let message: Vec<&str> =
        result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect();
    let err = anyhow::Error::from(ctxkeep_core::Error::InvalidInput(message.join(" ")));
    ToolError(err).into()
}

fn is_coded(content: &ContentBlock) -> bool {
    content
        .as_text()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text.text).ok())
        // Ours: `{"error": {"code", …}}`, or an artifact error's seed object `{"error": "CODE", …}`.
        .is_some_and(|value| {
            value.pointer("/error/code").is_some_and(serde_json::Value::is_string)
                || value.get("error").is_some_and(serde_json::Value::is_string)
        })
}
