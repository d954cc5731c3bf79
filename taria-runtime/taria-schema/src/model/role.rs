//! What a node *is*: the core role set, and custom roles that name a core base.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! roles {
    ($($(#[doc = $doc:literal])+ $variant:ident = $name:literal,)+) => {
        /// The core role of a node.
        ///
        /// A custom role (see
        /// `taria::NodeBuilder::custom_role`) always
        /// names one of these as its base, so a consumer that does not know the custom
        /// name still treats the node as its base role.
        ///
        /// # Examples
        ///
        /// ```
        /// use taria::{Role, testing::Harness};
        ///
        /// assert_eq!(Role::from_name("list_item"), Some(Role::ListItem));
        /// assert_eq!(Role::ListItem.name(), "list_item");
        ///
        /// let tree = Harness::new(20, 1).render(|_| {
        ///     taria::leaf(|n| {
        ///         n.custom_role("kanban_card", Role::ListItem).id("card").label("Fix login");
        ///     });
        /// });
        /// let card = tree.get("card").unwrap();
        /// assert_eq!((card.role, card.custom_role.as_deref()), (Role::ListItem, Some("kanban_card")));
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(u8)]
        #[non_exhaustive]
        pub enum Role {
            /// A role this build does not know (sent by a newer peer), or no role given.
            #[default]
            Unknown,
            $($(#[doc = $doc])+ $variant,)+
        }

        impl Role {
            /// Every core role, in declaration order (without [`Role::Unknown`]).
            pub const ALL: &'static [Role] = &[$(Role::$variant,)+];

            /// The `snake_case` name used in attributes and on the wire.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    Role::Unknown => "unknown",
                    $(Role::$variant => $name,)+
                }
            }

            /// Looks a role up by its `snake_case` name.
            #[must_use]
            pub fn from_name(name: &str) -> Option<Role> {
                match name {
                    $($name => Some(Role::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

roles! {
    /// The whole application.
    App = "app",
    /// A titled area of the screen (a pane, a sidebar, a block).
    Region = "region",
    /// A group of related nodes without its own meaning.
    Group = "group",
    /// A dialog; mark it `modal` to make everything behind it inert.
    Dialog = "dialog",
    /// A set of tabs.
    Tabs = "tabs",
    /// One tab of a [`Role::Tabs`].
    Tab = "tab",
    /// A menu or menu bar.
    Menu = "menu",
    /// One entry of a [`Role::Menu`].
    MenuItem = "menu_item",
    /// A list of items.
    List = "list",
    /// One item of a [`Role::List`].
    ListItem = "list_item",
    /// A tree of items.
    Tree = "tree",
    /// One item of a [`Role::Tree`].
    TreeItem = "tree_item",
    /// A table.
    Table = "table",
    /// A row of a [`Role::Table`].
    Row = "row",
    /// A cell of a [`Role::Row`].
    Cell = "cell",
    /// A column header of a [`Role::Table`].
    ColumnHeader = "column_header",
    /// A single-line text field.
    TextInput = "text_input",
    /// A multi-line text field.
    TextArea = "text_area",
    /// A push button.
    Button = "button",
    /// A checkbox (checked, unchecked or mixed).
    Checkbox = "checkbox",
    /// One choice of a group of radio buttons.
    Radio = "radio",
    /// An on/off switch.
    Switch = "switch",
    /// A drop-down or cycling choice among options.
    Select = "select",
    /// One option of a [`Role::Select`].
    Option = "option",
    /// A value chosen on a range.
    Slider = "slider",
    /// A number with increment/decrement.
    SpinButton = "spin_button",
    /// A link to somewhere else.
    Link = "link",
    /// Static text.
    Text = "text",
    /// A heading.
    Heading = "heading",
    /// A growing log of lines.
    Log = "log",
    /// A progress bar or gauge.
    Progress = "progress",
    /// A status line.
    Status = "status",
    /// A scrollbar.
    Scrollbar = "scrollbar",
    /// A chart (sparkline, bar chart, line chart).
    Chart = "chart",
    /// An image or a canvas drawing.
    Image = "image",
    /// An embedded terminal.
    Terminal = "terminal",
    /// A form.
    Form = "form",
    /// One labelled field of a [`Role::Form`].
    FormField = "form_field",
    /// A transient notification.
    Notification = "notification",
    /// A toolbar.
    Toolbar = "toolbar",
    /// A visual separator.
    Separator = "separator",
    /// A tooltip or help popup.
    Tooltip = "tooltip",
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Role {
    /// Unknown names degrade to [`Role::Unknown`] instead of failing.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Role::from_name(&name).unwrap_or(Role::Unknown))
    }
}
