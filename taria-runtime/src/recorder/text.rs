//! [`IntoText`]: how ids, keys and labels reach the frame's arena. Text and integers,
//! the usual arguments, are copied or written digit by digit; only real formatting
//! (`format_args!` with arguments, [`Displayed`]) goes through `core::fmt`.

use std::borrow::Cow;
use std::fmt::{self, Display};
use std::rc::Rc;
use std::sync::Arc;

use ratatui::text::{Line, Span};

/// Where an [`IntoText`] writes itself: the arena's text, cut at a character boundary
/// once the cap is reached (what is cut off is dropped, and so is everything after).
pub struct TextSink<'a> {
    out: &'a mut String,
    remaining: usize,
}

impl<'a> TextSink<'a> {
    /// A sink that appends at most `cap` bytes to `out`.
    pub(crate) fn new(out: &'a mut String, cap: usize) -> Self {
        TextSink {
            out,
            remaining: cap,
        }
    }

    /// Appends `text`.
    #[inline]
    pub fn str(&mut self, text: &str) {
        if text.len() <= self.remaining {
            self.out.push_str(text);
            self.remaining -= text.len();
        } else {
            self.out.push_str(truncate(text, self.remaining));
            self.remaining = 0;
        }
    }

    /// Appends `value`'s `Display` form.
    pub fn display(&mut self, value: &dyn Display) {
        // The sink never fails; a Display impl that fails leaves what it wrote.
        let _ = fmt::write(self, format_args!("{value}"));
    }

    /// Appends formatted text; a format string without arguments is copied as is.
    #[inline]
    pub fn args(&mut self, args: fmt::Arguments<'_>) {
        match args.as_str() {
            Some(text) => self.str(text),
            None => {
                let _ = fmt::write(self, args);
            }
        }
    }

    /// Appends an unsigned integer in decimal, as `Display` writes it.
    #[inline]
    fn unsigned(&mut self, n: u64) {
        if let Some(digits) = Padded::digits(n)
            && digits.len <= self.remaining
        {
            digits.push_to(self.out);
            self.remaining -= digits.len;
        } else {
            self.long_unsigned(n);
        }
    }

    /// [`unsigned`](Self::unsigned) for nine digits or more, or a sink nearly full.
    #[inline(never)]
    fn long_unsigned(&mut self, n: u64) {
        let mut buf = [0u8; 20];
        let digits = decimal(n, &mut buf);
        self.str(digits);
    }

    /// Appends a signed integer in decimal, as `Display` writes it.
    #[inline]
    fn signed(&mut self, n: i64) {
        if n < 0 {
            self.str("-");
        }
        self.unsigned(n.unsigned_abs());
    }
}

impl fmt::Write for TextSink<'_> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.str(s);
        Ok(())
    }
}

/// Two decimal digits for each value below 100.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Writes `n` in decimal at the end of `buf`; returns the digits.
#[expect(
    unsafe_code,
    reason = "UTF-8 validation of the digits costs as much as writing them (callgrind)"
)]
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + n as u8;
    }
    // SAFETY: `buf[at..]` holds only ASCII digits (from `DIGIT_PAIRS` and `b'0' + n`
    // with `n < 10`), which are valid UTF-8.
    unsafe { std::str::from_utf8_unchecked(&buf[at..]) }
}

/// Text of at most `N` bytes kept in an `N`-byte buffer, so that appending it is one
/// copy of a fixed size and a cut, not a copy of a variable length (a call to
/// `memcpy`, and for bytes just written one by one, a stall reading them back).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Padded<const N: usize> {
    /// `bytes[..len]` is UTF-8 text, the rest NULs: every cut at `len` is valid.
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Padded<N> {
    /// `text` padded, if it is at most `N` bytes long.
    pub(crate) fn new(text: &str) -> Option<Self> {
        let mut bytes = [0; N];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(Padded {
            bytes,
            len: text.len(),
        })
    }

    /// Appends the text to `out`.
    #[inline]
    #[expect(
        unsafe_code,
        reason = "validating the text again would cost what the fixed-size copy saves"
    )]
    pub(crate) fn push_to(&self, out: &mut String) {
        let end = out.len() + self.len;
        // SAFETY: `bytes[..len]` is UTF-8 text and the rest NULs (the invariant of
        // `Padded`), so cut at `end` the string holds valid UTF-8 again.
        let vec = unsafe { out.as_mut_vec() };
        vec.extend_from_slice(&self.bytes);
        vec.truncate(end);
    }
}

impl Padded<8> {
    /// The decimal digits of `n`, as `Display` writes them, if there are at most 8.
    ///
    /// The digits are computed in a register with no branch and no table: two lanes of
    /// four digits are split into pairs, and the pairs into digits, all lanes at once
    /// (`x · 10486 >> 20` is `x / 100` below 10,000, `x · 103 >> 10` is `x / 10` below
    /// 100); the first digit ends up in the lowest byte and the leading zeros are
    /// shifted out. Their count comes from comparisons, apart, so that what is written
    /// next need not wait for the digits (callgrind counts a few instructions more,
    /// the bench times 7 % less than taking it from the digits).
    #[inline]
    pub(crate) fn digits(n: u64) -> Option<Self> {
        let n = u32::try_from(n).ok().filter(|&n| n < 100_000_000)?;
        let fours = u64::from(n / 10_000) | (u64::from(n % 10_000) << 32);
        let hundreds = ((fours * 10_486) >> 20) & 0x0000_007F_0000_007F;
        let pairs = hundreds | ((fours - hundreds * 100) << 16);
        let tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
        let digits = tens | ((pairs - tens * 10) << 8);
        let len = digit_count(n);
        let ascii = (digits | 0x3030_3030_3030_3030) >> (8 * (8 - len));
        Some(Padded {
            bytes: ascii.to_le_bytes(),
            len,
        })
    }
}

/// How many decimal digits `n` (below 10^8) has.
#[inline]
fn digit_count(n: u32) -> usize {
    if n < 10_000 {
        if n < 100 {
            if n < 10 { 1 } else { 2 }
        } else if n < 1_000 {
            3
        } else {
            4
        }
    } else if n < 1_000_000 {
        if n < 100_000 { 5 } else { 6 }
    } else if n < 10_000_000 {
        7
    } else {
        8
    }
}

/// The longest prefix of `s` of at most `cap` bytes that ends at a char boundary.
#[inline]
pub(crate) fn truncate(s: &str, cap: usize) -> &str {
    if s.len() <= cap {
        return s;
    }
    let mut cut = cap;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[..cut]
}

/// Whether `key` has a byte an id segment escapes.
#[inline]
fn needs_escape(key: &[u8]) -> bool {
    key.iter().any(|&b| b == b'/' || b == b'%')
}

/// Appends `key` to `out` as an id segment: a `/` in it is written `%2F` and a `%`
/// `%25`, so a key is always one segment (`files/a%2Fb` for the key `a/b`); any other
/// text, spaces included, as it is. A key without either is copied as is.
#[inline]
fn push_key(out: &mut String, key: &str) {
    if !needs_escape(key.as_bytes()) {
        out.push_str(key);
        return;
    }
    for c in key.chars() {
        match c {
            '/' => out.push_str("%2F"),
            '%' => out.push_str("%25"),
            c => out.push(c),
        }
    }
}

/// Escapes in place the key written to `out` from byte `start` on, as [`push_key`]
/// writes it; `scratch` holds the raw key meanwhile. A key without `/` or `%` (the
/// usual one) is only scanned.
#[inline]
pub(crate) fn escape_key_at(out: &mut String, start: usize, scratch: &mut String) {
    if needs_escape(&out.as_bytes()[start..]) {
        escape_tail(out, start, scratch);
    }
}

#[cold]
fn escape_tail(out: &mut String, start: usize, scratch: &mut String) {
    scratch.clear();
    scratch.push_str(&out[start..]);
    out.truncate(start);
    push_key(out, scratch);
}

/// The id segment a key becomes: `/` written `%2F`, `%` written `%25`, anything else
/// as it is (`a/b` is `a%2Fb`, `50%` is `50%25`, `First Name` stays). For naming a
/// keyed node by hand: `format!("files/{}", taria::builder::escape_key(name))`.
#[must_use]
pub fn escape_key(key: &str) -> Cow<'_, str> {
    if !needs_escape(key.as_bytes()) {
        return Cow::Borrowed(key);
    }
    let mut out = String::with_capacity(key.len() + 4);
    push_key(&mut out, key);
    Cow::Owned(out)
}

/// The key an id segment (or segments, for what a `**` stood for) was made from:
/// `%2F` is `/` and `%25` is `%` again, as [`escape_key`] wrote them; a handler's `key`
/// parameter gets this. Text without a `%` is returned as it is.
#[must_use]
pub fn unescape_key(segment: &str) -> Cow<'_, str> {
    if !segment.contains('%') {
        return Cow::Borrowed(segment);
    }
    let mut out = String::with_capacity(segment.len());
    let mut rest = segment;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let escape = &rest[at..];
        if let Some(after) = escape.strip_prefix("%2F") {
            out.push('/');
            rest = after;
        } else if let Some(after) = escape.strip_prefix("%25") {
            out.push('%');
            rest = after;
        } else {
            // Not an escape this writes (an explicit id may hold a `%`): kept.
            out.push('%');
            rest = &escape[1..];
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A text argument of [`NodeBuilder`](crate::recorder::NodeBuilder) (`id`, `key`, `label`):
/// text (`&str`, `String`, `Cow<str>`, …), an integer, a `char` or `bool`,
/// `format_args!(…)`, a tuple of these (written one after the other, so
/// `("Task ", i, ": ", title)` needs no formatting), or any `Display` type wrapped in
/// [`Displayed`]. What gets recorded is the value's `Display` form in every case.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text argument taria knows",
    label = "not text, an integer or `format_args!`",
    note = "wrap a `Display` type in `taria::Displayed(…)`, or write `format_args!(\"{{}}\", …)`"
)]
pub trait IntoText {
    /// Whether the text never holds `/` or `%` (integers, `bool`), so that as a key
    /// it is one id segment as written, with no scan for what to escape. A promise:
    /// a key of a type that makes it is not checked.
    #[doc(hidden)]
    const ONE_SEGMENT: bool = false;

    /// Writes the text into the sink.
    fn write_text(self, sink: &mut TextSink<'_>);
}

/// Records any `Display` type as text, through `core::fmt`: `n.label(Displayed(path.display()))`.
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use taria::{Displayed, Role, testing::Harness};
///
/// let path = Path::new("notes/today.md");
/// let tree = Harness::new(20, 1).render(|_| {
///     taria::leaf(|n| {
///         n.role(Role::Link).id("file").label(Displayed(path.display()));
///     });
/// });
/// assert_eq!(tree.get("file").unwrap().label.as_deref(), Some("notes/today.md"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Displayed<T>(pub T);

impl<T: Display> IntoText for Displayed<T> {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        sink.display(&self.0);
    }
}

/// A reference to any text argument that is itself a reference (`&&str`, `&&u32`).
impl<'b, T: ?Sized> IntoText for &&'b T
where
    &'b T: IntoText,
{
    const ONE_SEGMENT: bool = <&'b T>::ONE_SEGMENT;

    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        (*self).write_text(sink);
    }
}

impl IntoText for &dyn Display {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        sink.display(self);
    }
}

/// As ratatui's `Display` writes a span: its content's lines, without the line breaks.
impl IntoText for &Span<'_> {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        for line in self.content.lines() {
            sink.str(line);
        }
    }
}

impl IntoText for Span<'_> {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        (&self).write_text(sink);
    }
}

/// As ratatui's `Display` writes a line: its spans one after the other.
impl IntoText for &Line<'_> {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        for span in &self.spans {
            span.write_text(sink);
        }
    }
}

impl IntoText for Line<'_> {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        (&self).write_text(sink);
    }
}

impl IntoText for fmt::Arguments<'_> {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        sink.args(self);
    }
}

macro_rules! str_texts {
    ($($t:ty),*) => {$(
        impl IntoText for $t {
            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                sink.str(&self);
            }
        }
    )*};
}
str_texts!(
    &str,
    &mut str,
    String,
    &String,
    Cow<'_, str>,
    &Cow<'_, str>,
    Box<str>,
    &Box<str>,
    Rc<str>,
    &Rc<str>,
    Arc<str>,
    &Arc<str>
);

macro_rules! integer_texts {
    ($method:ident as $wide:ty: $($t:ty),*) => {$(
        impl IntoText for $t {
            const ONE_SEGMENT: bool = true;

            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                sink.$method(<$wide>::from(self));
            }
        }
        impl IntoText for &$t {
            const ONE_SEGMENT: bool = true;

            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                sink.$method(<$wide>::from(*self));
            }
        }
    )*};
}
integer_texts!(unsigned as u64: u8, u16, u32, u64);
integer_texts!(signed as i64: i8, i16, i32, i64);

macro_rules! pointer_sized_texts {
    ($method:ident as $wide:ty: $t:ty) => {
        impl IntoText for $t {
            const ONE_SEGMENT: bool = true;

            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                sink.$method(self as $wide);
            }
        }
        impl IntoText for &$t {
            const ONE_SEGMENT: bool = true;

            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                (*self).write_text(sink);
            }
        }
    };
}
pointer_sized_texts!(unsigned as u64: usize);
pointer_sized_texts!(signed as i64: isize);

macro_rules! display_texts {
    ($($t:ty),*) => {$(
        impl IntoText for $t {
            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                sink.display(&self);
            }
        }
        impl IntoText for &$t {
            #[inline]
            fn write_text(self, sink: &mut TextSink<'_>) {
                sink.display(self);
            }
        }
    )*};
}
display_texts!(u128, i128, f32, f64);

impl IntoText for char {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        sink.str(self.encode_utf8(&mut [0; 4]));
    }
}

impl IntoText for &char {
    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        (*self).write_text(sink);
    }
}

impl IntoText for bool {
    const ONE_SEGMENT: bool = true;

    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        sink.str(if self { "true" } else { "false" });
    }
}

impl IntoText for &bool {
    const ONE_SEGMENT: bool = true;

    #[inline]
    fn write_text(self, sink: &mut TextSink<'_>) {
        (*self).write_text(sink);
    }
}

macro_rules! tuple_texts {
    ($(($($t:ident),+))*) => {$(
        impl<$($t: IntoText),+> IntoText for ($($t,)+) {
            const ONE_SEGMENT: bool = $($t::ONE_SEGMENT)&&+;

            #[inline]
            #[expect(non_snake_case, reason = "the parts are named after their type parameters")]
            fn write_text(self, sink: &mut TextSink<'_>) {
                let ($($t,)+) = self;
                $($t.write_text(sink);)+
            }
        }
    )*};
}
tuple_texts!((A)(A, B)(A, B, C)(A, B, C, D)(A, B, C, D, E)(
    A, B, C, D, E, F
)(A, B, C, D, E, F, G)(A, B, C, D, E, F, G, H)(
    A, B, C, D, E, F, G, H, I
)(A, B, C, D, E, F, G, H, I, J)(
    A, B, C, D, E, F, G, H, I, J, K
)(A, B, C, D, E, F, G, H, I, J, K, L));

#[cfg(test)]
mod tests {
    use std::fmt::Display;

    use super::{Displayed, IntoText, TextSink, escape_key, unescape_key};

    fn written(value: impl IntoText, cap: usize) -> String {
        let mut out = String::new();
        value.write_text(&mut TextSink::new(&mut out, cap));
        out
    }

    fn displayed(value: impl Display, cap: usize) -> String {
        written(Displayed(value), cap)
    }

    #[test]
    fn integers_are_written_as_display_writes_them() {
        let unsigned = [0, 1, 9, 10, 42, 99, 100, 101, 999, 1000, 65_535, u64::MAX];
        for n in unsigned {
            assert_eq!(written(n, 1024), n.to_string());
        }
        for n in [0, -1, 7, -10, -99, 100, i64::MIN, i64::MAX] {
            assert_eq!(written(n, 1024), n.to_string());
        }
        assert_eq!(written(u8::MAX, 1024), "255");
        assert_eq!(written(i8::MIN, 1024), "-128");
        assert_eq!(written(usize::MAX, 1024), usize::MAX.to_string());
        assert_eq!(written(isize::MIN, 1024), isize::MIN.to_string());
        assert_eq!(written(u128::MAX, 1024), u128::MAX.to_string());
        assert_eq!(written(1.5f64, 1024), "1.5");
    }

    #[test]
    fn numbers_of_up_to_eight_digits_are_written_as_display_writes_them() {
        let powers = (0..20).map(|k| 10u64.pow(k));
        let around_powers = powers.flat_map(|p| [p - 1, p, p + 1]);
        let spread = (0..100_000_000u64).step_by(9_973);
        for n in (0..100_000).chain(around_powers).chain(spread) {
            assert_eq!(written(n, 1024), n.to_string());
            // After other text, and in a sink with room for fewer than eight bytes.
            assert_eq!(written(("ab", n), 1024), format!("ab{n}"));
            let digits = n.to_string();
            for cap in 0..=digits.len() + 1 {
                assert_eq!(
                    written(n, cap),
                    digits[..cap.min(digits.len())],
                    "{n} cut to {cap}"
                );
            }
        }
    }

    #[test]
    fn every_fast_path_keeps_what_display_keeps() {
        for cap in [0, 1, 3, 4, 5, 7, 1024] {
            assert_eq!(written("ééé", cap), displayed("ééé", cap), "cap {cap}");
            assert_eq!(written(String::from("héllo"), cap), displayed("héllo", cap));
            assert_eq!(written(123_456u32, cap), displayed(123_456u32, cap));
            assert_eq!(written(-42i32, cap), displayed(-42i32, cap));
            assert_eq!(written('é', cap), displayed('é', cap));
            assert_eq!(written(true, cap), displayed(true, cap));
            let (i, title) = (7usize, "Réview");
            assert_eq!(
                written(("Task ", i, ": ", title), cap),
                displayed(format_args!("Task {i}: {title}"), cap),
                "cap {cap}"
            );
            assert_eq!(
                written(format_args!("Task {i}: {title}"), cap),
                displayed(format_args!("Task {i}: {title}"), cap)
            );
            assert_eq!(
                written(format_args!("constant"), cap),
                displayed("constant", cap)
            );
        }
    }

    #[test]
    fn ratatui_text_is_written_as_its_display_writes_it() {
        use ratatui::style::Stylize as _;
        use ratatui::text::{Line, Span};
        let line = Line::from(vec![Span::raw("a\r\nb\n"), "ré".bold(), Span::raw("")]);
        for cap in [0, 1, 2, 3, 1024] {
            assert_eq!(written(&line, cap), displayed(&line, cap), "cap {cap}");
            assert_eq!(written(&line.spans[0], cap), displayed(&line.spans[0], cap));
        }
    }

    #[test]
    fn a_cut_drops_every_later_part() {
        // "é" does not fit in the one byte left after "ab": it and "c" are dropped,
        // as `Display` through the capped writer drops them.
        assert_eq!(written(("ab", "é", "c"), 3), "ab");
        assert_eq!(displayed(format_args!("ab{}c", "é"), 3), "ab");
    }

    #[test]
    fn a_key_escapes_slash_and_percent_and_reads_back() {
        for (key, segment) in [
            ("a/b", "a%2Fb"),
            ("50%", "50%25"),
            ("%2F", "%252F"),
            ("/", "%2F"),
            ("First Name", "First Name"),
            ("é/ü%", "é%2Fü%25"),
            ("", ""),
        ] {
            assert_eq!(escape_key(key), segment);
            assert_eq!(unescape_key(segment), key);
        }
        assert!(matches!(
            escape_key("plain key"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(matches!(
            unescape_key("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
        // What a `**` stood for: the `/` between segments stays, escaped ones return.
        assert_eq!(unescape_key("src/a%2Fb"), "src/a/b");
        assert_eq!(unescape_key("100%"), "100%");
        assert_eq!(unescape_key("%41%2"), "%41%2");
    }
}
