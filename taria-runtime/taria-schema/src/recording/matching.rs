//! [`Match`]: which parts of a tree a replay or a snapshot compares, and the rules
//! that loosen it ([`Pattern`]s for ids and labels, for all steps or some).

use std::fmt;
use std::ops::RangeInclusive;

use crate::model::{Bounds, Node, Tree};

mod pattern;
mod uses;

pub use pattern::{Pattern, PatternError, REGEX_PREFIX};
pub use uses::Uses;
pub use uses::{RuleConflict, Unused};

/// Which parts of a tree must match when a replay compares the tree the app draws
/// now with the recorded one (and when a generated test compares it with its
/// snapshot).
///
/// A tree is compared through its [`outline`](Tree::outline) after projecting it:
/// ids, roles, labels, values, states (selected, checked, focused, invalid and its
/// message, …), positions, scroll offsets and the actions offered always count;
/// bounds and the frame count never do (they are not in the outline), so a re-theme,
/// or a relayout that keeps the nodes in the same reading order, passes and a
/// behaviour change fails. Siblings are compared in reading order (top to bottom,
/// then left to right, by where they are drawn), so an app that now draws the same
/// screen in another order passes; [`draw_order`](Match::draw_order) compares them in
/// the order the app drew them instead.
///
/// Rules loosen it, each keyed by a node id [`Pattern`] (a glob such as `tasks/*`,
/// or a regex):
///
/// * [`exclude`](Match::exclude): volatile nodes (a clock, a spinner) and their
///   descendants are left out of both trees;
/// * [`label`](Match::label): a label that matches a pattern (e.g. `"Updated *"`)
///   counts as that pattern, so it may change within it. One label rule per node: two
///   that apply to one node at one step are an error ([`RuleConflict`]), not a choice.
///
/// Any rules can be given for some steps only ([`at_steps`](Match::at_steps)); there
/// they take the place of the rules for all steps on the nodes they match. A rule
/// that matched nothing over a run does nothing, and is said so ([`Unused`]).
///
/// # Examples
///
/// ```
/// use taria::testing::{Match, Pattern};
///
/// let tree = |clock: &str, folder: &str| -> taria::Tree {
///     let json = serde_json::json!({"frame": 1, "roots": [
///         {"id": "clock", "role": "status", "label": clock},
///         {"id": "folder", "role": "status", "label": folder},
///     ]});
///     serde_json::from_value(json).unwrap()
/// };
/// let rules = Match::new().exclude("clock").label("folder", Pattern::glob("tmp-[0-9]*"));
/// assert_eq!(
///     rules.outline(&tree("12:00", "tmp-1"), 1)?,
///     rules.outline(&tree("12:01", "tmp-2"), 1)?
/// );
/// assert_eq!(rules.outline(&tree("12:00", "tmp-1"), 1)?, "- status \"tmp-[0-9]*\" [id=folder]\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Match {
    rules: Vec<Rule>,
    draw_order: bool,
}

/// One rule of a [`Match`]: what it does to the nodes whose id matches its pattern,
/// and at which steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    id: Pattern,
    kind: RuleKind,
    steps: Option<RangeInclusive<u64>>,
}

/// What a [`Rule`] does.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleKind {
    /// The nodes (and what is under them) are left out.
    Exclude,
    /// A label that matches the pattern counts as the pattern.
    Label(Pattern),
    /// The text drawn inside the node's bounds is compared too.
    Screen,
}

impl Rule {
    /// The pattern the ids of the nodes it applies to match.
    #[must_use]
    pub fn id(&self) -> &Pattern {
        &self.id
    }

    /// What it does.
    #[must_use]
    pub fn kind(&self) -> &RuleKind {
        &self.kind
    }

    /// The steps it applies at (step 0: the first tree); `None` for all.
    #[must_use]
    pub fn steps(&self) -> Option<RangeInclusive<u64>> {
        self.steps.clone()
    }

    fn applies_at(&self, step: u64) -> bool {
        self.steps
            .as_ref()
            .is_none_or(|steps| steps.contains(&step))
    }
}

/// As the builder call that makes it: `exclude("clock")`,
/// `label("status", "Saved *") at steps 3-5`.
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = self.id.to_string();
        match &self.kind {
            RuleKind::Exclude => write!(f, "exclude({id:?})")?,
            RuleKind::Label(label) => write!(f, "label({id:?}, {:?})", label.to_string())?,
            RuleKind::Screen => write!(f, "screen({id:?})")?,
        }
        match &self.steps {
            Some(steps) if steps.start() == steps.end() => write!(f, " at step {}", steps.start()),
            Some(steps) => write!(f, " at steps {}-{}", steps.start(), steps.end()),
            None => Ok(()),
        }
    }
}

impl Match {
    /// Everything the outline shows must match, labels exactly, siblings in reading
    /// order.
    #[must_use]
    pub fn new() -> Match {
        Match::default()
    }

    /// Leaves out the nodes whose id matches `id` (and what is under them).
    #[must_use]
    pub fn exclude(mut self, id: impl Into<Pattern>) -> Match {
        self.push(id.into(), RuleKind::Exclude);
        self
    }

    /// The label of a node whose id matches `id` passes when it matches `label` (`"*"`:
    /// any label, or none; a node without a label is matched as an empty one).
    #[must_use]
    pub fn label(mut self, id: impl Into<Pattern>, label: impl Into<Pattern>) -> Match {
        self.push(id.into(), RuleKind::Label(label.into()));
        self
    }

    /// Compares the screen too for the nodes whose id matches `id`: the text drawn
    /// inside each one's bounds (the cells no node drawn after it covers), so a
    /// change only the screen shows (a `[x]` no longer drawn while the state is still
    /// recorded) fails. Their text follows the outline, one line per row.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria::testing::Match;
    ///
    /// let tree: taria::Tree = serde_json::from_value(serde_json::json!({"frame": 1, "roots": [
    ///     {"id": "tasks/1", "role": "list_item", "label": "Milk", "checked": "true",
    ///      "bounds": [0, 0, 12, 1]},
    /// ]}))?;
    /// let rules = Match::new().screen("tasks/*");
    /// let drawn = rules.outline_with_screen(&tree, 1, &["[x] Milk".to_owned()])?;
    /// let undrawn = rules.outline_with_screen(&tree, 1, &["    Milk".to_owned()])?;
    /// assert_ne!(drawn, undrawn);
    /// assert!(drawn.ends_with("\n  [id=tasks/1] \"[x] Milk\"\n"), "{drawn}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn screen(mut self, id: impl Into<Pattern>) -> Match {
        self.push(id.into(), RuleKind::Screen);
        self
    }

    /// `rules` (their rules; not their order) for the steps in `steps` only (step 0
    /// is the first tree, step N the tree after the recording's step N). At those
    /// steps they take the place of this `Match`'s rules for all steps on the nodes
    /// they match.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria::testing::Match;
    ///
    /// // The status says "Deleted …" after step 6 only; elsewhere it must match exactly.
    /// let rules = Match::new().at_steps(6..=6, Match::new().label("status", "Deleted *"));
    /// # let _ = rules;
    /// ```
    #[must_use]
    pub fn at_steps(mut self, steps: RangeInclusive<u64>, rules: Match) -> Match {
        for mut rule in rules.rules {
            rule.steps = Some(match rule.steps {
                // Nested: the steps both give (an empty range if none).
                Some(inner) => {
                    (*inner.start()).max(*steps.start())..=(*inner.end()).min(*steps.end())
                }
                None => steps.clone(),
            });
            self.rules.push(rule);
        }
        self
    }

    /// Compares siblings in the order the app drew them, not in reading order: an
    /// app that draws the same screen in another order fails.
    #[must_use]
    pub fn draw_order(mut self) -> Match {
        self.draw_order = true;
        self
    }

    /// The rules, in the order they were given.
    #[must_use]
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Whether a rule compares the screen ([`screen`](Match::screen)).
    #[must_use]
    pub fn checks_screen(&self) -> bool {
        self.rules.iter().any(|rule| rule.kind == RuleKind::Screen)
    }

    /// Whether siblings are compared in the order the app drew them
    /// ([`draw_order`](Match::draw_order)).
    #[must_use]
    pub fn compares_draw_order(&self) -> bool {
        self.draw_order
    }

    fn push(&mut self, id: Pattern, kind: RuleKind) {
        self.rules.push(Rule {
            id,
            kind,
            steps: None,
        });
    }

    /// `tree` as these rules see it at `step`: excluded nodes removed, each label that
    /// matches its node's pattern replaced by the pattern, siblings in the order
    /// compared, bounds cleared.
    ///
    /// # Errors
    ///
    /// When two label rules apply to one node at `step`.
    pub fn project(&self, tree: &Tree, step: u64) -> Result<Tree, RuleConflict> {
        self.project_noting(tree, step, &mut Uses::new(self))
    }

    /// The outline of [`project`](Match::project)ed `tree`: what is compared.
    ///
    /// # Errors
    ///
    /// When two label rules apply to one node at `step`.
    pub fn outline(&self, tree: &Tree, step: u64) -> Result<String, RuleConflict> {
        Ok(self.project(tree, step)?.outline())
    }

    /// The [`outline`](Match::outline), then the text inside the bounds of each node
    /// a [`screen`](Match::screen) rule names, on `screen` (one string per row, wide
    /// characters once: `taria::testing::screen_text`, or a recorded
    /// screen).
    ///
    /// # Errors
    ///
    /// When two label rules apply to one node at `step`.
    pub fn outline_with_screen(
        &self,
        tree: &Tree,
        step: u64,
        screen: &[String],
    ) -> Result<String, RuleConflict> {
        self.compared(tree, step, Some(screen), &mut Uses::new(self))
    }

    /// What is compared at `step`: the outline, and with a `screen`, the screen
    /// section; noting in `uses` what each rule did.
    #[doc(hidden)]
    pub fn compared(
        &self,
        tree: &Tree,
        step: u64,
        screen: Option<&[String]>,
        uses: &mut Uses,
    ) -> Result<String, RuleConflict> {
        let mut screened = Vec::new();
        let mut projected = Tree {
            frame: 0,
            roots: self.nodes(&tree.roots, step, uses, &mut screened)?,
            diagnostics: Vec::new(),
        };
        let mut in_order = Vec::new();
        take_bounds(&mut projected.roots, &screened, &mut in_order);
        let mut text = projected.outline();
        if let Some(rows) = screen {
            text.push_str(&super::screen_check::section(tree, &in_order, rows));
        }
        Ok(text)
    }

    /// The rules that did nothing over `trees` (each with its step), and why: an
    /// exclude or label rule whose id pattern matched no node, a label rule whose
    /// pattern fit none of the labels of the nodes it matched.
    ///
    /// # Errors
    ///
    /// When two label rules apply to one node at one step.
    pub fn unused<'t>(
        &self,
        trees: impl IntoIterator<Item = (u64, &'t Tree)>,
    ) -> Result<Vec<Unused>, RuleConflict> {
        let mut uses = Uses::new(self);
        for (step, tree) in trees {
            self.project_noting(tree, step, &mut uses)?;
        }
        Ok(uses.unused(self))
    }

    /// [`project`](Match::project), noting in `uses` what each rule did.
    #[doc(hidden)]
    pub fn project_noting(
        &self,
        tree: &Tree,
        step: u64,
        uses: &mut Uses,
    ) -> Result<Tree, RuleConflict> {
        let mut roots = self.nodes(&tree.roots, step, uses, &mut Vec::new())?;
        take_bounds(&mut roots, &[], &mut Vec::new());
        Ok(Tree {
            frame: 0,
            roots,
            diagnostics: Vec::new(),
        })
    }

    /// The nodes kept, in the order compared, bounds still set; the ids of those a
    /// screen rule names go to `screened`.
    fn nodes(
        &self,
        nodes: &[Node],
        step: u64,
        uses: &mut Uses,
        screened: &mut Vec<String>,
    ) -> Result<Vec<Node>, RuleConflict> {
        let mut kept = Vec::with_capacity(nodes.len());
        for node in nodes {
            if self.excluded(node, step, uses) {
                continue;
            }
            let projected = self.node(node, step, uses, screened)?;
            kept.push((reading_key(node.bounds), projected));
        }
        Ok(if self.draw_order {
            kept.into_iter().map(|(_, node)| node).collect()
        } else {
            in_reading_order(kept)
        })
    }

    fn excluded(&self, node: &Node, step: u64, uses: &mut Uses) -> bool {
        let mut excluded = false;
        for (index, rule) in self.rules.iter().enumerate() {
            if rule.kind == RuleKind::Exclude
                && rule.applies_at(step)
                && rule.id.matches(node.id.as_str())
            {
                uses.matched_id(index);
                excluded = true;
            }
        }
        excluded
    }

    fn node(
        &self,
        node: &Node,
        step: u64,
        uses: &mut Uses,
        screened: &mut Vec<String>,
    ) -> Result<Node, RuleConflict> {
        let mut out = Node {
            children: Vec::new(),
            ..node.clone()
        };
        for (index, rule) in self.rules.iter().enumerate() {
            if rule.kind == RuleKind::Screen
                && rule.applies_at(step)
                && rule.id.matches(node.id.as_str())
            {
                uses.matched_id(index);
                if !screened.iter().any(|id| id == node.id.as_str()) {
                    screened.push(node.id.to_string());
                }
            }
        }
        if let Some((index, pattern)) = self.label_rule(node, step)? {
            uses.matched_id(index);
            if pattern.matches(node.label.as_deref().unwrap_or("")) {
                uses.matched_label(index);
                out.label = Some(pattern.to_string());
            } else {
                uses.missed_label(index, node.label.as_deref());
            }
        }
        out.children = self.nodes(&node.children, step, uses, screened)?;
        Ok(out)
    }

    /// The label rule for `node` at `step`: one for these steps before one for all.
    fn label_rule(
        &self,
        node: &Node,
        step: u64,
    ) -> Result<Option<(usize, &Pattern)>, RuleConflict> {
        let applying = |for_some_steps: bool| {
            self.rules
                .iter()
                .enumerate()
                .filter_map(move |(index, rule)| match &rule.kind {
                    RuleKind::Label(pattern)
                        if rule.steps.is_some() == for_some_steps
                            && rule.applies_at(step)
                            && rule.id.matches(node.id.as_str()) =>
                    {
                        Some((index, pattern))
                    }
                    _ => None,
                })
        };
        for for_some_steps in [true, false] {
            let mut found = applying(for_some_steps);
            if let Some(first) = found.next() {
                if let Some(second) = found.next() {
                    return Err(RuleConflict::new(
                        step,
                        node.id.as_str(),
                        [
                            (first.0, &self.rules[first.0]),
                            (second.0, &self.rules[second.0]),
                        ],
                    ));
                }
                return Ok(Some(first));
            }
        }
        Ok(None)
    }
}

/// Clears the bounds of `nodes` (and below), first taking those of the `screened`
/// ids into `in_order`, in the order compared.
fn take_bounds(nodes: &mut [Node], screened: &[String], in_order: &mut Vec<(String, Bounds)>) {
    for node in nodes {
        if screened.iter().any(|id| id == node.id.as_str()) {
            in_order.push((node.id.to_string(), node.bounds));
        }
        node.bounds = Bounds::default();
        take_bounds(&mut node.children, screened, in_order);
    }
}

/// Where a node is read on screen: its top row, then its left column; `None` for a
/// node drawn with no area, which stays after the sibling before it.
fn reading_key(bounds: Bounds) -> Option<(u16, u16)> {
    (bounds.width > 0 && bounds.height > 0).then_some((bounds.y, bounds.x))
}

/// Siblings in reading order: by where they are read, those read at the same place
/// in the order drawn, each node drawn with no area after the sibling drawn before it.
fn in_reading_order(nodes: Vec<(Option<(u16, u16)>, Node)>) -> Vec<Node> {
    let mut place = (0, 0);
    let mut placed: Vec<((u16, u16), Node)> = nodes
        .into_iter()
        .map(|(key, node)| {
            if let Some(key) = key {
                place = key;
            }
            (place, node)
        })
        .collect();
    // A stable sort: the drawn order stays among equals.
    placed.sort_by_key(|(place, _)| *place);
    placed.into_iter().map(|(_, node)| node).collect()
}

#[cfg(test)]
mod tests;
