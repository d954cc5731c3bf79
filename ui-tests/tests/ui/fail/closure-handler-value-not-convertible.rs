use taria::Action;

struct Date {
    day: u8,
}

fn main() {
    let mut date = Date { day: 1 };
    taria::drain_with(taria::on("date", Action::SetValue, |value: Date| date = value));
    let _ = date.day;
}
