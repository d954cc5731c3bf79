//! `type_text`: types into the focused text input, a segment at a time where a key
//! can move the focus.

use schemars::JsonSchema;
use serde::Deserialize;

use super::input::answer::settle;
use super::input::result::InputResult;
use super::input::{check, typing};
use crate::errors::ToolError;
use crate::link::Inputs;
use crate::order::Turn;
use crate::seen::Seen;

/// `type_text` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct TypeTextArgs {
    /// Up to 4096 chars; \n is enter, \t tab.
    pub(crate) text: String,
    /// Type with no text input focused.
    #[serde(default, deserialize_with = "super::args::flag")]
    pub(crate) raw: bool,
}

impl TypeTextArgs {
    /// How many characters the text has, within the cap and not none.
    pub(crate) fn check(&self) -> Result<usize, ToolError> {
        let chars = self.text.chars().count();
        if chars > taria_schema::protocol::MAX_TEXT_CHARS {
            return Err(ToolError::invalid(format!(
                "the text has {chars} characters; type at most {} at once (split it into several calls)",
                taria_schema::protocol::MAX_TEXT_CHARS
            )));
        }
        if chars == 0 {
            return Err(ToolError::invalid("the text is empty; nothing to type"));
        }
        Ok(chars)
    }
}

/// `type_text`.
pub(crate) async fn type_text(
    inputs: &Inputs,
    seen: &Seen,
    args: TypeTextArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    args.check()?;
    // The call's clock starts once the calls before it have sent.
    turn.wait().await;
    let before = inputs.link().view().await?.tree;
    let raw = args.raw;
    if !raw {
        check::typing(&before)?;
    }
    // A segment at a time, where a key can move the focus (the recording's redaction
    // follows where each segment's keys land).
    let (sent, ack) = typing::type_text(inputs, &args.text, raw, turn).await?;
    settle(inputs, seen, (&before, &sent), ack, None).await
}

/// The `type_text` tool.
pub(crate) struct TypeText;

impl super::Tool for TypeText {
    const NAME: &'static str = "type_text";
    const DESCRIPTION: &'static str = "Types into the focused text input.";
    const KIND: super::Kind = super::Kind::Input(taria_schema::recording::InputTool::TypeText);
    type Args = TypeTextArgs;
    type Result = InputResult;

    async fn run(mut cx: super::Cx<'_>, args: TypeTextArgs) -> Result<InputResult, ToolError> {
        type_text(cx.inputs, cx.seen, args, cx.turn()?).await
    }
}
