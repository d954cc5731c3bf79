//! Writing an outline piece by piece (a subtree, under a size cap) with the same lines
//! as [`Tree::outline`](crate::model::Tree::outline): [`OutlineRules`] (what the lines around
//! a node imply, [`Around`]), the escapes app text and names are written with
//! ([`OutlineQuoted`], [`OutlineText`], [`OutlineName`]), and a line's id read back
//! ([`outline_line_id`]).

pub use crate::model::{
    Around, OutlineName, OutlineQuoted, OutlineRules, OutlineText, outline_line_id,
};
