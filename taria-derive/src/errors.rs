//! [`Errors`]: collects every error of one macro call, so the user sees them all at once.

/// An accumulator for [`syn::Error`]s, combined in the order they were found.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    /// Adds `error`.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// The value of `result`, or `None` after adding its error.
    pub(crate) fn ok<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    /// `Err` with every error added so far, or `Ok(value)` if there were none.
    pub(crate) fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }
}

/// Errors from several phases, each tagged with where in the input it is
/// (argument, item, phase), so they are reported in source order.
#[derive(Default)]
pub(crate) struct Ordered(Vec<(Place, syn::Error)>);

/// Argument index, item index within it, and the phase (parse before check).
pub(crate) type Place = (usize, usize, u8);

impl Ordered {
    pub(crate) fn push(&mut self, at: Place, error: syn::Error) {
        self.0.push((at, error));
    }

    /// Moves the errors into `errors`, in source order.
    pub(crate) fn into(mut self, errors: &mut Errors) {
        self.0.sort_by_key(|(at, _)| *at);
        for (_, error) in self.0 {
            errors.push(error);
        }
    }
}
