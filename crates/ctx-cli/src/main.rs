//! `ctx`: the command-line front-end of ctx. Parsing and printing live here;
//! everything else is in the library crates.

mod args;
mod commands;
mod mcp;
mod output;

use std::process::ExitCode;

use clap::Parser;

use crate::args::Cli;

// The map and the scan allocate many small strings (names, signatures,
// paths); mimalloc makes a warm `ctx map` of 2,000 files a fifth faster.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit codes: a small fixed set, chosen only here.
const EXIT_ERROR: u8 = 1;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let json = cli.json;
    let code = match commands::run(cli) {
        Ok(code) => code,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            output::print_error(&err, json);
            ExitCode::from(EXIT_ERROR)
        }
    };
    exit_now(code)
}

/// End the process with `code`, every output written and the store closed,
/// without the C runtime's teardown: there mimalloc collects and purges every
/// page it holds (after a warm map, 5–8 ms of a command of 70), memory the
/// system takes back at once anyway. Where that cannot be done, `code`.
fn exit_now(code: ExitCode) -> ExitCode {
    use std::io::Write;
    // As the runtime's own flush at exit: a closed stdout is no error now.
    let _ = std::io::stdout().flush();
    #[cfg(unix)]
    if let Some(status) = (0..=u8::MAX).find(|&status| ExitCode::from(status) == code) {
        // SAFETY: `_exit` only ends the process; nothing of it is used after.
        unsafe { libc::_exit(i32::from(status)) }
    }
    code
}
