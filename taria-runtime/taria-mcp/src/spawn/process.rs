//! Starting the command: a pseudo-terminal of the asked size, the command looked up
//! like a shell would, the thread that reads the terminal and the one that waits for
//! the exit.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use tokio::sync::watch;

use crate::spawn::size::Size;

use super::OUTPUT_AFTER_EXIT;
use super::output::pump;
use super::terminal::Terminal;
use super::{ConsoleInput, Exit, Killer, Running, TAIL_BYTES};

pub(super) fn pty_size(size: Size) -> PtySize {
    PtySize {
        rows: size.rows,
        cols: size.cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// Opens the pseudo-terminal (`ConPTY` on Windows).
fn open_pty(size: Size) -> Result<portable_pty::PtyPair, String> {
    let open = || {
        native_pty_system()
            .openpty(pty_size(size))
            .map_err(|e| format!("no pseudo-terminal: {e}"))
    };
    // portable-pty panics where Windows has no ConPTY (before Windows 10 1809).
    #[cfg(windows)]
    let open = || {
        std::panic::catch_unwind(open).unwrap_or_else(|_| {
            Err(
                "no pseudo-terminal: this Windows has no ConPTY (Windows 10 1809 or newer is \
                 needed); start the app yourself and attach with --app <label>"
                    .to_owned(),
            )
        })
    };
    open()
}

/// Whether a program name is a path (like a shell: it has a separator), never looked
/// up in PATH.
fn names_a_path(program: &str) -> bool {
    #[cfg(windows)]
    return program.contains(['/', '\\']);
    #[cfg(not(windows))]
    program.contains('/')
}

/// Opens the pseudo-terminal, starts the command and the two threads.
pub(super) fn run(command: &[String], size: Size, socket: &Path) -> Result<Running, String> {
    let pair = open_pty(size)?;
    let mut argv: Vec<OsString> = command.iter().map(OsString::from).collect();
    let cwd = std::env::current_dir().ok();
    // Like a shell: a program name with a `/` is a path, never looked up in PATH
    // (portable-pty searches PATH for `dir/app` unless it starts with `./`; on Windows
    // an absolute path still gets PATHEXT's `.exe` if it has none).
    if let (Some(cwd), Some(program)) = (&cwd, command.first())
        && names_a_path(program)
        && Path::new(program).is_relative()
    {
        argv[0] = cwd.join(program).into_os_string();
    }
    let mut builder = CommandBuilder::from_argv(argv);
    // portable-pty would start it in $HOME; `cargo run` needs the caller's directory.
    if let Some(cwd) = cwd {
        builder.cwd(cwd);
    }
    builder.env(taria_schema::socket::SOCKET_ENV, socket);
    // Windows console apps do not read TERM (ConPTY speaks VT whatever it says).
    #[cfg(unix)]
    if std::env::var_os("TERM").is_none_or(|t| t.is_empty()) {
        builder.env("TERM", "xterm-256color");
    }
    // Taken before the child starts: ConPTY, asked by portable-pty to inherit the
    // cursor, may query the cursor position first and wait for the answer.
    let input: ConsoleInput =
        Arc::new(Mutex::new(pair.master.take_writer().map_err(|e| {
            format!("cannot write to the pseudo-terminal: {e}")
        })?));
    let mut child = pair
        .slave
        .spawn_command(builder)
        .map_err(|e| format!("{e:#}"))?;
    // Only the child holds the terminal's slave side now: its exit ends our reads.
    drop(pair.slave);
    let pid = child.process_id().unwrap_or(0);
    let mut killer = Killer {
        pid,
        #[cfg(windows)]
        child: child.clone_killer(),
    };
    let tail = Arc::new(Mutex::new(VecDeque::with_capacity(TAIL_BYTES)));
    let reader = pair.master.try_clone_reader();
    let (exit_tx, exit) = watch::channel(None);
    // The exit is made known once the output it left is read (or after
    // OUTPUT_AFTER_EXIT: a console may keep its output open after the app exits), so
    // whoever hears of the exit also finds its last words in the tail.
    let (output_read, output_read_rx) = std::sync::mpsc::channel::<()>();
    let waiter = std::thread::Builder::new()
        .name("taria-mcp-app-wait".into())
        .spawn(move || {
            let exit = match child.wait() {
                Ok(status) => Exit {
                    code: status.exit_code(),
                    signal: status.signal().map(str::to_owned),
                },
                Err(e) => Exit {
                    code: 1,
                    signal: Some(format!("unknown: {e}")),
                },
            };
            tracing::info!(pid, %exit, "the app exited");
            let _ = output_read_rx.recv_timeout(OUTPUT_AFTER_EXIT);
            exit_tx.send_replace(Some(exit));
        });
    if let Err(e) = waiter {
        killer.kill();
        return Err(format!("cannot start a thread: {e}"));
    }
    let terminal = Terminal::new(size);
    let keyed = terminal.keyed();
    let terminal = Arc::new(Mutex::new(terminal));
    match reader {
        Ok(reader) => {
            let tail = Arc::clone(&tail);
            let terminal = Arc::clone(&terminal);
            let input = Arc::clone(&input);
            let pump = std::thread::Builder::new()
                .name("taria-mcp-pty-read".into())
                .spawn(move || {
                    pump(reader, &tail, &terminal, input);
                    let _ = output_read.send(());
                });
            if let Err(e) = pump {
                killer.kill();
                return Err(format!("cannot start a thread: {e}"));
            }
        }
        Err(e) => {
            killer.kill();
            return Err(format!("cannot read the pseudo-terminal: {e}"));
        }
    }
    Ok(Running {
        pid,
        started: Instant::now(),
        master: Mutex::new(Some(pair.master)),
        size: Mutex::new(size),
        exit,
        tail,
        served: AtomicBool::new(false),
        killer: Mutex::new(killer),
        terminal,
        keyed,
        _input: input,
    })
}

/// The command as one line, quoted where needed.
pub(crate) fn shell_words(command: &[String]) -> String {
    command
        .iter()
        .map(|word| {
            if !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
            {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_quoted_for_messages() {
        let words = ["cargo", "run", "--example", "todo", "a b", "it's"].map(str::to_owned);
        assert_eq!(
            shell_words(&words),
            r"cargo run --example todo 'a b' 'it'\''s'"
        );
    }
}
