//! Writing an outline piece by piece (a subtree, under a size cap, line by line) with
//! the same lines as [`Tree::outline`](crate::model::Tree::outline): the one walk every
//! outline writer goes through ([`walk_outline`], an [`OutlineVisitor`] at each
//! [`OutlineStep`]), the lines with a hook per line and a cap ([`outline_lines`],
//! [`outline_within`]), [`OutlineRules`] (what the lines around a node imply,
//! [`Around`]), the escapes app text and names are written with ([`OutlineQuoted`],
//! [`OutlineText`], [`OutlineName`]), and a line's id read back ([`outline_line_id`]).

pub use crate::model::{
    Around, OutlineName, OutlineQuoted, OutlineRules, OutlineStep, OutlineText, OutlineVisitor,
    outline_line_id, outline_lines, outline_within, walk_outline,
};
