//! The frame recorder: a [`Recorder`] owns a [`FrameArena`](arena::FrameArena) and
//! lends it to the current thread while a frame draws; annotated renders add nodes
//! to it through [`scope`] and [`leaf`].
//!
//! When no frame is being recorded on this thread, [`scope`] and [`leaf`] check one
//! thread-local flag and return: no allocation, no formatting, no hashing.
//!
//! Why a recorder is owned, not one global flag (the design brief's): with no global
//! state, two harnesses in parallel tests never see each other's nodes, and an app with
//! two terminals records each with its own recorder. The arena moves into a thread-local
//! for the length of `Recorder::record`, and a const-initialized thread-local
//! `Cell<bool>` says so: that flag is all annotated code reads.
//!
//! One recording path: `scope` and `leaf` hand the describe closure on as
//! `&mut dyn FnMut`, so the code that borrows the arena, opens the node and finishes its
//! id is compiled once, not once per annotated call site. (A generic version copied the
//! closure's captures with 16-byte loads over the caller's 8-byte stores: a
//! store-forwarding stall.) A draw that panics still gives the arena back (a drop
//! guard); a describe closure that itself records is ignored rather than panicking on the
//! `RefCell`; a `Recorder::record` inside another one adds to the outer frame.

mod arena;
pub(crate) mod bare;
mod builder;
mod drawn;
mod ids;
mod text;
mod to_tree;

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

pub(crate) use arena::FrameArena;
pub use builder::{
    IntoFlag, IntoInvalid, IntoValue, InvalidSink, InvalidToken, NodeBuilder, ValueSink, ValueToken,
};
pub use text::{Displayed, IntoText, TextSink, escape_key, unescape_key};

use taria_schema::{Role, Tree};

/// The value domain of node `index` of `arena`.
pub(crate) fn schema_of(arena: &FrameArena, index: u32) -> taria_schema::ValueSchema {
    to_tree::schema(arena, &arena.nodes[index as usize])
}

thread_local! {
    /// True while a recorder's arena is lent to this thread. The one check on the
    /// disabled path: a const-initialized `Cell`, so no lazy init on access.
    static RECORDING: Cell<bool> = const { Cell::new(false) };
    /// The arena being recorded into, while [`RECORDING`] is true.
    static ACTIVE: RefCell<Option<FrameArena>> = const { RefCell::new(None) };
}

/// Whether a frame is being recorded on this thread right now.
///
/// # Examples
///
/// ```
/// assert!(!taria::widget::is_recording());
/// let mut recorder = taria::widget::Recorder::new();
/// recorder.record(|| assert!(taria::widget::is_recording()));
/// ```
#[inline]
#[must_use]
pub fn is_recording() -> bool {
    RECORDING.with(Cell::get)
}

/// Records a node that contains the nodes recorded until the returned [`Scope`] drops.
///
/// `describe` runs only while a frame is being recorded; otherwise this is one
/// flag check. The node's parent is the innermost open scope.
///
/// # Examples
///
/// ```
/// use taria::Role;
/// use taria::widget::Recorder;
///
/// let mut recorder = Recorder::new();
/// recorder.record(|| {
///     let _sidebar = taria::scope(|n| {
///         n.role(Role::Region).id("sidebar").label("Sidebar");
///     });
///     taria::leaf(|n| {
///         n.role(Role::Button).key("ok").label("OK");
///     });
/// });
/// let tree = recorder.tree();
/// assert_eq!(tree.get("sidebar/ok").unwrap().label.as_deref(), Some("OK"));
/// ```
#[inline]
pub fn scope(describe: impl FnOnce(&mut NodeBuilder<'_>)) -> Scope {
    if !is_recording() {
        return Scope::INACTIVE;
    }
    open(describe, true)
}

/// The role of the innermost open node: `None` at the top of the tree (or when no
/// frame is being recorded).
pub(crate) fn open_role() -> Option<Role> {
    ACTIVE.with(|active| {
        let slot = active.try_borrow().ok()?;
        let arena = slot.as_ref()?;
        let top = *arena.stack.last()?;
        Some(arena.nodes[top as usize].role)
    })
}

/// Records a node with no children.
///
/// Like [`scope`], but the node closes at once.
///
/// # Examples
///
/// ```
/// use taria::{Action, Role, testing::Harness};
///
/// let tree = Harness::new(20, 1).render(|frame| {
///     frame.render_widget("[ Save ]", frame.area());
///     taria::leaf(|n| {
///         n.role(Role::Button).id("save").label("Save").action(Action::Activate);
///         n.bounds(frame.area());
///     });
/// });
/// assert_eq!(tree.outline(), "- button \"Save\" [id=save] {activate}\n");
/// ```
#[inline]
pub fn leaf(describe: impl FnOnce(&mut NodeBuilder<'_>)) {
    if is_recording() {
        let _ = open(describe, false);
    }
}

/// Opens a node described by `describe`. The closure goes on as `&mut dyn FnMut`, so
/// that the recording path (the thread-local arena, the node's id) is compiled once
/// rather than for every annotated call site, and the closure's captures are read
/// where the caller wrote them, never copied.
#[inline]
fn open(describe: impl FnOnce(&mut NodeBuilder<'_>), push: bool) -> Scope {
    let mut describe = Some(describe);
    open_node(
        &mut |node| {
            if let Some(describe) = describe.take() {
                describe(node);
            }
        },
        push,
    )
}

#[inline(never)]
fn open_node(describe: &mut dyn FnMut(&mut NodeBuilder<'_>), push: bool) -> Scope {
    ACTIVE.with(|active| {
        // A describe closure that itself records would find the arena borrowed:
        // such nested nodes are ignored rather than panicking.
        let Ok(mut slot) = active.try_borrow_mut() else {
            return Scope::INACTIVE;
        };
        let Some(arena) = slot.as_mut() else {
            return Scope::INACTIVE;
        };
        let Some(index) = arena.open() else {
            if push {
                arena.suppressed += 1;
                return Scope {
                    kind: ScopeKind::Suppressed,
                    not_send: PhantomData,
                };
            }
            return Scope::INACTIVE;
        };
        describe(&mut NodeBuilder::new(arena, index));
        arena.assign_id(index);
        arena.hold_if_enclosing(index, push);
        if push {
            arena.stack.push(index);
            Scope {
                kind: ScopeKind::Open {
                    index,
                    frame: arena.frame,
                },
                not_send: PhantomData,
            }
        } else {
            Scope::INACTIVE
        }
    })
}

/// Closes its node when dropped. Returned by [`scope`]; keep it alive (`let _scope =
/// taria::scope(…)`) for as long as the node's children are being drawn.
///
/// A scope given [`bounds`](NodeBuilder::bounds) also closes at the first node drawn
/// wholly outside them, so a guard that lives to the end of its block does not take
/// in the siblings drawn after its children (its drop then closes nothing). A scope
/// without bounds holds everything drawn until the guard drops: end its block, or
/// `drop` it, before drawing its siblings.
///
/// # Examples
///
/// ```
/// use taria::{Role, testing::Harness};
///
/// let tree = Harness::new(20, 2).render(|_| {
///     {
///         let _toolbar = taria::scope(|n| {
///             n.role(Role::Toolbar).id("toolbar");
///         });
///         taria::leaf(|n| {
///             n.role(Role::Button).key("save").label("Save");
///         });
///     } // `_toolbar` drops here: its node closes.
///     taria::leaf(|n| {
///         n.role(Role::Status).id("status").label("Ready");
///     });
/// });
/// assert_eq!(tree.get("toolbar").unwrap().children[0].id, "toolbar/save");
/// assert_eq!(tree.roots.len(), 2, "the status line is the toolbar's sibling");
/// ```
#[must_use = "the node closes when this is dropped: bind it with `let _scope = …`"]
pub struct Scope {
    kind: ScopeKind,
    /// A scope belongs to the thread whose arena it opened a node in.
    not_send: PhantomData<*const ()>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ScopeKind {
    /// Nothing was recorded.
    Inactive,
    /// Node `index` of frame `frame` was opened.
    Open { index: u32, frame: u64 },
    /// A node over the depth or node limit was left out; its children are too.
    Suppressed,
}

impl Scope {
    const INACTIVE: Scope = Scope {
        kind: ScopeKind::Inactive,
        not_send: PhantomData,
    };
}

impl Drop for Scope {
    #[inline]
    fn drop(&mut self) {
        if self.kind == ScopeKind::Inactive {
            return;
        }
        let kind = self.kind;
        ACTIVE.with(|active| {
            if let Ok(mut slot) = active.try_borrow_mut()
                && let Some(arena) = slot.as_mut()
            {
                match kind {
                    ScopeKind::Open { index, frame } => arena.close_scope(index, frame),
                    ScopeKind::Suppressed => arena.suppressed = arena.suppressed.saturating_sub(1),
                    ScopeKind::Inactive => {}
                }
            }
        });
    }
}

/// Records the semantic tree of each frame an app draws.
///
/// Wrap each draw in [`Recorder::record`]; afterwards [`Recorder::tree`] gives the
/// frame's tree. Its arena is reused frame after frame, so once it has grown to the
/// frame's size, recording allocates nothing.
///
/// # Examples
///
/// ```
/// use ratatui::{Terminal, backend::TestBackend, widgets::Paragraph};
/// use taria::Role;
/// use taria::widget::Recorder;
///
/// let mut terminal = Terminal::new(TestBackend::new(20, 2)).unwrap();
/// let mut recorder = Recorder::new();
/// recorder.record(|| {
///     terminal.draw(|frame| {
///         let _status = taria::scope(|n| {
///             n.role(Role::Status).id("status").label("Ready").bounds(frame.area());
///         });
///         frame.render_widget(Paragraph::new("Ready"), frame.area());
///     })
/// })?;
/// assert_eq!(recorder.tree().outline(), "- status \"Ready\" [id=status]\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct Recorder {
    arena: FrameArena,
    disabled: bool,
}

impl Recorder {
    /// A recorder that records (see [`Recorder::set_enabled`]).
    #[must_use]
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// Turns recording on or off. While off, [`Recorder::record`] only runs the draw
    /// and annotated renders cost one flag check.
    pub fn set_enabled(&mut self, enabled: bool) {
        self.disabled = !enabled;
    }

    /// Whether recording is on.
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        !self.disabled
    }

    /// Runs `draw`, recording the nodes it draws as this recorder's new frame.
    ///
    /// If another recorder is already recording on this thread, its frame gets the
    /// nodes and this one keeps its previous frame.
    pub fn record<R>(&mut self, draw: impl FnOnce() -> R) -> R {
        let began = self.begin();
        let lent = Lent {
            recorder: self,
            began,
        };
        let result = draw();
        drop(lent);
        result
    }

    /// Starts recording a frame on this thread: the arena is lent to the thread's
    /// recording calls until [`Recorder::end`]. Returns whether it was lent: not when
    /// recording is off (the last frame is cleared) or another recorder is recording.
    pub(crate) fn begin(&mut self) -> bool {
        if self.disabled {
            self.arena.clear();
            return false;
        }
        if is_recording() {
            return false;
        }
        self.arena.clear();
        let arena = std::mem::take(&mut self.arena);
        ACTIVE.with(|active| *active.borrow_mut() = Some(arena));
        RECORDING.with(|r| r.set(true));
        true
    }

    /// Ends the frame [`Recorder::begin`] started (`began`: what it returned): takes
    /// the arena back, its open nodes closed.
    pub(crate) fn end(&mut self, began: bool) {
        if !began {
            return;
        }
        RECORDING.with(|r| r.set(false));
        if let Some(mut arena) = ACTIVE.with(|active| active.borrow_mut().take()) {
            arena.finish();
            self.arena = arena;
        }
    }

    /// Completes the last frame from the screen it drew, `buffer`: the nodes that take
    /// their value from the screen ([`NodeBuilder::drawn_value`]) and were given none
    /// take the text drawn there. [`Session`](crate::Session)'s draws and
    /// [`Harness`](crate::testing::Harness) do it; a draw recorded with
    /// [`Recorder::record`] calls it with the buffer the draw returned.
    pub fn read_drawn(&mut self, buffer: &ratatui::buffer::Buffer) {
        self.arena.read_drawn(buffer);
    }

    /// The last recorded frame as an owned tree (empty before the first frame).
    #[must_use]
    pub fn tree(&self) -> Tree {
        to_tree::build(&self.arena)
    }

    /// How many frames this recorder has recorded.
    #[must_use]
    pub fn frames(&self) -> u64 {
        self.arena.frame
    }

    /// The last frame's arena.
    pub(crate) fn arena(&self) -> &FrameArena {
        &self.arena
    }

    /// How many nodes the last frame has.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.arena.nodes.len()
    }
}

/// Ends a frame [`Recorder::record`] began, even when the draw panics.
struct Lent<'a> {
    recorder: &'a mut Recorder,
    began: bool,
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.recorder.end(self.began);
    }
}
