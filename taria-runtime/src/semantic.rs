//! [`Semantic`]: a widget or state type that describes its own node.

use crate::recorder::NodeBuilder;

/// A type whose fields supply a node's label, value and state.
///
/// Derive it with `#[derive(taria::Semantic)]` and mark fields with `#[taria(label)]`,
/// `#[taria(value)]`, `#[taria(key)]`, `#[taria(checked)]`, …; a `#[taria::widget]`
/// render of the type (or of its state) then uses it before applying its own arguments.
///
/// # Examples
///
/// ```
/// use taria::{Role, Semantic, testing::Harness};
///
/// #[derive(Semantic)]
/// #[taria(role = checkbox)]
/// struct Task {
///     #[taria(label)]
///     title: String,
///     #[taria(checked)]
///     done: bool,
/// }
///
/// let task = Task { title: "Buy milk".into(), done: true };
/// let tree = Harness::new(10, 1).render(|_| {
///     taria::leaf(|n| task.describe(n.key("t")));
/// });
/// let node = tree.get("t").unwrap();
/// assert_eq!((node.role, node.label.as_deref()), (Role::Checkbox, Some("Buy milk")));
/// ```
pub trait Semantic {
    /// Writes what the fields say about the node.
    fn describe(&self, node: &mut NodeBuilder<'_>);
}

impl<T: Semantic + ?Sized> Semantic for &T {
    fn describe(&self, node: &mut NodeBuilder<'_>) {
        (**self).describe(node);
    }
}

impl<T: Semantic + ?Sized> Semantic for &mut T {
    fn describe(&self, node: &mut NodeBuilder<'_>) {
        (**self).describe(node);
    }
}
