//! `taria-mcp`: an MCP server (stdio) that lets an agent read and drive a running
//! taria app through its semantic tree. See `--help`.
//!
//! Nothing but JSON-RPC is written to stdout; logs go to stderr (filter: `TARIA_LOG`).

mod cli;
mod errors;
mod link;
mod render;
mod server;
mod tools;

use std::process::ExitCode;

use rmcp::ServiceExt as _;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("taria-mcp: {message}");
            return ExitCode::from(2);
        }
    };
    let options = match command {
        cli::Command::Help => {
            eprintln!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        cli::Command::Version => {
            eprintln!("taria-mcp {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        cli::Command::Run(options) => options,
    };
    let socket = match &options.target {
        cli::Target::Socket(path) => path.clone(),
        cli::Target::Label(label) => match taria::socket_path(label) {
            Ok(path) => path,
            Err(e) => {
                eprintln!("taria-mcp: {e}");
                return ExitCode::from(2);
            }
        },
        cli::Target::Spawn(_) => {
            eprintln!(
                "taria-mcp: spawn mode is not built yet; start the app yourself and attach with \
                 --app <label>"
            );
            return ExitCode::from(2);
        }
    };
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("taria-mcp: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(socket, options.idle_release)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "taria-mcp stopped");
            ExitCode::FAILURE
        }
    }
}

/// Logs to stderr, filtered by `TARIA_LOG` (default: warnings).
fn init_tracing() {
    let filter = EnvFilter::try_from_env("TARIA_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
}

/// Serves MCP on stdin/stdout until the client closes stdin.
async fn serve(
    socket: std::path::PathBuf,
    idle_release: Option<std::time::Duration>,
) -> Result<(), Box<dyn std::error::Error>> {
    let link = link::Link::new(socket, idle_release);
    tracing::info!(socket = %link.socket().display(), "taria-mcp serving on stdio");
    let service = server::Bridge::new(link)
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
