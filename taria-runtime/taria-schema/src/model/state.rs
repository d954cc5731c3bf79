//! A node's state: flags, checked, expanded, validity, position, scroll, bounds.

use serde::{Deserialize, Serialize};

/// Whether a checkable node is checked.
///
/// # Examples
///
/// ```
/// use taria::{Checked, Role, testing::Harness};
///
/// let tree = Harness::new(20, 1).render(|_| {
///     taria::leaf(|n| {
///         // `None`: some of the items it stands for are checked.
///         n.role(Role::Checkbox).id("all").label("Select all").checked(None::<bool>);
///     });
/// });
/// assert_eq!(tree.get("all").unwrap().state.checked, Some(Checked::Mixed));
/// assert_eq!(Checked::from(true), Checked::True);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checked {
    /// Checked.
    True,
    /// Not checked.
    False,
    /// Partly checked (some children are).
    Mixed,
}

impl From<bool> for Checked {
    fn from(checked: bool) -> Self {
        if checked {
            Checked::True
        } else {
            Checked::False
        }
    }
}

impl From<Option<bool>> for Checked {
    /// `None` means mixed.
    fn from(checked: Option<bool>) -> Self {
        checked.map_or(Checked::Mixed, Checked::from)
    }
}

impl From<&Option<bool>> for Checked {
    /// `None` means mixed.
    fn from(checked: &Option<bool>) -> Self {
        Checked::from(*checked)
    }
}

impl From<&Checked> for Checked {
    fn from(checked: &Checked) -> Self {
        *checked
    }
}

impl From<&bool> for Checked {
    fn from(checked: &bool) -> Self {
        Checked::from(*checked)
    }
}

/// The boolean state flags of a node, as a bitmask (used by the recorder and queries).
///
/// # Examples
///
/// ```
/// use taria::{Role, StateFlags, testing::Harness};
///
/// let tree = Harness::new(20, 1).render(|_| {
///     taria::leaf(|n| {
///         n.role(Role::TextInput).id("name").label("Name").focused(true).required(true);
///     });
/// });
/// let flags = tree.get("name").unwrap().state.flags();
/// assert!(flags.contains(StateFlags::FOCUSED.with(StateFlags::REQUIRED, true)));
/// assert!(!flags.contains(StateFlags::DISABLED));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StateFlags(u16);

macro_rules! flags {
    ($($(#[doc = $doc:literal])+ $name:ident = $bit:literal => $text:literal,)+) => {
        impl StateFlags {
            $($(#[doc = $doc])+ pub const $name: StateFlags = StateFlags(1 << $bit);)+
            /// Each flag with its wire name.
            pub const NAMED: &'static [(StateFlags, &'static str)] = &[$((StateFlags::$name, $text),)+];
        }
    };
}

flags! {
    /// Has the input focus (at most one node per frame).
    FOCUSED = 0 => "focused",
    /// Selected among its siblings.
    SELECTED = 1 => "selected",
    /// Cannot be acted on now.
    DISABLED = 2 => "disabled",
    /// Working; its content may change soon.
    BUSY = 3 => "busy",
    /// Must be filled in.
    REQUIRED = 4 => "required",
    /// Shows a value that cannot be changed.
    READONLY = 5 => "readonly",
    /// Holds an invalid value.
    INVALID = 6 => "invalid",
    /// Holds a secret: its value is never recorded or sent.
    REDACTED = 7 => "redacted",
    /// Shows text that came from outside the app (files, network, chat).
    UNTRUSTED = 8 => "untrusted",
    /// A modal dialog: while shown, nothing outside it offers actions.
    MODAL = 9 => "modal",
    /// Behind an open modal dialog: the actions it offers otherwise are taken away
    /// until the dialog closes (set by the recorder, not by the app).
    INERT = 10 => "inert",
}

impl StateFlags {
    /// No flags.
    pub const EMPTY: StateFlags = StateFlags(0);

    /// Whether every flag of `other` is set.
    #[must_use]
    pub const fn contains(self, other: StateFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// This set with `other` set or cleared.
    #[must_use]
    pub const fn with(self, other: StateFlags, on: bool) -> StateFlags {
        if on {
            StateFlags(self.0 | other.0)
        } else {
            StateFlags(self.0 & !other.0)
        }
    }

    /// Looks a flag up by its wire name (`"focused"`, …).
    #[must_use]
    pub fn from_name(name: &str) -> Option<StateFlags> {
        StateFlags::NAMED
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(f, _)| *f)
    }
}

impl std::fmt::Debug for StateFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(
                StateFlags::NAMED
                    .iter()
                    .filter(|(flag, _)| self.contains(*flag))
                    .map(|(_, n)| n),
            )
            .finish()
    }
}

/// Where a node sits among its siblings or in a hierarchy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// Zero-based index among the items of its container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// How many items the container has in all (not only the visible ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Nesting level in a tree, 1 for top-level items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
}

impl Position {
    /// Whether nothing is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Position::default()
    }
}

/// How far a scrollable node is scrolled, in lines (or columns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScrollInfo {
    /// The first visible line.
    pub offset: u32,
    /// How many lines the content has.
    pub content: u32,
    /// How many lines are visible.
    pub viewport: u32,
}

/// A node's place on screen, in terminal cells: `[x, y, width, height]` on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "[u16; 4]", into = "[u16; 4]")]
pub struct Bounds {
    /// Column of the left edge.
    pub x: u16,
    /// Row of the top edge.
    pub y: u16,
    /// Width in columns.
    pub width: u16,
    /// Height in rows.
    pub height: u16,
}

impl From<[u16; 4]> for Bounds {
    fn from([x, y, width, height]: [u16; 4]) -> Self {
        Bounds {
            x,
            y,
            width,
            height,
        }
    }
}

impl From<Bounds> for [u16; 4] {
    fn from(b: Bounds) -> Self {
        [b.x, b.y, b.width, b.height]
    }
}

impl From<ratatui::layout::Rect> for Bounds {
    fn from(r: ratatui::layout::Rect) -> Self {
        Bounds {
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
        }
    }
}

impl Bounds {
    /// Whether the bounds cover no cell.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }
}
