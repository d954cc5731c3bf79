//! The form's state, run loop, key handling and validation. taria adds
//! `#[taria::app]` (records each frame, serves it to agents, merges their keys into
//! `event::read`) and `#[action]` handlers: pressing Submit, focusing a text field,
//! and the "Leave the form?" dialog's yes and no (`esc` or `q` with changes not
//! submitted opens it). An agent's `set_value`, `toggle`, `increment`, … on a control need no
//! handler: the `taria-widgets` control with that id takes them into its state as it
//! renders. To type rather than set a value, an agent focuses a text field (`focus`
//! on it, or the keys a person uses: `tab`, `shift+tab`); the focused control's node
//! says `focused`.

use std::io;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use taria_widgets::{SelectState, SliderState, TextInputState};

/// The plans the `plan` select offers.
pub(crate) const PLANS: [&str; 3] = ["Solo", "Team", "Enterprise"];
/// The seats slider's range.
pub(crate) const SEATS: (f64, f64) = (1.0, 50.0);

/// The form's parts, in focus order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    Name,
    Email,
    Password,
    Terms,
    Plan,
    Seats,
    Submit,
}

impl Field {
    /// Every part, in focus (and drawing) order.
    pub(crate) const ALL: [Field; 7] = [
        Field::Name,
        Field::Email,
        Field::Password,
        Field::Terms,
        Field::Plan,
        Field::Seats,
        Field::Submit,
    ];

    /// The id of the control (`name`, …).
    pub(crate) fn id(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Email => "email",
            Field::Password => "password",
            Field::Terms => "terms",
            Field::Plan => "plan",
            Field::Seats => "seats",
            Field::Submit => "submit",
        }
    }

    /// What the field is called.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Field::Name => "Name",
            Field::Email => "Email",
            Field::Password => "Password",
            Field::Terms => "Terms",
            Field::Plan => "Plan",
            Field::Seats => "Seats",
            Field::Submit => "Submit",
        }
    }

    /// Whether the form cannot be submitted with this field left empty.
    pub(crate) fn required(self) -> bool {
        matches!(
            self,
            Field::Name | Field::Email | Field::Password | Field::Terms
        )
    }

    /// Whether the field is typed into (keys go to its text).
    pub(crate) fn is_text(self) -> bool {
        matches!(self, Field::Name | Field::Email | Field::Password)
    }

    fn index(self) -> usize {
        Field::ALL.iter().position(|f| *f == self).unwrap_or(0)
    }

    fn next(self) -> Field {
        Field::ALL[(self.index() + 1) % Field::ALL.len()]
    }

    fn previous(self) -> Field {
        Field::ALL[(self.index() + Field::ALL.len() - 1) % Field::ALL.len()]
    }
}

/// What the status line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Nothing submitted yet.
    Editing,
    /// The last submit found this many invalid fields.
    Invalid(usize),
    /// The last submit succeeded, with this summary.
    Submitted(String),
}

pub(crate) struct App {
    pub(crate) name: TextInputState,
    pub(crate) email: TextInputState,
    pub(crate) password: TextInputState,
    pub(crate) terms: bool,
    pub(crate) plan: SelectState,
    pub(crate) seats: SliderState,
    pub(crate) focus: Field,
    /// Why each field was invalid at the last submit (`None`: valid), in
    /// [`Field::ALL`] order.
    pub(crate) errors: [Option<&'static str>; 7],
    pub(crate) status: Status,
    /// The "Leave the form?" dialog is open: `esc` or `q` with changes not submitted.
    pub(crate) leaving: bool,
    pub(crate) should_quit: bool,
}

#[taria::app(label = "form")]
impl App {
    /// The event loop: draw, then handle one event, until quit.
    pub(crate) fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.should_quit {
            terminal.draw(|frame| crate::ui::draw(frame, self))?;
            let event = event::read()?;
            self.on_event(&event);
        }
        Ok(())
    }

    /// Focusing a text field (the controls offer `focus`, the app keeps the focus).
    #[action(node = "*", focus)]
    pub(crate) fn focus_field(&mut self, key: &str) -> Result<(), String> {
        let field = Field::ALL
            .into_iter()
            .find(|f| f.id() == key && f.is_text())
            .ok_or("only the text fields take focus this way; use tab for the others")?;
        self.focus = field;
        Ok(())
    }

    /// Pressing Submit: checks every field, then shows the errors or the summary.
    #[action(node = "submit", activate)]
    pub(crate) fn submit(&mut self) {
        self.errors = Field::ALL.map(|field| self.check(field));
        let invalid = self.errors.iter().flatten().count();
        if invalid == 0 {
            self.status = Status::Submitted(self.summary());
        } else {
            self.status = Status::Invalid(invalid);
            if let Some(first) = Field::ALL.iter().find(|f| self.error(**f).is_some()) {
                self.focus = *first;
            }
        }
    }

    /// "Leave the form?": yes, the changes are dropped.
    #[action(node = "confirm-leave", submit)]
    pub(crate) fn leave(&mut self) {
        self.leaving = false;
        self.should_quit = true;
    }

    /// "Leave the form?": no, back to editing.
    #[action(node = "confirm-leave", dismiss)]
    pub(crate) fn stay(&mut self) {
        self.leaving = false;
    }
}

impl App {
    pub(crate) fn new() -> App {
        let mut plan = SelectState::default();
        plan.select(Some(0));
        App {
            name: TextInputState::default(),
            email: TextInputState::default(),
            password: TextInputState::default(),
            terms: false,
            plan,
            seats: SliderState::new(SEATS.0),
            focus: Field::Name,
            errors: [None; 7],
            status: Status::Editing,
            leaving: false,
            should_quit: false,
        }
    }

    /// Whether leaving would lose something: a field changed since the form opened, and
    /// not submitted since.
    fn has_unsubmitted_changes(&self) -> bool {
        let fresh = App::new();
        let changed = self.name.value() != fresh.name.value()
            || self.email.value() != fresh.email.value()
            || self.password.value() != fresh.password.value()
            || self.terms != fresh.terms
            || self.plan.selected() != fresh.plan.selected()
            || self.seat_count() != fresh.seat_count();
        changed && !matches!(self.status, Status::Submitted(_))
    }

    /// `esc` or `q`: asks first when leaving would lose changes.
    fn quit(&mut self) {
        if self.has_unsubmitted_changes() {
            self.leaving = true;
        } else {
            self.should_quit = true;
        }
    }

    /// Why `field` was invalid at the last submit.
    pub(crate) fn error(&self, field: Field) -> Option<&'static str> {
        self.errors[field.index()]
    }

    /// The chosen plan's name.
    pub(crate) fn plan_name(&self) -> &'static str {
        PLANS[self.plan.selected().unwrap_or(0).min(PLANS.len() - 1)]
    }

    /// The seats, a whole number in the slider's range.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to 1..=50 first"
    )]
    pub(crate) fn seat_count(&self) -> u32 {
        self.seats.value().round().clamp(SEATS.0, SEATS.1) as u32
    }

    /// Why `field`'s current value cannot be submitted, if it cannot.
    fn check(&self, field: Field) -> Option<&'static str> {
        match field {
            Field::Name if self.name.value().trim().is_empty() => Some("Enter your name"),
            Field::Email if self.email.value().trim().is_empty() => Some("Enter your email"),
            Field::Email if !looks_like_email(self.email.value().trim()) => {
                Some("Enter an email like ada@example.com")
            }
            Field::Password if self.password.value().chars().count() < 8 => {
                Some("Use at least 8 characters")
            }
            Field::Terms if !self.terms => Some("Accept the terms to continue"),
            Field::Seats if self.plan_name() == "Solo" && self.seat_count() > 1 => {
                Some("Solo is for 1 seat: pick Team for more")
            }
            _ => None,
        }
    }

    /// What a successful submit says (never the password).
    fn summary(&self) -> String {
        let seats = self.seat_count();
        format!(
            "Submitted: {} <{}>, {} plan, {seats} seat{}",
            self.name.value().trim(),
            self.email.value().trim(),
            self.plan_name(),
            if seats == 1 { "" } else { "s" }
        )
    }

    /// The focused text field's state, if the focus is on one.
    fn focused_text(&mut self) -> Option<&mut TextInputState> {
        match self.focus {
            Field::Name => Some(&mut self.name),
            Field::Email => Some(&mut self.email),
            Field::Password => Some(&mut self.password),
            _ => None,
        }
    }

    /// Handles one terminal event (what the loop does after `event::read`).
    pub(crate) fn on_event(&mut self, event: &Event) {
        if let Event::Key(key) = event
            && key.kind == KeyEventKind::Press
        {
            self.on_key(*key);
        }
    }

    fn on_key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if self.leaving {
            match key.code {
                KeyCode::Char('y') | KeyCode::Enter => self.leave(),
                KeyCode::Char('n') | KeyCode::Esc => self.stay(),
                KeyCode::Char('c') if ctrl => self.should_quit = true,
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Esc => self.quit(),
            KeyCode::Char('c') if ctrl => self.should_quit = true,
            KeyCode::Tab | KeyCode::Down => self.focus = self.focus.next(),
            KeyCode::BackTab | KeyCode::Up => self.focus = self.focus.previous(),
            KeyCode::Enter => self.submit(),
            _ if self.focused_text().is_some_and(|text| text.handle_key(key)) => {}
            KeyCode::Char('q') if !self.focus.is_text() => self.quit(),
            KeyCode::Char(' ') => match self.focus {
                Field::Terms => self.terms = !self.terms,
                Field::Submit => self.submit(),
                _ => {}
            },
            KeyCode::Left | KeyCode::Right => {
                let forward = key.code == KeyCode::Right;
                match self.focus {
                    Field::Plan => {
                        let i = self.plan.selected().unwrap_or(0);
                        let n = PLANS.len();
                        self.plan.select(Some(if forward {
                            (i + 1) % n
                        } else {
                            (i + n - 1) % n
                        }));
                    }
                    Field::Seats => {
                        let step = if forward { 1.0 } else { -1.0 };
                        let seats = (self.seats.value() + step).clamp(SEATS.0, SEATS.1);
                        self.seats.set_value(seats);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// One `@` with something before it, and a dotted domain after it with no empty
/// part; no spaces.
fn looks_like_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !text.contains(char::is_whitespace)
        && !domain.contains('@')
        && domain.contains('.')
        && domain.split('.').all(|part| !part.is_empty())
}
