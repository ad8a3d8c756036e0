//! One module per subcommand, each with a `run`.

pub mod artifact;
mod build;
mod cache;
mod eval;
mod folder;
mod frame;
mod hook;
mod init;
mod install;
mod log;
mod map;
mod memory;
mod scan;
mod secrets;
mod status;
mod task;
mod update;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use ctxkeep_core::{FolderPath, Workspace};

use crate::args::{Cli, Command};

/// What every command gets: where it runs and how it prints.
pub struct Env {
    pub cwd: PathBuf,
    pub root: Option<PathBuf>,
    pub json: bool,
    /// `--quiet`: what was asked for and problems, nothing else.
    pub quiet: bool,
    /// `--verbose`: timings, which files, whole lists.
    pub verbose: bool,
}

impl Env {
    /// The workspace: `--root`, else the nearest `.ctx/` above the current directory.
    pub fn workspace(&self) -> anyhow::Result<Workspace> {
        Ok(match &self.root {
            Some(root) => Workspace::open(root)?,
            None => Workspace::discover(&self.cwd)?,
        })
    }

    /// The workspace as [`Env::workspace`] finds it, or where there is none, one
    /// whose database lives in the user's cache directory (nothing is written here).
    pub fn workspace_or_cache(&self) -> anyhow::Result<Workspace> {
        Ok(match &self.root {
            Some(root) if root.join(ctxkeep_core::CTX_DIR).is_dir() => Workspace::open(root)?,
            Some(root) => Workspace::open_in_cache(root, &ctxkeep_core::default_cache_dir()?)?,
            None => Workspace::discover_or_cache(&self.cwd)?,
        })
    }

    /// A folder argument of `ws`: a file means its folder, which a note says.
    pub fn folder(&self, ws: &Workspace, input: &str) -> anyhow::Result<FolderPath> {
        let folder = ws.resolve_folder(&self.cwd, input)?;
        if let Some(file) = &folder.file {
            self.note(&format!("{file} is a file: using its folder {}", folder.key));
        }
        Ok(folder)
    }

    /// The key of a folder argument of `ws` (see [`Env::folder`]).
    pub fn folder_key(&self, ws: &Workspace, input: &str) -> anyhow::Result<String> {
        Ok(self.folder(ws, input)?.key)
    }

    /// A path argument that may name a file or a folder (a focus, an artifact) as a key of `ws`.
    pub fn path_key(&self, ws: &Workspace, input: &str) -> anyhow::Result<String> {
        Ok(ws.resolve_path(&self.cwd, input)?)
    }

    /// A line reporting the work done, on stdout, unless `--quiet`.
    pub fn report(&self, line: std::fmt::Arguments) -> std::io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        writeln!(std::io::stdout().lock(), "{line}")
    }

    /// An informational line on stderr, unless `--quiet`.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            crate::output::note(message);
        }
    }

    pub fn init_root(&self) -> &Path {
        self.root.as_deref().unwrap_or(&self.cwd)
    }
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let env = Env { cwd, root: cli.root, json: cli.json, quiet: cli.quiet, verbose: cli.verbose };
    match cli.command {
        Command::Init(args) => init::run(&env, &args),
        Command::Update(args) => return update::run(&env, &args),
        Command::Scan => scan::run(&env),
        Command::Status => status::run(&env),
        Command::Folder(command) => folder::run(&env, command),
        Command::Log(args) => log::run(&env, args),
        Command::Build(args) => build::build(&env, &args),
        Command::Context(args) => build::context(&env, &args),
        Command::Validate => return build::validate(&env),
        Command::Watch(args) => build::watch(&env, &args),
        Command::Map(args) => map::map(&env, &args),
        Command::Rank(args) => map::rank(&env, &args),
        Command::Eval(args) => eval::run(&env, &args),
        Command::Artifact(command) => return artifact::run(&env, command),
        Command::Frame(command) => frame::run(&env, command),
        Command::Task(command) => task::run(&env, command),
        Command::Cache(command) => cache::run(&env, command),
        Command::Record(command) => memory::record(&env, command),
        Command::Ingest(args) => memory::ingest(&env, &args),
        Command::Search(args) => memory::search(&env, &args),
        Command::Timeline(args) => memory::timeline(&env, &args),
        Command::Get(args) => memory::get(&env, &args),
        Command::Archive(args) => memory::archive(&env, &args),
        Command::Pack(args) => memory::pack(&env, &args),
        Command::Pin(command) => memory::pin(&env, command),
        Command::Secrets(command) => secrets::run(&env, command),
        Command::Install(args) => install::run(&env, &args, ctxkeep_core::install::Action::Install),
        Command::Uninstall(args) => install::run(&env, &args, ctxkeep_core::install::Action::Uninstall),
        Command::Mcp => crate::mcp::run(env),
        Command::Hook(args) => return Ok(hook::run(&env, &args)),
    }?;
    Ok(ExitCode::SUCCESS)
}
