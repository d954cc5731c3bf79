//! [`Secrets`]: which value each redacted input of a recording takes when it is run
//! again (`taria::testing::Replay::secret`, `taria-mcp test-from --secret`).

/// Values for a recording's redacted inputs, by node: a node's redacted inputs take
/// its values in the order they were given, the last one again for any further
/// input. The rule `taria::testing::Replay::secret` and `taria-mcp test-from --secret` follow.
#[derive(Clone, Debug)]
pub struct Secrets<T> {
    given: Vec<(String, T)>,
    /// The node of each value taken so far.
    used: Vec<String>,
}

impl<T> Default for Secrets<T> {
    fn default() -> Self {
        Secrets {
            given: Vec::new(),
            used: Vec::new(),
        }
    }
}

impl<T> Secrets<T> {
    /// None given yet.
    #[must_use]
    pub fn new() -> Secrets<T> {
        Secrets::default()
    }

    /// Gives `node` its next value.
    pub fn give(&mut self, node: impl Into<String>, value: T) {
        self.given.push((node.into(), value));
    }

    /// The value for `node`'s next redacted input; `None` when none was given for it.
    pub fn take(&mut self, node: &str) -> Option<&T> {
        let given: Vec<&T> = self
            .given
            .iter()
            .filter(|(id, _)| id == node)
            .map(|(_, value)| value)
            .collect();
        let taken = self.used.iter().filter(|id| *id == node).count();
        let value = given.get(taken).or(given.last()).copied()?;
        self.used.push(node.to_owned());
        Some(value)
    }
}
