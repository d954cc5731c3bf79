//! [`Canvas`]: ratatui's canvas, recorded as an `image` with a label; the module stands
//! in for `ratatui::widgets::canvas`, with its shapes (ratatui's) beside it.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::Marker;
use ratatui::widgets::Widget;
pub use ratatui::widgets::canvas::Context;
use taria::Role;

use crate::given::Given;
use crate::semantic::{SemanticWidget, id_and_label};

pub use ratatui::widgets::canvas::{
    Circle, FilledLine, Label, Line, Map, MapResolution, Painter, Points, Rectangle, Shape,
};

/// A free-form drawing (shapes from `ratatui::widgets::canvas`), drawn exactly like
/// ratatui's `Canvas`.
///
/// Recorded as an `image`: an agent cannot read the drawing, so give it a
/// [`label`](Canvas::label) saying what it shows (else the block's title is used).
///
/// # Examples
///
/// ```
/// use ratatui::style::Color;
/// use ratatui::widgets::canvas::Line;
/// use taria::testing::Harness;
/// use taria_widgets::Canvas;
///
/// let mut harness = Harness::new(20, 5);
/// let tree = harness.render(|frame| {
///     let canvas = Canvas::default()
///         .x_bounds([0.0, 10.0])
///         .y_bounds([0.0, 10.0])
///         .paint(|ctx| ctx.draw(&Line::new(0.0, 0.0, 10.0, 10.0, Color::Red)))
///         .label("route from A to B")
///         .id("map");
///     frame.render_widget(canvas, frame.area());
/// });
/// let map = tree.get("map").unwrap();
/// assert_eq!(map.role, taria::Role::Image);
/// assert_eq!(map.label.as_deref(), Some("route from A to B"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas<'a, F>
where
    F: Fn(&mut Context<'_>),
{
    inner: ratatui::widgets::canvas::Canvas<'a, F>,
    label: Option<Cow<'a, str>>,
    block_label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl<F> Default for Canvas<'_, F>
where
    F: Fn(&mut Context<'_>),
{
    fn default() -> Self {
        Canvas {
            inner: ratatui::widgets::canvas::Canvas::default(),
            label: None,
            block_label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }
}

impl<'a, F> Canvas<'a, F>
where
    F: Fn(&mut Context<'_>),
{
    crate::semantic::id_setter!();

    crate::given::given_setters!();

    /// Says what the drawing shows, for agents (instead of the block's title).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label(mut self, label: impl Into<Cow<'a, str>>) -> Self {
        self.label = Some(label.into());
        self
    }

    crate::semantic::block_setter!(Canvas in ratatui::widgets::canvas => inner, block_label);

    crate::semantic::setters! { Canvas in ratatui::widgets::canvas;
        fn x_bounds(bounds: [f64; 2]) => inner;
        fn y_bounds(bounds: [f64; 2]) => inner;
        fn paint(f: F) => inner;
        fn background_color(color: Color) => inner;
        fn marker(marker: Marker) => inner;
    }
}

impl<F: Fn(&mut Context<'_>)> SemanticWidget for &Canvas<'_, F> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(self.given.role_or(Role::Image)).bounds(area);
            id_and_label(
                n,
                self.id,
                self.label.as_ref().or(self.block_label.as_ref()),
            );
            self.given.record(n, self.id);
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        (&self.inner).render(area, buf);
    }
}

crate::semantic::widget_impls!([F: Fn(&mut Context<'_>)] Canvas<'_, F>: Widget by ref);

#[cfg(test)]
mod tests {
    use ratatui::widgets::canvas::{Circle, Line, Rectangle};
    use taria::testing::Harness;

    use super::*;
    use crate::Block;

    fn paint(ctx: &mut Context<'_>) {
        ctx.draw(&Line::new(0.0, 0.0, 10.0, 10.0, Color::Red));
        ctx.layer();
        ctx.draw(&Circle {
            x: 5.0,
            y: 5.0,
            radius: 3.0,
            color: Color::Blue,
        });
        ctx.draw(&Rectangle::new(1.0, 1.0, 4.0, 2.0, Color::Green));
        ctx.print(2.0, 8.0, "hi");
    }

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 24, 10);
        for marker in [
            Marker::Braille,
            Marker::Dot,
            Marker::HalfBlock,
            Marker::Block,
        ] {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Canvas::default()
                .block(Block::bordered().title("C"))
                .x_bounds([0.0, 10.0])
                .y_bounds([0.0, 10.0])
                .marker(marker)
                .background_color(Color::Black)
                .paint(paint)
                .render(area, &mut a);
            ratatui::widgets::canvas::Canvas::default()
                .block(ratatui::widgets::Block::bordered().title("C"))
                .x_bounds([0.0, 10.0])
                .y_bounds([0.0, 10.0])
                .marker(marker)
                .background_color(Color::Black)
                .paint(paint)
                .render(area, &mut b);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_block_title_labels_the_image() {
        let mut harness = Harness::new(20, 6);
        let tree = harness.render(|frame| {
            let canvas = Canvas::default()
                .block(Block::bordered().title("World"))
                .paint(|_| {});
            frame.render_widget(canvas, frame.area());
        });
        let node = &tree.roots[0];
        assert_eq!(
            (node.role, node.label.as_deref()),
            (Role::Image, Some("World"))
        );
    }
}
