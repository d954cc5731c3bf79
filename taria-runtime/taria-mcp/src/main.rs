//! `taria-mcp`: an MCP server (stdio) that lets an agent read and drive a running
//! taria app through its semantic tree. See `--help`.
//!
//! Nothing but JSON-RPC is written to stdout; logs go to stderr (filter: `TARIA_LOG`).
//!
//! This file only reads the command line ([`cli`]) and runs the program it names, each
//! a module of [`programs`]: the MCP server (`serve`), `view`, `test-from`, `audit`.
//! The rest are the MCP server's parts, which the programs build on.

// Built without the inspector (`--no-default-features`), what the server keeps only for
// it (the input calls' log, the screen's styles, the link's standing, the journals'
// watches) goes unused: left compiled rather than a `cfg` on each, in files of the server.
#![cfg_attr(
    not(feature = "inspector"),
    expect(
        dead_code,
        unused_imports,
        reason = "the server's parts that only the inspector reads"
    )
)]

mod cli;
mod errors;
mod input_log;
#[cfg(feature = "inspector")]
mod inspect;
mod journal;
mod jsonrpc;
mod latency;
mod limits;
mod link;
mod lock;
mod logs;
mod order;
mod plural;
mod programs;
mod recording;
mod render;
mod replay_code;
mod seen;
mod server;
mod spawn;
mod stdio;
mod styled_screen;
mod subscriptions;
mod tools;
mod unprompted_frame;

use std::process::ExitCode;

use cli::Command;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help(usage) => {
            eprintln!("{usage}");
            ExitCode::SUCCESS
        }
        Command::Version => {
            eprintln!("taria-mcp {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Run(options) => programs::serve::run(&options),
        // A recording turned into a Rust test: no MCP server.
        Command::TestFrom(options) => programs::test_from::run(&options),
        // A recording in the inspector: no app, no MCP server.
        Command::View(options) => programs::view::run(&options),
        // An app explored and checked: no MCP server on stdio (the bridge is served
        // in-process to the audit's own client).
        Command::Audit(options) => programs::audit::run(&options),
    }
}
