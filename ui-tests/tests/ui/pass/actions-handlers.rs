//! `#[taria::actions]`: every handler parameter (`key`, `index`, `value`, `direction`,
//! `amount`, `invocation`), every return type (`()`, `Result`, `Outcome`), and both
//! wildcards (`*` one segment, `**` one or more).

use taria::{Actions, Invocation, Outcome, ScrollDirection, Value};

#[derive(Default)]
struct App<T> {
    done: Vec<u64>,
    draft: String,
    archived: Vec<String>,
    selected: Option<usize>,
    scrolled: Vec<(ScrollDirection, u16)>,
    scrollbar: Vec<ratatui::widgets::ScrollDirection>,
    volume: Option<u8>,
    extra: T,
}

#[taria::actions]
impl<T> App<T>
where
    T: Default,
{
    #[action(node = "tasks/*", toggle)]
    fn toggle_task(&mut self, key: u64) {
        self.done.push(key);
    }

    #[action(node = "new-task", set_value)]
    fn set_draft(&mut self, value: String) -> Result<(), String> {
        if value.len() > 10 {
            return Err("too long".into());
        }
        self.draft = value;
        Ok(())
    }

    #[action(node = "tasks/*", "archive")]
    #[action(node = "done/*", "archive")]
    fn archive(&mut self, key: &str, invocation: &Invocation<'_>) {
        self.archived.push(format!("{}:{key}", invocation.target()));
    }

    #[action(node = "files/**", "open")]
    fn open(&mut self, key: &str) {
        self.archived.push(format!("opened {key}"));
    }

    #[action(node = "tasks/*", select)]
    fn select(&mut self, index: usize) {
        self.selected = Some(index);
    }

    #[action(node = "log", scroll)]
    fn scroll_log(&mut self, direction: ScrollDirection, amount: u16) {
        self.scrolled.push((direction, amount));
    }

    /// ratatui's `ScrollDirection` (the scrollbar's, as `taria_widgets::prelude` names
    /// it) takes the direction too.
    #[action(node = "bar", scroll)]
    fn scroll_bar(&mut self, direction: ratatui::widgets::ScrollDirection) {
        self.scrollbar.push(direction);
    }

    #[action(node = "volume", set_value)]
    fn set_volume(&mut self, value: Option<u8>) -> Outcome {
        self.volume = value;
        Outcome::Handled
    }

    #[action(node = "quit", activate)]
    fn refuse(&mut self) -> Outcome {
        Outcome::Rejected("not now".into())
    }

    /// Not a handler: stays an ordinary method.
    fn reset(&mut self) {
        self.extra = T::default();
    }
}

fn main() {
    let mut app = App::<u8>::default();
    assert_eq!(app.handle_action(&Invocation::new("tasks/7", "toggle")), Outcome::Handled);
    assert_eq!(app.done, [7]);
    assert!(matches!(
        app.handle_action(&Invocation::new("tasks/x", "toggle")),
        Outcome::Rejected(why) if why.contains("`x` is not a valid u64")
    ));
    assert_eq!(app.handle_action(&Invocation::new("tasks/7/x", "toggle")), Outcome::NotHandled);
    assert_eq!(app.handle_action(&Invocation::new("tasks/7", "expand")), Outcome::NotHandled);

    let text = Value::Text("milk".into());
    let inv = Invocation::new("new-task", "set_value").with_value(&text);
    assert_eq!(app.handle_action(&inv), Outcome::Handled);
    assert_eq!(app.draft, "milk");
    let long = Value::Text("a very long task".into());
    let inv = Invocation::new("new-task", "set_value").with_value(&long);
    assert_eq!(app.handle_action(&inv), Outcome::Rejected("too long".into()));
    let number = Value::Number(3.0);
    let inv = Invocation::new("new-task", "set_value").with_value(&number);
    assert!(matches!(app.handle_action(&inv), Outcome::Rejected(_)));

    assert_eq!(app.handle_action(&Invocation::new("tasks/3", "archive")), Outcome::Handled);
    assert_eq!(app.handle_action(&Invocation::new("done/4", "archive")), Outcome::Handled);
    assert_eq!(app.archived, ["tasks/3:3", "done/4:4"]);
    // `**` stands for one or more segments: a nested tree item's path.
    assert_eq!(app.handle_action(&Invocation::new("files/src/main.rs", "open")), Outcome::Handled);
    assert_eq!(app.handle_action(&Invocation::new("files", "open")), Outcome::NotHandled);
    assert_eq!(app.archived[2], "opened src/main.rs");

    let inv = Invocation::new("tasks/3", "select").with_index(2);
    assert_eq!(app.handle_action(&inv), Outcome::Handled);
    assert_eq!(app.selected, Some(2));
    assert!(matches!(
        app.handle_action(&Invocation::new("tasks/3", "select")),
        Outcome::Rejected(_)
    ));

    let inv = Invocation::new("log", "scroll").with_scroll(ScrollDirection::Down, 5);
    assert_eq!(app.handle_action(&inv), Outcome::Handled);
    assert_eq!(app.scrolled, [(ScrollDirection::Down, 5)]);
    let inv = Invocation::new("bar", "scroll").with_scroll(ScrollDirection::Up, 1);
    assert_eq!(app.handle_action(&inv), Outcome::Handled);
    assert_eq!(app.scrollbar, [ratatui::widgets::ScrollDirection::Backward]);

    let loud = Value::Number(11.0);
    let inv = Invocation::new("volume", "set_value").with_value(&loud);
    assert_eq!(app.handle_action(&inv), Outcome::Handled);
    assert_eq!(app.volume, Some(11));

    assert_eq!(
        app.handle_action(&Invocation::new("quit", "activate")),
        Outcome::Rejected("not now".into())
    );
    app.reset();
    app.toggle_task(1);
    assert_eq!(app.done, [7, 1]);
}
