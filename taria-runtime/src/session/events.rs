//! The event merge: what the app reads from [`crate::event`] is the agent's queued
//! key presses first, then the terminal's events (read by the terminal-input
//! thread), and a `FocusGained` when the session wants the loop to turn.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::Event;

use super::terminal;
use crate::endpoint::{self, Signal};
use crate::lock::lock;
use taria_schema::protocol::KeyChord;

/// An event the app reads from [`crate::event`], with the input it belongs to.
pub(super) struct PendingEvent {
    pub(super) event: Event,
    /// The agent's input this key is part of (`None`: not an agent's key).
    pub(super) input: Option<AgentKey>,
}

/// Which agent input a queued key press belongs to.
#[derive(Clone, Copy)]
pub(super) struct AgentKey {
    pub(super) connection: u64,
    pub(super) seq: u64,
    /// What reading this key ends.
    pub(super) ends: KeyEnd,
}

/// What reading an agent's key ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyEnd {
    /// Nothing: more keys of its input follow.
    Nothing,
    /// The input: it is its last key.
    Input,
    /// A stage of a key fallback (its navigation keys): the app should draw a
    /// frame, which is checked before the rest are pressed.
    Stage,
}

/// The agent's keys waiting for the app, and the terminal-input thread.
pub(super) struct Events {
    /// Wakes the app's event wait; shared with the endpoint and the terminal thread.
    pub(crate) signal: Arc<Signal>,
    /// Read terminal events (on a background thread) too.
    terminal_input: bool,
    terminal_thread: bool,
    /// Whether the app reads events through [`crate::event`] (so keys can reach it).
    pub(super) app_reads: bool,
    pending: VecDeque<PendingEvent>,
    peeked: Option<PendingEvent>,
}

impl Events {
    pub(super) fn new(signal: Arc<Signal>, terminal_input: bool) -> Events {
        Events {
            signal,
            terminal_input,
            terminal_thread: false,
            app_reads: false,
            pending: VecDeque::new(),
            peeked: None,
        }
    }

    /// Queues key presses of input `seq` for the app's input path; the input
    /// completes when the app reads the last one. `false` when the app does not read
    /// events through taria (nothing is queued).
    pub(super) fn press(&mut self, connection: u64, seq: u64, chords: &[KeyChord]) -> bool {
        self.queue(connection, seq, chords, KeyEnd::Input)
    }

    /// Queues the first stage of input `seq`'s keys (see [`KeyEnd::Stage`]); the
    /// input does not complete when the app reads them.
    pub(super) fn press_stage(&mut self, connection: u64, seq: u64, chords: &[KeyChord]) -> bool {
        self.queue(connection, seq, chords, KeyEnd::Stage)
    }

    fn queue(&mut self, connection: u64, seq: u64, chords: &[KeyChord], last_ends: KeyEnd) -> bool {
        if !self.app_reads {
            return false;
        }
        let Some((last, rest)) = chords.split_last() else {
            return true;
        };
        let key = |ends| {
            Some(AgentKey {
                connection,
                seq,
                ends,
            })
        };
        for chord in rest {
            self.pending.push_back(PendingEvent {
                event: Event::Key(chord.to_event()),
                input: key(KeyEnd::Nothing),
            });
        }
        self.pending.push_back(PendingEvent {
            event: Event::Key(last.to_event()),
            input: key(last_ends),
        });
        self.signal.poke();
        true
    }

    /// Whether agent keys wait to be read.
    pub(super) fn agent_keys_left(&self) -> bool {
        self.pending.iter().any(|p| p.input.is_some())
            || self.peeked.as_ref().is_some_and(|p| p.input.is_some())
    }

    /// Whether keys of input `seq` of `connection` wait to be read.
    pub(super) fn keys_left_of(&self, connection: u64, seq: u64) -> bool {
        let of = |p: &PendingEvent| {
            p.input
                .is_some_and(|key| key.connection == connection && key.seq == seq)
        };
        self.pending.iter().any(of) || self.peeked.as_ref().is_some_and(of)
    }

    /// Drops the agent keys queued so far (a new connection starts with none).
    pub(super) fn drop_agent_keys(&mut self) {
        self.pending.retain(|p| p.input.is_none());
        if self.peeked.as_ref().is_some_and(|p| p.input.is_some()) {
            self.peeked = None;
        }
    }

    /// The next queued agent key of connection `live`; the keys of a closed one are
    /// discarded (its inputs are, see docs/protocol.md), so a text half typed when
    /// the bridge went away is not typed on.
    pub(super) fn pop_pending(&mut self, live: u64) -> Option<PendingEvent> {
        while let Some(event) = self.pending.pop_front() {
            match event.input {
                Some(key) if key.connection != live => {}
                _ => return Some(event),
            }
        }
        None
    }

    /// Keeps `event` for the next read ([`crate::event::poll`]).
    pub(super) fn peek(&mut self, event: Option<PendingEvent>) -> bool {
        if self.peeked.is_none() {
            self.peeked = event;
        }
        self.peeked.is_some()
    }

    /// Whether an event is kept for the next read.
    pub(super) fn has_peeked(&self) -> bool {
        self.peeked.is_some()
    }

    /// The next event: agent keys of connection `live()` first, then terminal
    /// events; a `FocusGained` when the loop was poked, or at `wake_by` (when
    /// inputs held behind one the app drew no frame for are let through, or a
    /// handler's change is to be seen by the loop). `None` when `timeout` passes
    /// first.
    pub(super) fn take(
        &mut self,
        timeout: Option<Duration>,
        wake_by: Option<Instant>,
        live: &dyn Fn() -> u64,
    ) -> std::io::Result<Option<PendingEvent>> {
        self.app_reads = true;
        if let Some(event) = self.peeked.take() {
            return Ok(Some(event));
        }
        self.start_terminal_thread();
        let deadline = timeout.map(|t| Instant::now() + t);
        let focus = || PendingEvent {
            event: Event::FocusGained,
            input: None,
        };
        loop {
            if let Some(event) = self.pop_pending(live()) {
                return Ok(Some(event));
            }
            let mut wake = lock(&self.signal.wake);
            if let Some(event) = wake.terminal.pop_front() {
                return Ok(Some(PendingEvent { event, input: None }));
            }
            if std::mem::take(&mut wake.poked) {
                drop(wake);
                if !self.pending.is_empty() {
                    continue;
                }
                tracing::trace!(target: endpoint::LATENCY, "loop woken");
                return Ok(Some(focus()));
            }
            if self.terminal_input
                && let Some(error) = wake.terminal_error.take()
            {
                return Err(error);
            }
            let now = Instant::now();
            if wake_by.is_some_and(|by| now >= by && deadline.is_none_or(|d| by < d)) {
                return Ok(Some(focus()));
            }
            match wake_by.into_iter().chain(deadline).min() {
                None => drop(
                    self.signal
                        .cond
                        .wait(wake)
                        .unwrap_or_else(std::sync::PoisonError::into_inner),
                ),
                Some(deadline) => {
                    if now >= deadline {
                        return Ok(None);
                    }
                    drop(
                        self.signal
                            .cond
                            .wait_timeout(wake, deadline - now)
                            .unwrap_or_else(std::sync::PoisonError::into_inner),
                    );
                }
            }
        }
    }

    fn start_terminal_thread(&mut self) {
        if !self.terminal_input || self.terminal_thread {
            return;
        }
        self.terminal_thread = true;
        let signal = Arc::clone(&self.signal);
        let spawned = std::thread::Builder::new()
            .name("taria-terminal-input".into())
            .spawn(move || terminal::read_terminal(&signal, &mut terminal::Crossterm));
        if let Err(error) = spawned {
            lock(&self.signal.wake).terminal_error = Some(error);
        }
    }
}
