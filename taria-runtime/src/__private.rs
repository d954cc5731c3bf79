//! Support for macro-generated code. Not public API: no stability guarantees.

use ratatui::Frame;
pub use ratatui::layout::Rect;

use crate::{NodeBuilder, Semantic};

pub use crate::recorder::{leaf, scope};

/// Autoref-specialization probe: `(&Probe(&x)).taria_describe(n)` calls
/// [`Semantic::describe`] when `x`'s type implements it, and does nothing otherwise.
pub struct Probe<'a, T: ?Sized>(pub &'a T);

/// Picked when the probed type implements [`Semantic`].
pub trait ViaSemantic {
    /// Describes the node from the type's fields.
    fn taria_describe(&self, node: &mut NodeBuilder<'_>);
}

impl<T: Semantic + ?Sized> ViaSemantic for Probe<'_, T> {
    #[inline]
    fn taria_describe(&self, node: &mut NodeBuilder<'_>) {
        self.0.describe(node);
    }
}

/// Picked otherwise.
pub trait ViaNothing {
    /// Does nothing.
    #[inline]
    fn taria_describe(&self, _node: &mut NodeBuilder<'_>) {}
}

impl<T: ?Sized> ViaNothing for &Probe<'_, T> {}

/// Something a render function's area can be read from: a `Rect` or a `Frame`.
pub trait AreaSource {
    /// The area.
    fn taria_area(&self) -> Rect;
}

impl AreaSource for Rect {
    #[inline]
    fn taria_area(&self) -> Rect {
        *self
    }
}

impl AreaSource for Frame<'_> {
    #[inline]
    fn taria_area(&self) -> Rect {
        self.area()
    }
}

impl<T: AreaSource + ?Sized> AreaSource for &T {
    #[inline]
    fn taria_area(&self) -> Rect {
        (**self).taria_area()
    }
}

impl<T: AreaSource + ?Sized> AreaSource for &mut T {
    #[inline]
    fn taria_area(&self) -> Rect {
        (**self).taria_area()
    }
}
