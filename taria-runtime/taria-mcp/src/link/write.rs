//! Writing to the app: every message goes through [`Link::write`], which drops a
//! connection the app has stopped reading; and the screen, asked for and awaited.

use taria_schema::protocol::BridgeMessage;
use tokio::sync::oneshot;

use super::Link;
use super::connection::{Connection, Screen, Writer, write_message};
use crate::errors::{Code, ToolError};
use crate::limits::{ACK_TIMEOUT, WRITE_TIMEOUT};

impl Link {
    /// Writes `message` on `connection`. When the app has not read its socket for
    /// [`WRITE_TIMEOUT`], the connection is dropped: a line half written cannot be
    /// completed, and the app discards it when it sees the connection close.
    pub(super) async fn write(
        &self,
        connection: &Connection,
        writer: &Writer,
        message: &BridgeMessage,
    ) -> Result<(), ToolError> {
        match write_message(writer, message, || connection.is_open()).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotConnected => {
                Err(self.not_connected().with("sent", false))
            }
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                self.inner.stalled(connection.generation());
                Err(ToolError::new(
                    Code::Timeout,
                    format!(
                        "not sent: the app has not read its socket for {} s (is it stopped or \
                         stuck?). taria-mcp dropped the connection, so the app discards anything \
                         half sent, and reconnects on the next call",
                        WRITE_TIMEOUT.as_secs()
                    ),
                )
                .with("sent", false))
            }
            Err(e) => Err(ToolError::new(
                Code::AppExited,
                format!(
                    "not sent: the connection to the app failed ({e}); retry, taria-mcp reconnects"
                ),
            )
            .with("sent", false)),
        }
    }

    /// Asks for the rendered screen, connecting first when needed.
    pub(crate) async fn screen(&self) -> Result<Screen, ToolError> {
        self.ensure_connected().await?;
        self.screen_now(false).await
    }

    /// Asks for the rendered screen on the connection there is (never connecting),
    /// with its colours when `styles` (an app of an earlier release sends none).
    pub(crate) async fn screen_now(&self, styles: bool) -> Result<Screen, ToolError> {
        let (tx, rx) = oneshot::channel();
        let Some(connection) = self.open() else {
            return Err(self.not_connected());
        };
        let Some(writer) = connection.expect_screen(tx) else {
            return Err(self.not_connected());
        };
        self.write(&connection, &writer, &BridgeMessage::GetScreen { styles })
            .await?;
        match tokio::time::timeout(ACK_TIMEOUT, rx).await {
            Ok(Ok(Ok(screen))) => Ok(screen),
            Ok(Ok(Err(why))) => Err(self
                .cut_off_error(
                    &why,
                    ("", "before sending its screen"),
                    "; retry once it is back",
                )
                .await),
            Ok(Err(_)) => Err(ToolError::new(
                Code::AppExited,
                "the screen was lost on the way; retry",
            )),
            Err(_) => Err(ToolError::new(
                Code::Timeout,
                "the app did not send its screen within 5 s; its loop may be busy",
            )),
        }
    }
}
