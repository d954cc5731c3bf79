mod about;
mod email;
mod recipe;
mod traceroute;
mod weather;

pub use about::AboutTab;
pub use email::EmailTab;
pub use recipe::RecipeTab;
pub use traceroute::TracerouteTab;
pub use weather::WeatherTab;
