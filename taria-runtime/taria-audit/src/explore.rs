//! The explorer: every action each frame offers, tried once from a known state, each
//! answer judged against the frames that follow.
//!
//! How state is handled: an action is tried on the app in the state the audit knows
//! (a fresh start, or a fresh start followed by the inputs that revealed the node).
//! When an action changes what the app shows, the next action that needs another
//! state gets a fresh start ([`Target::start`]) and those inputs again. Nodes and
//! actions an action revealed (a dialog it opened) are tried in turn, up to
//! [`Limits::max_depth`] inputs from a fresh start, each `(node, action)` once.

use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::frame::frame_violations;
use crate::node_text::rect;
use crate::report::{AuditReport, Tried, Untried};
use crate::{Answer, Check, Input, Limits, Observation, Target, Violation};
use taria_schema::{Action, ActionName, Node, Role, ScrollDirection, Tree, Value, ValueSchema};

/// Explores the app behind `target` within `limits` and reports what is untrue.
///
/// # Examples
///
/// `Inert` is the [`Target`] of that trait's example: one button, drawn, whose
/// `activate` nothing takes. Headless, `taria::testing::audit` explores an
/// `AppHarness` the same way.
///
/// ```
/// # use std::time::Duration;
/// #
/// # use ratatui::buffer::Buffer;
/// # use taria_audit::{Answer, Input, Observation, Target};
/// #
/// # /// An app that draws one button and takes no action on it.
/// # struct Inert;
/// #
/// # fn frame() -> Observation {
/// #     let tree = serde_json::from_str(
/// #         r#"{"frame": 1, "roots": [{"id": "save", "role": "button", "label": "Save",
/// #            "actions": ["activate"], "bounds": [0, 0, 4, 1]}]}"#,
/// #     )
/// #     .expect("a tree");
/// #     Observation { tree, screen: Buffer::with_lines(["Save"]) }
/// # }
/// #
/// # impl Target for Inert {
/// #     fn start(&mut self) -> Result<Observation, String> {
/// #         Ok(frame())
/// #     }
/// #     fn observe(&mut self, _wait: Duration) -> Result<Observation, String> {
/// #         Ok(frame())
/// #     }
/// #     fn idle(&mut self, _during: Duration) -> Result<Vec<Observation>, String> {
/// #         Ok(vec![frame()])
/// #     }
/// #     fn perform(&mut self, _input: &Input) -> Answer {
/// #         Answer::Ignored { message: "nothing in the app takes `activate`".into() }
/// #     }
/// # }
/// use taria_audit::{Check, Limits, explore};
///
/// let report = explore(&mut Inert, &Limits { max_depth: 1, ..Limits::default() });
/// assert_eq!((report.tried.len(), report.tried[0].node.as_str()), (1, "save"));
/// assert_eq!(report.violations.len(), 1, "{report}");
/// assert_eq!(report.violations[0].check, Check::UnperformedOffer);
/// assert!(!report.is_clean());
/// ```
pub fn explore<T: Target + ?Sized>(target: &mut T, limits: &Limits) -> AuditReport {
    let mut audit = Audit {
        limits,
        started: Instant::now(),
        report: AuditReport::default(),
        found: BTreeMap::new(),
        moving: BTreeSet::new(),
        moving_cells: HashSet::new(),
        at: None,
    };
    audit.run(target);
    audit.finish()
}

/// An action to try, from the state `path` leads to.
struct Work {
    path: Vec<Input>,
    node: String,
    action: ActionName,
}

struct Audit<'l> {
    limits: &'l Limits,
    started: Instant,
    report: AuditReport,
    /// Violations by what they say, each with the first path that showed it.
    found: BTreeMap<(Check, Option<String>, String), Violation>,
    /// Ids that change with no input.
    moving: BTreeSet<String>,
    /// Cells that change with no input outside any node (a clock in a header line).
    moving_cells: HashSet<(u16, u16)>,
    /// The inputs from a fresh start that led to the app's state now (`None`:
    /// unknown, after the app exited).
    at: Option<Vec<Input>>,
}

impl Audit<'_> {
    fn run<T: Target + ?Sized>(&mut self, target: &mut T) {
        let first = match target.start() {
            Ok(first) => first,
            Err(why) => return self.fail(&[], format!("the app did not start: {why}")),
        };
        self.at = Some(Vec::new());
        let idle = match target.idle(self.limits.idle) {
            Ok(frames) => frames,
            Err(why) => return self.fail(&[], format!("the app stopped while idle: {why}")),
        };
        (self.moving, self.moving_cells) = moving_ids(&first, &idle);
        let last = idle.last().unwrap_or(&first);
        self.frame(&first, &[]);
        self.unstable_ids(&first.tree, &last.tree);
        let mut queued: HashSet<(String, ActionName)> = HashSet::new();
        let mut work: VecDeque<Work> = VecDeque::new();
        for (node, action) in offers(&last.tree) {
            if queued.insert((node.clone(), action.clone())) {
                work.push_back(Work {
                    path: Vec::new(),
                    node,
                    action,
                });
            }
        }
        while let Some(next) = work.pop_front() {
            if let Some(why) = self.over_budget() {
                self.untried(&next, why);
                continue;
            }
            let revealed = self.try_one(target, &next);
            if next.path.len() + 1 < self.limits.max_depth.max(1) {
                for (node, action, path) in revealed {
                    if queued.insert((node.clone(), action.clone())) {
                        work.push_back(Work { path, node, action });
                    }
                }
            } else {
                for (node, action, _) in revealed {
                    if queued.insert((node.clone(), action.clone())) {
                        self.report.untried.push(Untried {
                            node,
                            action: action.to_string(),
                            why: format!(
                                "revealed {} inputs deep (the audit goes {} deep)",
                                next.path.len() + 1,
                                self.limits.max_depth
                            ),
                        });
                    }
                }
            }
        }
    }

    /// Why no more inputs may be performed, if so.
    fn over_budget(&self) -> Option<String> {
        if self.report.inputs >= self.limits.max_inputs {
            return Some(format!(
                "the audit's budget of {} inputs ran out",
                self.limits.max_inputs
            ));
        }
        if self.started.elapsed() >= self.limits.max_time {
            return Some(format!(
                "the audit's budget of {} s ran out",
                self.limits.max_time.as_secs()
            ));
        }
        None
    }

    /// Brings the app to the state `path` leads to: as it is when it is there, else
    /// a fresh start and the inputs again. The error is why it could not.
    fn reach<T: Target + ?Sized>(
        &mut self,
        target: &mut T,
        path: &[Input],
    ) -> Result<Observation, String> {
        if self.at.as_deref() == Some(path) {
            return target.observe(std::time::Duration::ZERO);
        }
        self.at = None;
        self.report.restarts += 1;
        let mut now = target.start()?;
        for (step, input) in path.iter().enumerate() {
            self.report.inputs += 1;
            match target.perform(input) {
                Answer::Delivered { .. } => {}
                other => {
                    return Err(format!(
                        "after a fresh start, step {} ({input}) was answered {}",
                        step + 1,
                        answer_summary(&other)
                    ));
                }
            }
            now = target.observe(self.limits.settle)?;
        }
        self.at = Some(path.to_vec());
        Ok(now)
    }

    /// Tries one action; returns the `(node, action)` pairs the frame after it offers,
    /// with the path that leads there, when the action changed the app's state.
    fn try_one<T: Target + ?Sized>(
        &mut self,
        target: &mut T,
        work: &Work,
    ) -> Vec<(String, ActionName, Vec<Input>)> {
        let before = match self.reach(target, &work.path) {
            Ok(before) => before,
            Err(why) => {
                self.untried(
                    work,
                    format!("could not reach the state it was seen in: {why}"),
                );
                return Vec::new();
            }
        };
        let Some(node) = before.tree.get(&work.node) else {
            self.untried(work, "not in the tree after a fresh start".into());
            return Vec::new();
        };
        if !node.actions.contains(&work.action) {
            self.untried(work, "not offered after a fresh start".into());
            return Vec::new();
        }
        if node.state.disabled || node.state.inert {
            self.untried(work, "disabled".into());
            return Vec::new();
        }
        let input = input_for(node, &work.action);
        let mut path = work.path.clone();
        path.push(input.clone());
        self.report.inputs += 1;
        let answer = target.perform(&input);
        self.report.tried.push(Tried {
            node: work.node.clone(),
            action: work.action.to_string(),
            after: work.path.iter().map(ToString::to_string).collect(),
            answer: answer_summary(&answer),
        });
        let after = match target.observe(self.limits.settle) {
            Ok(after) => after,
            Err(why) => {
                self.at = None;
                if !matches!(answer, Answer::Exited { .. }) {
                    self.add(&path, Check::AppFailed, Some(&work.node), why);
                }
                return Vec::new();
            }
        };
        self.judge(target, &before, &answer, &after, &path);
        self.frame(&after, &path);
        let mut last = after;
        if repeatable(&input) && matches!(answer, Answer::Delivered { .. }) {
            last = self.repeat(target, &input, last, &path);
        }
        if matches!(answer, Answer::Exited { .. }) {
            self.at = None;
            return Vec::new();
        }
        if self.same(&before, &last) {
            return Vec::new();
        }
        self.at = Some(path.clone());
        offers(&last.tree)
            .into_iter()
            .map(|(node, action)| (node, action, path.clone()))
            .collect()
    }

    /// The same input again: it must change nothing more.
    fn repeat<T: Target + ?Sized>(
        &mut self,
        target: &mut T,
        input: &Input,
        after: Observation,
        path: &[Input],
    ) -> Observation {
        self.report.inputs += 1;
        let again = target.perform(input);
        let Ok(twice) = target.observe(self.limits.settle) else {
            self.at = None;
            self.add(
                path,
                Check::RepeatChanged,
                Some(&input.node),
                format!("the app stopped when `{input}` was performed a second time"),
            );
            return after;
        };
        let delivered = matches!(again, Answer::Delivered { .. });
        if delivered && self.changed_by_input(target, &after, &twice, &input.node) {
            let what = self.difference(&after, &twice);
            self.add(
                path,
                Check::RepeatChanged,
                Some(&input.node),
                format!(
                    "performed a second time, `{}` changed the app again ({what}); a second \
                     `{}` should change nothing",
                    input.action, input.action
                ),
            );
        }
        twice
    }

    /// Whether `after` differs from `before` by more than what changes by itself,
    /// around `node`. Before it says so, it watches the app with no input for the
    /// idle time twice over and learns what changes by itself now (a sort makes a table's rows
    /// move with each tick, which the first watch did not see).
    fn changed_by_input<T: Target + ?Sized>(
        &mut self,
        target: &mut T,
        before: &Observation,
        after: &Observation,
        node: &str,
    ) -> bool {
        let differs =
            |audit: &Self| !audit.touches_moving(&before.tree, node) && !audit.same(before, after);
        if !differs(self) {
            return false;
        }
        if let Ok(idle) = target.idle(self.limits.idle * 2) {
            let (moving, cells) = moving_ids(after, &idle);
            self.moving.extend(moving);
            self.moving_cells.extend(cells);
        }
        differs(self)
    }

    /// The checks of one answer against the frames before and after it.
    fn judge<T: Target + ?Sized>(
        &mut self,
        target: &mut T,
        before: &Observation,
        answer: &Answer,
        after: &Observation,
        path: &[Input],
    ) {
        let Some(input) = path.last() else {
            return;
        };
        // A `focus` of the focused node, a `select` of the selected one.
        let noop = before
            .tree
            .get(&input.node)
            .is_some_and(|n| already_done(n, input));
        let node = Some(input.node.as_str());
        // What changes by itself cannot be told from what the input changed.
        let judged = !self.touches_moving(&before.tree, &input.node);
        match answer {
            Answer::Delivered { said_changed } => {
                let tree_changed = self.digest(&before.tree) != self.digest(&after.tree);
                if judged
                    && *said_changed == Some(false)
                    && tree_changed
                    && self.changed_by_input(target, before, after, &input.node)
                    && self.digest(&before.tree) != self.digest(&after.tree)
                {
                    let what = self.difference(before, after);
                    self.add(path, Check::UntrueNothingChanged, node, format!(
                        "`{input}` was answered that nothing in the tree changed, but the frames \
                         that followed show a change ({what})"
                    ));
                }
                let copy = input.action == ActionName::Core(Action::Copy);
                if judged && !noop && !copy && self.same(before, after) {
                    self.add(
                        path,
                        Check::NoVisibleEffect,
                        node,
                        format!(
                            "`{input}` was delivered but nothing visible changed (the tree and the \
                         screen are as before); offer it only where it does something, or \
                         refuse it with the reason"
                        ),
                    );
                }
            }
            Answer::Ignored { message } => {
                self.add(
                    path,
                    Check::UnperformedOffer,
                    node,
                    format!(
                        "offers `{}`, but nothing performs it: {message}",
                        input.action
                    ),
                );
            }
            Answer::Refused { code, message } => self.refusal(input, code, message, path),
            Answer::Exited { .. } => {}
        }
    }

    /// The checks of a refusal: its reason is true, and taria's words are not put in
    /// the app's mouth.
    fn refusal(&mut self, input: &Input, code: &str, message: &str, path: &[Input]) {
        let node = Some(input.node.as_str());
        if code == "not_found" || code == "unknown_node" {
            self.add(
                path,
                Check::UntrueRefusal,
                node,
                format!(
                    "`{input}` was refused as not found, but `{}` is in the tree it was read from: \
                 {message}",
                    input.node
                ),
            );
        }
        if let Some(quoted) = message.split("the app says ").nth(1)
            && let Some(phrase) = TARIA_PHRASES.iter().find(|p| quoted.contains(*p))
        {
            self.add(
                path,
                Check::Misattributed,
                node,
                format!("taria's own words ({phrase:?}) are quoted as the app's: {message}"),
            );
        }
        if message.contains("handler refused")
            && code != "app_rejected"
            && code != "handler_rejected"
        {
            self.add(
                path,
                Check::Misattributed,
                node,
                format!(
                    "says the app's handler refused `{input}`, but the refusal is coded `{code}`: \
                 {message}"
                ),
            );
        }
    }

    /// The frame checks of `observation`, reached by `path`.
    fn frame(&mut self, observation: &Observation, path: &[Input]) {
        for violation in frame_violations(&observation.tree, &observation.screen, &self.moving) {
            self.add(
                path,
                violation.check,
                violation.node.as_deref(),
                violation.message,
            );
        }
        collect_ids(&observation.tree, &mut self.report.nodes);
    }

    /// Nodes of `second` (a redraw with no input) that are a node of `first` (same role,
    /// text and place) under another id. Positional ids (`stable: false`) are left
    /// out: they name a place, and say so.
    fn unstable_ids(&mut self, first: &Tree, second: &Tree) {
        let mut by_look: BTreeMap<String, String> = BTreeMap::new();
        for node in all(first).into_iter().filter(|n| n.stable) {
            by_look.insert(look_key(node), node.id.to_string());
        }
        for node in all(second).into_iter().filter(|n| n.stable) {
            if let Some(id) = by_look.get(&look_key(node))
                && id != node.id.as_str()
            {
                let message = format!("redrawn with no input, the same node is `{}` now", node.id);
                self.add(&[], Check::UnstableIds, Some(id), message);
            }
        }
    }

    fn add(&mut self, path: &[Input], check: Check, node: Option<&str>, message: String) {
        let key = (check, node.map(str::to_owned), message.clone());
        self.found.entry(key).or_insert_with(|| Violation {
            check,
            node: node.map(str::to_owned),
            path: path.iter().map(ToString::to_string).collect(),
            message,
        });
    }

    fn untried(&mut self, work: &Work, why: String) {
        self.report.untried.push(Untried {
            node: work.node.clone(),
            action: work.action.to_string(),
            why,
        });
    }

    fn fail(&mut self, path: &[Input], why: String) {
        self.add(path, Check::AppFailed, None, why);
    }

    /// What the checks compare of a tree: every node but those that move by themselves.
    fn digest(&self, tree: &Tree) -> Vec<String> {
        all(tree)
            .into_iter()
            .filter(|n| !self.is_moving(n.id.as_str()))
            .map(summary)
            .collect()
    }

    /// Whether two frames show the same: the same tree and the same screen, but for
    /// what moves by itself.
    fn same(&self, a: &Observation, b: &Observation) -> bool {
        self.digest(&a.tree) == self.digest(&b.tree) && self.same_screen(a, b)
    }

    fn same_screen(&self, a: &Observation, b: &Observation) -> bool {
        if a.screen.area != b.screen.area {
            return false;
        }
        let mut skip: Vec<Rect> = Vec::new();
        for tree in [&a.tree, &b.tree] {
            for node in all(tree) {
                if self.moving.contains(node.id.as_str()) {
                    skip.push(rect(node.bounds));
                }
            }
        }
        screen_equal(&a.screen, &b.screen, &skip, &self.moving_cells)
    }

    /// The first difference between two frames, in words.
    fn difference(&self, a: &Observation, b: &Observation) -> String {
        let before: BTreeMap<String, String> = all(&a.tree)
            .into_iter()
            .filter(|n| !self.is_moving(n.id.as_str()))
            .map(|n| (n.id.to_string(), summary(n)))
            .collect();
        for node in all(&b.tree) {
            if self.is_moving(node.id.as_str()) {
                continue;
            }
            match before.get(node.id.as_str()) {
                None => return format!("`{}` appeared", node.id),
                Some(old) if *old != summary(node) => return format!("`{}` changed", node.id),
                Some(_) => {}
            }
        }
        let after: BTreeSet<String> = all(&b.tree)
            .iter()
            .map(|n| n.id.to_string())
            .filter(|id| !self.is_moving(id))
            .collect();
        if let Some(gone) = before.keys().find(|id| !after.contains(*id)) {
            return format!("`{gone}` went away");
        }
        "the screen changed".into()
    }

    /// Whether `id` or an ancestor of it moves by itself.
    fn is_moving(&self, id: &str) -> bool {
        self.moving.contains(id)
            || id
                .match_indices('/')
                .any(|(at, _)| self.moving.contains(&id[..at]))
    }

    /// Whether `id`, an ancestor or a descendant of it moves by itself.
    fn touches_moving(&self, tree: &Tree, id: &str) -> bool {
        if self.moving.is_empty() {
            return false;
        }
        let Some(node) = tree.get(id) else {
            return false;
        };
        all_under(node)
            .iter()
            .any(|n| self.moving.contains(n.id.as_str()))
            || self.moving.iter().any(|m| id.starts_with(&format!("{m}/")))
    }

    fn finish(mut self) -> AuditReport {
        // A comparison of frames judged before a node was seen to change by itself
        // (in a state the first watch did not see) is not a finding.
        let mut found = std::mem::take(&mut self.found);
        found.retain(|(check, node, _), _| {
            let compared = matches!(check, Check::RepeatChanged | Check::UntrueNothingChanged);
            !(compared && node.as_deref().is_some_and(|id| self.is_moving(id)))
        });
        self.found = found;
        self.report.violations = self.found.into_values().collect();
        self.report
            .violations
            .sort_by(|a, b| (a.check, &a.node).cmp(&(b.check, &b.node)));
        self.report.moving = self.moving.into_iter().collect();
        self.report.seconds = self.started.elapsed().as_secs_f64();
        self.report
    }
}

/// Words taria itself writes in refusals (its router, its checks, its widgets):
/// never the app's.
const TARIA_PHRASES: &[&str] = &[
    "moves the selection of",
    "may move the selection of",
    "nothing in the tree shows which has focus",
    "has focus, and",
    "may reach",
    "select one of the",
    "nothing in the app handles",
    "key fallback",
];

/// An answer in short, for the report's list of what was tried.
fn answer_summary(answer: &Answer) -> String {
    match answer {
        Answer::Delivered {
            said_changed: Some(false),
        } => "delivered (nothing changed)".into(),
        Answer::Delivered { .. } => "delivered".into(),
        Answer::Ignored { message } => format!("ignored: {message}"),
        Answer::Refused { code, message } => format!("refused {code}: {message}"),
        Answer::Exited { message } => format!("the app exited: {message}"),
    }
}

/// What changes between `first` and the idle frames after it: the ids of nodes whose
/// own part changed, came or went, or that the screen changed in (text a widget draws
/// but does not record, such as a table's numbers); and the cells that changed
/// outside any node, each with the rest of its run of cells outside any node (the
/// whole of `up 00:01:00` in a header line, though only its seconds were seen to
/// change).
fn moving_ids(
    first: &Observation,
    idle: &[Observation],
) -> (BTreeSet<String>, HashSet<(u16, u16)>) {
    let base: BTreeMap<String, String> = all(&first.tree)
        .into_iter()
        .map(|n| (n.id.to_string(), summary(n)))
        .collect();
    let mut moving = BTreeSet::new();
    let mut cells = HashSet::new();
    for frame in idle {
        changed_on_screen(
            &first.tree,
            &first.screen,
            &frame.screen,
            &mut moving,
            &mut cells,
        );
        let now: BTreeMap<String, String> = all(&frame.tree)
            .into_iter()
            .map(|n| (n.id.to_string(), summary(n)))
            .collect();
        for (id, look) in &now {
            if base.get(id) != Some(look) {
                moving.insert(id.clone());
            }
        }
        for id in base.keys() {
            if !now.contains_key(id) {
                moving.insert(id.clone());
            }
        }
    }
    (moving, cells)
}

/// The nodes of `tree` that a cell changed in, from `a` to `b`: for each changed cell
/// the smallest node around it, or, when that is an item or a cell (rows that a sort
/// reorders), the container of the items.
fn changed_on_screen(
    tree: &Tree,
    a: &Buffer,
    b: &Buffer,
    into: &mut BTreeSet<String>,
    cells: &mut HashSet<(u16, u16)>,
) {
    if a.area != b.area {
        return;
    }
    let nodes: Vec<&Node> = all(tree).into_iter().filter(|n| !structural(n)).collect();
    let area = a.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if a.cell((x, y)) == b.cell((x, y)) || cells.contains(&(x, y)) {
                continue;
            }
            if let Some(id) = holder_of(tree, &nodes, x, y) {
                into.insert(id);
            } else {
                let outside = |x: u16| holder_of(tree, &nodes, x, y).is_none();
                let mut left = x;
                while left > area.left() && outside(left - 1) {
                    left -= 1;
                }
                let mut right = x;
                while right + 1 < area.right() && outside(right + 1) {
                    right += 1;
                }
                cells.extend((left..=right).map(|x| (x, y)));
            }
        }
    }
}

/// A node that lays others out rather than showing something of its own (the app,
/// a region, a group): a change inside it is told by its children, or by cells.
fn structural(node: &Node) -> bool {
    matches!(
        node.role,
        Role::App | Role::Region | Role::Group | Role::Form | Role::Dialog
    )
}

/// The id of the smallest node drawn over `(x, y)` among `nodes`, or of the container
/// of the items when that node is an item or a cell.
fn holder_of(tree: &Tree, nodes: &[&Node], x: u16, y: u16) -> Option<String> {
    let at = ratatui::layout::Position { x, y };
    let smallest = nodes
        .iter()
        .filter(|n| rect(n.bounds).contains(at))
        .min_by_key(|n| u32::from(n.bounds.width) * u32::from(n.bounds.height))?;
    let mut id = smallest.id.to_string();
    let mut role = smallest.role;
    while matches!(
        role,
        Role::ListItem
            | Role::Row
            | Role::Cell
            | Role::Tab
            | Role::TreeItem
            | Role::Option
            | Role::MenuItem
            | Role::ColumnHeader
    ) {
        let Some((parent, _)) = id.rsplit_once('/') else {
            break;
        };
        let Some(node) = tree.get(parent) else {
            break;
        };
        id = parent.to_owned();
        role = node.role;
    }
    Some(id)
}

/// A node's own part, as the checks compare it (not its children).
fn summary(node: &Node) -> String {
    format!(
        "{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
        node.id,
        node.role,
        node.label,
        node.value,
        node.state,
        node.scroll,
        node.position,
        node.bounds,
        node.actions,
        node.redacted_length
    )
}

/// What makes a node the same node across a redraw: its role, text and place.
fn look_key(node: &Node) -> String {
    format!(
        "{:?}|{:?}|{:?}|{:?}",
        node.role, node.label, node.value, node.bounds
    )
}

fn all(tree: &Tree) -> Vec<&Node> {
    tree.iter().collect()
}

fn all_under(node: &Node) -> Vec<&Node> {
    let mut nodes = vec![node];
    for child in &node.children {
        nodes.extend(all_under(child));
    }
    nodes
}

fn collect_ids(tree: &Tree, into: &mut BTreeSet<String>) {
    for node in all(tree) {
        into.insert(node.id.to_string());
    }
}

/// Every `(node, action)` the tree offers, in tree order.
fn offers(tree: &Tree) -> Vec<(String, ActionName)> {
    all(tree)
        .into_iter()
        .flat_map(|n| n.actions.iter().map(|a| (n.id.to_string(), a.clone())))
        .collect()
}

/// The input an agent would send for `action` on `node`: `set_value` with a value
/// that fits the node's schema and differs from its value, `scroll` down by one.
fn input_for(node: &Node, action: &ActionName) -> Input {
    let mut input = Input {
        node: node.id.to_string(),
        action: action.clone(),
        value: None,
        direction: None,
    };
    match action {
        ActionName::Core(Action::SetValue) => {
            input.value = Some(value_for(node.value_schema.as_ref(), node.value.as_ref()));
        }
        ActionName::Core(Action::Scroll) => input.direction = Some(ScrollDirection::Down),
        _ => {}
    }
    input
}

/// A value that fits `schema` and is not `current`.
fn value_for(schema: Option<&ValueSchema>, current: Option<&Value>) -> Value {
    match schema {
        Some(ValueSchema::Options { options }) => {
            let other = options
                .iter()
                .rev()
                .find(|o| current != Some(&Value::Text((*o).clone())));
            Value::Text(other.or(options.first()).cloned().unwrap_or_default())
        }
        Some(ValueSchema::Number { min, max, step }) => {
            let now = match current {
                Some(Value::Number(n)) => Some(*n),
                _ => None,
            };
            let candidates = [
                now.map(|n| n + step.unwrap_or(1.0)),
                now.map(|n| n - step.unwrap_or(1.0)),
                *min,
                *max,
                Some(1.0),
            ];
            let fits = |v: f64| min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m);
            let chosen = candidates
                .into_iter()
                .flatten()
                .find(|&v| fits(v) && Some(v) != now)
                .unwrap_or(1.0);
            Value::Number(chosen)
        }
        Some(ValueSchema::Bool) => Value::Bool(current != Some(&Value::Bool(true))),
        _ => match current {
            Some(Value::Text(text)) if text == "taria" => Value::Text("audit".into()),
            _ => Value::Text("taria".into()),
        },
    }
}

/// Whether `input` on `node` has nothing to do: a `focus` of the focused node, a
/// `select` of the selected one.
fn already_done(node: &Node, input: &Input) -> bool {
    match &input.action {
        ActionName::Core(Action::Focus) => node.state.focused,
        ActionName::Core(Action::Select) => node.state.selected,
        ActionName::Core(Action::Expand) => node.state.expanded == Some(true),
        ActionName::Core(Action::Collapse) => node.state.expanded == Some(false),
        _ => false,
    }
}

/// Inputs that, done twice, must do nothing the second time.
fn repeatable(input: &Input) -> bool {
    matches!(
        input.action,
        ActionName::Core(
            Action::Focus | Action::Select | Action::SetValue | Action::Expand | Action::Collapse
        )
    )
}

/// Whether two screens are the same cell for cell, outside `skip` and `cells`.
fn screen_equal(a: &Buffer, b: &Buffer, skip: &[Rect], cells: &HashSet<(u16, u16)>) -> bool {
    let area = a.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if cells.contains(&(x, y))
                || skip
                    .iter()
                    .any(|r| r.contains(ratatui::layout::Position { x, y }))
            {
                continue;
            }
            if a.cell((x, y)) != b.cell((x, y)) {
                return false;
            }
        }
    }
    true
}
