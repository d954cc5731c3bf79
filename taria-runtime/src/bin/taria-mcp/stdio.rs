//! MCP over stdin/stdout, and knowing when the client has closed stdin.
//!
//! rmcp answers in-flight requests for up to 5 s after stdin closes before it cancels
//! them; `main` watches [`InputClosed`] to end the session sooner (see `EOF_GRACE`).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::transport::io::{StdioReader, StdioWriter};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::watch;

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
/// stdin). Must be called inside the Tokio runtime.
pub(crate) fn transport() -> ((Input<StdioReader>, StdioWriter), InputClosed) {
    let (reader, writer) = rmcp::transport::io::stdio_pipes();
    let (input, closed) = Input::new(reader);
    ((input, writer), closed)
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
