//! MCP over stdin/stdout: our own line transport in front of rmcp, and knowing when the
//! client has closed stdin.
//!
//! Each line is read strictly ([`crate::jsonrpc`]): a message rmcp can serve passes to
//! it, anything else is answered here with the JSON-RPC error and the request's id.
//! Input tool calls are numbered as they are read and answers seen as they are written
//! ([`crate::order`]), so inputs reach the app in arrival order.
//!
//! rmcp answers in-flight requests for up to 5 s after stdin closes before it cancels
//! them; `programs::serve` watches [`InputClosed`] to end the session sooner (see
//! `EOF_GRACE`).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use rmcp::transport::io::{StdioReader, StdioWriter};
use tokio::io::{
    AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader, ReadBuf,
};
use tokio::sync::watch;

use crate::jsonrpc::{self, Lifecycle, Verdict};
use crate::order::Arrivals;

/// Resolves once the client has closed stdin (or reading it failed).
#[derive(Clone, Debug)]
pub(crate) struct InputClosed(watch::Receiver<bool>);

impl InputClosed {
    /// Waits until stdin is closed.
    pub(crate) async fn wait(mut self) {
        // An error means the reader is gone without saying so: closed too.
        let _ = self.0.wait_for(|closed| *closed).await;
    }
}

/// Reads `inner`, telling [`InputClosed`] at its end.
#[derive(Debug)]
pub(crate) struct Input<R> {
    inner: R,
    closed: Option<watch::Sender<bool>>,
}

impl<R> Input<R> {
    /// `inner`, and what resolves when it ends.
    pub(crate) fn new(inner: R) -> (Input<R>, InputClosed) {
        let (tx, rx) = watch::channel(false);
        (
            Input {
                inner,
                closed: Some(tx),
            },
            InputClosed(rx),
        )
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Input<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let room = buf.remaining() > 0;
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(read) = &result {
            let ended = read.is_err() || (room && buf.filled().len() == before);
            if ended && let Some(closed) = self.closed.take() {
                let _ = closed.send(true);
            }
        }
        result
    }
}

/// The stdio transport, stdin watched for its end: rmcp's `stdio_pipes`, which are
/// non-blocking pipes on Linux when stdin and stdout are pipes (as most MCP hosts
/// start servers), and the blocking handles otherwise (macOS, Windows, a socketpair
/// stdin), read and written by [`Lines`]. Must be called inside the Tokio runtime.
pub(crate) fn transport(
    arrivals: Arrivals,
) -> (Lines<Input<StdioReader>, StdioWriter>, InputClosed) {
    let (reader, writer) = rmcp::transport::io::stdio_pipes();
    let (input, closed) = Input::new(reader);
    (Lines::new(input, writer, arrivals), closed)
}

/// MCP as lines of JSON (rmcp's framing: one message per line, at most
/// [`DEFAULT_MAX_LINE_LENGTH`] bytes), each line checked before rmcp sees it.
pub(crate) struct Lines<R, W> {
    read: BufReader<R>,
    /// The line read so far (kept when `receive` is cancelled mid-line).
    line: Vec<u8>,
    /// Dropping the rest of a line that was too long.
    discarding: bool,
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    arrivals: Arrivals,
    /// The session has started (see [`jsonrpc::before_start`]).
    started: bool,
}

/// What reading one line came to.
enum Read {
    Line,
    TooLong,
    End,
}

impl<R: AsyncRead + Unpin, W> Lines<R, W> {
    pub(crate) fn new(read: R, write: W, arrivals: Arrivals) -> Lines<R, W> {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            arrivals,
            started: false,
        }
    }

    /// Reads up to the next newline into `self.line`, never past the length limit.
    /// Cancel-safe: what was read stays in `self.line` (nothing is consumed between
    /// `fill_buf` and copying it).
    async fn read_line(&mut self) -> Read {
        loop {
            let available = match self.read.fill_buf().await {
                // A last line without its newline is read too.
                Ok([]) if self.line.is_empty() || self.discarding => return Read::End,
                Ok([]) => return Read::Line,
                Ok(available) => {
                    tracing::trace!(target: crate::latency::TARGET, "stdin read");
                    available
                }
                Err(e) => {
                    tracing::error!(error = %e, "reading stdin failed");
                    return Read::End;
                }
            };
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let mut too_long = false;
            if self.discarding {
                self.discarding = newline.is_none();
            } else if self.line.len().saturating_add(take) > DEFAULT_MAX_LINE_LENGTH {
                // Keep the start: the id is read from it.
                self.line.truncate(ID_SCAN_BYTES);
                self.discarding = newline.is_none();
                too_long = true;
            } else {
                self.line.extend_from_slice(&available[..take]);
            }
            self.read.consume(take);
            if too_long {
                return Read::TooLong;
            }
            if newline.is_some() && !self.discarding && !self.line.is_empty() {
                return Read::Line;
            }
        }
    }
}

/// How much of a line too long to read is kept to find its id.
const ID_SCAN_BYTES: usize = 64 * 1024;

impl<R, W> Lines<R, W>
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// Writes `line` (a whole message and its newline) in a task of its own, so a
    /// cancelled `receive` cannot leave half of it on stdout.
    fn answer(&self, line: Vec<u8>) {
        tokio::spawn(write_line(Arc::clone(&self.write), line));
    }
}

/// Writes one line and flushes it; stdout is closed once [`Transport::close`] ran.
async fn write_line<W: AsyncWrite + Unpin>(
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    line: Vec<u8>,
) -> io::Result<()> {
    let mut write = write.lock().await;
    let Some(out) = write.as_mut() else {
        return Err(io::Error::new(
            io::ErrorKind::NotConnected,
            "stdout is closed",
        ));
    };
    out.write_all(&line).await?;
    out.flush().await?;
    tracing::trace!(target: crate::latency::TARGET, "stdout");
    Ok(())
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.arrivals.answered(&item);
        let line = jsonrpc::outgoing(&item);
        let write = Arc::clone(&self.write);
        async move { write_line(write, line.map_err(io::Error::other)?).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let read = self.read_line().await;
            let verdict = match read {
                Read::End => return None,
                Read::Line => jsonrpc::triage(&self.line),
                Read::TooLong => jsonrpc::too_long(&self.line, DEFAULT_MAX_LINE_LENGTH),
            };
            self.line.clear();
            match verdict {
                Verdict::Pass(message) => {
                    if !self.started {
                        match jsonrpc::before_start(&message) {
                            Lifecycle::Starts => self.started = true,
                            Lifecycle::Waits => {}
                            Lifecycle::Dropped => {
                                tracing::warn!(
                                    "ignoring a notification or response sent before the \
                                     session started (initialize, or a request with its _meta)"
                                );
                                continue;
                            }
                        }
                    }
                    self.arrivals.arrived(&message);
                    tracing::trace!(target: crate::latency::TARGET, "call read");
                    return Some(*message);
                }
                Verdict::Answer(line) => self.answer(line),
                Verdict::Ignore => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.write.lock().await.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt as _;

    use super::Input;

    #[tokio::test]
    async fn the_end_of_input_is_told_once_read() {
        let (mut input, closed) = Input::new(&b"{}\n"[..]);
        let waiter = tokio::spawn(closed.clone().wait());
        let mut line = Vec::new();
        input.read_to_end(&mut line).await.unwrap();
        assert_eq!(line, b"{}\n");
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .expect("told of the end")
            .unwrap();
    }

    #[tokio::test]
    async fn data_is_not_the_end() {
        let (mut input, closed) = Input::new(&b"{}\n"[..]);
        let mut byte = [0u8; 1];
        input.read_exact(&mut byte).await.unwrap();
        let waited =
            tokio::time::timeout(std::time::Duration::from_millis(50), closed.wait()).await;
        assert!(waited.is_err(), "closed before the end");
    }
}
