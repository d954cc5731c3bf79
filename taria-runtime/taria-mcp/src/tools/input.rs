//! What the input tools (`act`, `type_text`, `press_key`, and `batch`'s steps)
//! share: their result ([`InputResult`](result::InputResult)) and its text, the
//! checks against the tree before an input is sent (`check`), typing a segment at a
//! time (`typing`), and waiting for the app's answer and the tree after it (`answer`).

pub(crate) mod answer;
pub(crate) mod check;
pub(crate) mod result;
pub(crate) mod typing;
