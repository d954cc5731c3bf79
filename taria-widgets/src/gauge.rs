//! [`Gauge`] and [`LineGauge`]: ratatui's gauges, recorded as `progress`.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::{SemanticWidget, id_and_label};

use crate::Block;

/// A gauge's label and its block's title, kept for recording.
#[derive(Debug, Clone, Default, PartialEq)]
struct Texts<'a, L> {
    label: Option<L>,
    block_label: Option<Cow<'a, str>>,
}

fn record<L: std::fmt::Display>(
    area: Rect,
    (id, given): (Option<&str>, &Given<'_>),
    ratio: f64,
    texts: Option<&Texts<'_, L>>,
) {
    let label: Option<&dyn std::fmt::Display> = match texts {
        Some(Texts {
            label: Some(label), ..
        }) => Some(label),
        Some(Texts {
            block_label: Some(title),
            ..
        }) => Some(title),
        _ => None,
    };
    taria::leaf(|n| {
        n.role(given.role_or(Role::Progress))
            .value(ratio)
            .min(0)
            .max(1)
            .bounds(area);
        id_and_label(n, id, label);
        given.record(n, id);
    });
}

/// What [`Gauge`] and [`LineGauge`] share, written once: `id`, `block` and `label`
/// (their text kept only while recording), `ratio`, and rendering through
/// [`SemanticWidget`]. `$label` is the type ratatui's gauge takes as its label.
macro_rules! gauge_core {
    ($gauge:ident, $label:ident) => {
        impl<'a> $gauge<'a> {
            crate::semantic::id_setter!();

            crate::given::given_setters!();

            #[doc = concat!("See ratatui's [`", stringify!($gauge), "::block`](ratatui::widgets::",
                stringify!($gauge), "::block).")]
            #[inline]
            #[must_use = "method moves the value of self and returns the modified value"]
            pub fn block(mut self, block: impl Into<Block<'a>>) -> Self {
                let (block, label) = block.into().into_parts();
                self.inner = self.inner.block(block);
                if taria::widget::is_recording() {
                    self.texts.get_or_insert_default().block_label = label;
                }
                self
            }

            #[doc = concat!("See ratatui's [`", stringify!($gauge), "::ratio`](ratatui::widgets::",
                stringify!($gauge), "::ratio) (panics outside `0..=1`).")]
            #[inline]
            #[must_use = "method moves the value of self and returns the modified value"]
            pub fn ratio(mut self, ratio: f64) -> Self {
                self.inner = self.inner.ratio(ratio);
                self.ratio = ratio;
                self
            }

            #[doc = concat!("See ratatui's [`", stringify!($gauge), "::label`](ratatui::widgets::",
                stringify!($gauge), "::label).")]
            #[inline]
            #[must_use = "method moves the value of self and returns the modified value"]
            pub fn label<T: Into<$label<'a>>>(mut self, label: T) -> Self {
                let label = label.into();
                if taria::widget::is_recording() {
                    self.texts.get_or_insert_default().label = Some(label.clone());
                }
                self.inner = self.inner.label(label);
                self
            }
        }

        impl SemanticWidget for &$gauge<'_> {
            type State = ();

            fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
                record(area, (self.id, &self.given), self.ratio, self.texts.as_deref());
            }

            fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
                // By reference, as ratatui's own `render` does: no move of the widget.
                Widget::render(&self.inner, area, buf);
            }
        }

        crate::semantic::widget_impls!($gauge<'_>: Widget by ref);

        crate::semantic::styled!($gauge<'_>: inner);
    };
}

gauge_core!(Gauge, Span);
gauge_core!(LineGauge, Line);

/// A progress bar filling its area, drawn exactly like ratatui's `Gauge`.
///
/// Recorded as `progress`: value = the ratio (`0.0..=1.0`), min 0, max 1; label = the
/// gauge's label, else its block's title. (Label and title set with recording off
/// are not kept: a later recorded render of that gauge has no label.)
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::Gauge;
///
/// let mut harness = Harness::new(20, 1);
/// let tree = harness.render(|frame| {
///     frame.render_widget(Gauge::default().percent(40).label("Upload").id("up"), frame.area());
/// });
/// let up = tree.get("up").unwrap();
/// assert_eq!(up.value, Some(taria::Value::Number(0.4)));
/// assert_eq!(up.label.as_deref(), Some("Upload"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gauge<'a> {
    inner: ratatui::widgets::Gauge<'a>,
    ratio: f64,
    /// What recording needs beyond `inner`: set while recording only, boxed so
    /// the unrecorded widget stays as small as ratatui's.
    texts: Option<Box<Texts<'a, Span<'a>>>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl Gauge<'_> {
    /// See ratatui's [`Gauge::percent`](ratatui::widgets::Gauge::percent) (panics above 100).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn percent(mut self, percent: u16) -> Self {
        self.inner = self.inner.percent(percent);
        self.ratio = f64::from(percent) / 100.0;
        self
    }

    crate::semantic::setters! { Gauge in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => inner;
        fn gauge_style<S: Into<Style>>(style: S) => inner;
        fn use_unicode(unicode: bool) => inner;
    }
}

/// A one-line progress bar, drawn exactly like ratatui's `LineGauge`.
///
/// Recorded like [`Gauge`]: `progress`, value = the ratio, min 0, max 1, label.
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::LineGauge;
///
/// let mut harness = Harness::new(20, 1);
/// let tree = harness.render(|frame| {
///     frame.render_widget(LineGauge::default().ratio(0.25).label("Disk"), frame.area());
/// });
/// assert_eq!(tree.roots[0].role, taria::Role::Progress);
/// assert_eq!(tree.roots[0].value, Some(taria::Value::Number(0.25)));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineGauge<'a> {
    inner: ratatui::widgets::LineGauge<'a>,
    ratio: f64,
    /// What recording needs beyond `inner`: set while recording only, boxed so
    /// the unrecorded widget stays as small as ratatui's.
    texts: Option<Box<Texts<'a, Line<'a>>>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl<'a> LineGauge<'a> {
    crate::semantic::setters! { LineGauge in ratatui::widgets;
        fn filled_symbol(symbol: &'a str) => inner;
        fn unfilled_symbol(symbol: &'a str) => inner;
    }

    /// See ratatui's [`LineGauge::line_set`](ratatui::widgets::LineGauge::line_set).
    #[deprecated = "use `filled_symbol` and `unfilled_symbol`, as ratatui says"]
    #[expect(deprecated, reason = "mirrors ratatui's deprecated method")]
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn line_set(mut self, set: symbols::line::Set<'a>) -> Self {
        self.inner = self.inner.line_set(set);
        self
    }

    crate::semantic::setters! { LineGauge in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => inner;
        fn filled_style<S: Into<Style>>(style: S) => inner;
        fn unfilled_style<S: Into<Style>>(style: S) => inner;
    }
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};

    use super::*;

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 20, 3);
        for ratio in [0.0, 0.33, 1.0] {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Gauge::default()
                .ratio(ratio)
                .use_unicode(true)
                .gauge_style(Color::Red)
                .block(Block::bordered().title("G"))
                .render(area, &mut a);
            ratatui::widgets::Gauge::default()
                .ratio(ratio)
                .use_unicode(true)
                .gauge_style(Color::Red)
                .block(ratatui::widgets::Block::bordered().title("G"))
                .render(area, &mut b);
            assert_eq!(a, b);
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Gauge::default()
                .percent(50)
                .label("half")
                .blue()
                .render(area, &mut a);
            ratatui::widgets::Gauge::default()
                .percent(50)
                .label("half")
                .blue()
                .render(area, &mut b);
            assert_eq!(a, b);
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            LineGauge::default()
                .ratio(ratio)
                .label("L")
                .filled_style(Color::Green)
                .unfilled_style(Color::Gray)
                .filled_symbol("#")
                .unfilled_symbol(".")
                .block(Block::bordered())
                .render(area, &mut a);
            ratatui::widgets::LineGauge::default()
                .ratio(ratio)
                .label("L")
                .filled_style(Color::Green)
                .unfilled_style(Color::Gray)
                .filled_symbol("#")
                .unfilled_symbol(".")
                .block(ratatui::widgets::Block::bordered())
                .render(area, &mut b);
            assert_eq!(a, b);
        }
    }
}

#[cfg(test)]
mod recording_tests {
    use taria::testing::Harness;

    use super::*;

    /// Built while recording: labelled. Built with recording off, drawn recorded:
    /// the value is kept, the label is not.
    #[test]
    fn the_label_is_kept_only_when_built_while_recording() {
        let mut harness = Harness::new(20, 3);
        let tree = harness.render(|frame| {
            let gauge = Gauge::default()
                .ratio(0.5)
                .block(Block::bordered().title("G"))
                .id("g");
            frame.render_widget(gauge, frame.area());
        });
        assert_eq!(tree.get("g").expect("gauge").label.as_deref(), Some("G"));
        let early = LineGauge::default().ratio(0.25).label("Disk").id("d");
        let tree = harness.render(|frame| frame.render_widget(early, frame.area()));
        let disk = tree.get("d").expect("line gauge");
        assert_eq!(disk.value, Some(taria::Value::Number(0.25)));
        assert_eq!(disk.label, None);
    }
}
