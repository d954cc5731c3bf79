//! An input's answer: the app's ack turned into the result (with what changed in the
//! tree drawn after it) or into an error that says what to do next.

use std::fmt::Write as _;
use std::sync::Arc;

use taria_schema::outline::OutlineQuoted;

use taria_schema::Tree;
use taria_schema::protocol::KEY_GRAMMAR;
use taria_schema::protocol::{AckStatus, RejectReason};

use super::result::InputResult;
use crate::errors::{Code, ToolError};
use crate::link::{Ack, Inputs, Sent};
use crate::seen::Seen;
use crate::tools::change;

/// The error for an ack that is not `delivered`. A status this taria-mcp does not
/// know is `protocol_mismatch`: the app answered, but not in words this bridge can
/// read, so the input's effect is unknown (it may have been applied: `app_rejected`
/// would say it was not, and invite a retry that could apply it twice).
pub(crate) fn ack_error(ack: &Ack, node: Option<&str>) -> ToolError {
    let said = ack.message.clone().unwrap_or_default();
    let status = match &ack.status {
        Ok(status) => *status,
        Err(unknown) => return unknown_status(unknown, &said),
    };
    let node = node.unwrap_or("the node");
    let (code, next) = match (status, ack.reason) {
        (_, Some(RejectReason::UnknownNode)) => (
            Code::NotFound,
            format!(
                "the app has no `{node}` now (the tree changed); read_tree or find_nodes again"
            ),
        ),
        (_, Some(RejectReason::ActionNotOffered)) => (
            Code::ActionUnsupported,
            "the node no longer offers it; read_tree to see what it offers now".to_owned(),
        ),
        (_, Some(RejectReason::Disabled)) => (
            Code::Disabled,
            "it is disabled now; wait_for_change or change what it depends on".to_owned(),
        ),
        (_, Some(RejectReason::OutOfDomain)) => (
            Code::OutOfDomain,
            "check the node's valueSchema (read_tree format=json)".to_owned(),
        ),
        (_, Some(RejectReason::StaleTarget)) => (
            Code::StaleReference,
            format!(
                "`{node}` names another node than the one you read (the list changed); find it \
                 again with find_nodes and retry with its current id"
            ),
        ),
        (_, Some(RejectReason::InvalidInput)) => (Code::InvalidArguments, KEY_GRAMMAR.to_owned()),
        // The app's message says it all (the words the pre-check uses).
        (_, Some(RejectReason::NoTextInput)) => {
            return ToolError::new(Code::ActionUnsupported, said).with("status", "rejected");
        }
        (_, Some(RejectReason::HandlerRejected)) => (
            Code::AppRejected,
            "the app's handler refused it; read its message, fix the cause, retry".to_owned(),
        ),
        (_, Some(RejectReason::WidgetRejected)) => (
            Code::AppRejected,
            format!(
                "the widget that holds `{node}` refused it; read its message, fix the cause, retry"
            ),
        ),
        (AckStatus::Dropped, _) | (_, Some(RejectReason::QueueFull)) => (
            Code::Busy,
            "the app's input queue is full; wait_for_change, then retry".to_owned(),
        ),
        (_, Some(RejectReason::StateRebuilt)) => (
            Code::ActionUnsupported,
            "nothing changed; the app's own keys (press_key) may do it until the app routes \
             it as the message says"
                .to_owned(),
        ),
        // The router's words say which keys it pressed, if any, and what to try: advice
        // of our own to press keys would contradict a refusal that pressed none.
        (AckStatus::Ignored, _) | (_, Some(RejectReason::NoRoute)) if !said.is_empty() => (
            Code::ActionUnsupported,
            "its words say what was pressed, if anything, and what to try".to_owned(),
        ),
        (AckStatus::Ignored, _) | (_, Some(RejectReason::NoRoute)) => (
            Code::ActionUnsupported,
            "nothing in the app handles it; try press_key with the key the app uses for it"
                .to_owned(),
        ),
        _ => match &ack.unknown_reason {
            Some(reason) => (
                Code::AppRejected,
                format!(
                    "the app did not take it, for a reason this taria-mcp does not know \
                     ({reason:?}); read its message, fix the cause, retry"
                ),
            ),
            None => (Code::AppRejected, "the app did not take it".to_owned()),
        },
    };
    let status = taria_schema::protocol::wire_name(&status);
    let message = if said.is_empty() {
        format!("{status}: {next}")
    } else {
        // Quoted, so none of the words can pass for the bridge's.
        format!(
            "{status}: {} {} — {next}",
            speaker(ack),
            OutlineQuoted(&said)
        )
    };
    ToolError::new(code, message).with("status", status)
}

/// The error for an ack whose status this taria-mcp does not know (`unknown`), the app
/// having said `said`.
fn unknown_status(unknown: &str, said: &str) -> ToolError {
    let mut message = format!(
        "sent, and the app answered with the status {unknown:?}, which this taria-mcp \
         does not know (it knows delivered, ignored, rejected, dropped)"
    );
    if !said.is_empty() {
        let _ = write!(message, "; the app said {}", OutlineQuoted(said));
    }
    message.push_str(
        ". Its effect is unknown: read_tree to see what happened before retrying, and \
         use a taria-mcp built with the app's taria version",
    );
    ToolError::new(Code::ProtocolMismatch, message)
        .with("sent", true)
        .with("status", unknown.to_owned())
}

/// Whose words a refusal's message is: the app author's only from its handler; a
/// widget's; or else taria's own, in the app (its router and checks).
fn speaker(ack: &Ack) -> &'static str {
    match ack.reason {
        Some(RejectReason::HandlerRejected) => "the app says",
        Some(RejectReason::WidgetRejected) => "the widget says",
        _ if ack.unknown_reason.is_some() => "the app says",
        _ => "taria in the app says",
    }
}

/// How long an input's result waits for a spawned app that closed its connection
/// right after the input to exit, so the result can say how it exited.
const EXIT_AFTER_INPUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Turns an ack into the result: for `delivered`, waits for the tree the input produced.
pub(crate) async fn settle(
    inputs: &Inputs,
    seen: &Seen,
    (before, sent): (&Arc<Tree>, &Sent),
    ack: Ack,
    node: Option<&str>,
) -> Result<InputResult, ToolError> {
    if ack.status != Ok(AckStatus::Delivered) {
        return Err(ack_error(&ack, node));
    }
    // Taken before anything shows the agent the tree after the input.
    let live = seen.last_live();
    let link = inputs.link();
    let Some(after) = inputs.effect(sent).await else {
        let revision = link.mirror().revision();
        let advice = if link.is_connected() {
            format!(
                "delivered, but the app has not drawn a frame since; call wait_for_change with \
                 since={revision} to see its effect"
            )
        } else if let Some(spawned) = link.spawned_app()
            && let Some(exit) = spawned.exited_within(EXIT_AFTER_INPUT).await
        {
            format!("delivered, then {}", spawned.exit_note(&exit))
        } else {
            let cut_off = link
                .cut_off()
                .unwrap_or("the app closed the connection (it exited or restarted)");
            format!(
                "delivered, then {cut_off} before drawing again; read_tree to see where it stands"
            )
        };
        return Ok(InputResult {
            after: None,
            status: "delivered".into(),
            message: ack.message,
            delivered: None,
            revision,
            changed: false,
            changed_ids: Vec::new(),
            removed_ids: Vec::new(),
            scrolled_out_ids: Vec::new(),
            removed_line: None,
            scrolled_out_line: None,
            changes: None,
            outline: None,
            events: Vec::new(),
            note: Some(advice),
        });
    };
    let mut answer =
        change::describe_change(seen, before, live.as_ref(), &after, ack.message.clone());
    // The frame drawn right after the input showed nothing new: an app may show an
    // input's effect a frame late (its handler records a request that its next update
    // applies), so a frame that comes soon after is looked at before "nothing changed"
    // is said (it was said while the next frame showed the row selected).
    if !answer.changed
        && let Ok(Some(later)) = link
            .wait_past(
                after.revision,
                crate::limits::LATE_EFFECT,
                std::future::pending(),
            )
            .await
    {
        let again = change::describe_change(seen, before, live.as_ref(), &later, ack.message);
        if again.changed {
            let own = changed_on_its_own(link.mirror(), (&after.tree, &later.tree), sent.at);
            answer = again;
            let late = match own {
                None => {
                    "(the frame drawn right after it showed no change; the next one did)".into()
                }
                Some(nodes) => format!(
                    "(the frame drawn right after it showed no change; the next one did, but \
                     its changes ({nodes}) are in or under nodes this app also changes with no \
                     input: they may not be this input's)"
                ),
            };
            answer.events.insert(0, late);
        }
    }
    if let Some(keys) = keyed_answers(link, sent) {
        answer.events.push(keys);
    }
    tracing::trace!(target: crate::latency::TARGET, seq = sent.seq, "answer ready");
    Ok(answer)
}

/// When every node that changed from `after` to `later` is one the app changed with
/// no input a moment ago ([`crate::link::Mirror::own_changes`]), the first few ids, for
/// the answer to say the change may be the app's own (a timer's, not the input's).
fn changed_on_its_own(
    mirror: &crate::link::Mirror,
    (after, later): (&Tree, &Tree),
    sent: std::time::Instant,
) -> Option<String> {
    let ids = mirror.own_changes(after, later, sent)?;
    let mut named: Vec<String> = ids
        .iter()
        .take(3)
        .map(|id| format!("`{}`", taria_schema::outline::OutlineName(id)))
        .collect();
    if ids.len() > named.len() {
        named.push(format!("{} more", ids.len() - named.len()));
    }
    Some(named.join(", "))
}

/// When the spawned app wrote a terminal query whose answer a crossterm app reads as
/// key presses (data it shows may hold one: a file with `ESC[>c` in it), what the
/// agent should know: those keys reached the app. Answers that came after an earlier
/// input's result was given are told here, as such; an answer that comes after this
/// result, with the next one.
fn keyed_answers(link: &crate::link::Link, sent: &Sent) -> Option<String> {
    let keyed = link.spawned_app()?.take_keyed_answers()?;
    if keyed.new == 0 {
        return None;
    }
    let before = keyed.total - keyed.new;
    let when = if sent.keyed_answers > before {
        "before this input (after an earlier one's result), "
    } else {
        ""
    };
    let times = match keyed.new {
        1 => String::new(),
        n => format!(" ({n} times)"),
    };
    Some(format!(
        "{when}the app wrote a terminal query{times}, {}: the terminal answered, and the \
         answer reached the app as input, which may have acted on it (shown data holding \
         the query does this)",
        keyed.query
    ))
}
