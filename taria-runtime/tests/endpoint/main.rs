//! The endpoint over a real Unix socket, with a real app loop on a thread. One test
//! binary, by concern: what goes over the wire ([`wire`]), where an input goes
//! ([`routes`]), the frame an input is answered with ([`frames`]), one input at a time
//! ([`order`]), clients coming and going ([`clients`]), the socket file ([`socket`]),
//! the app's log ([`logs`]).
#![cfg(unix)]
#![expect(clippy::unwrap_used, reason = "tests: a failed step fails the test")]

// The test apps and socket client taria's tests share.
#[path = "../support/mod.rs"]
mod support;

mod clients;
mod frames;
mod logs;
mod order;
mod routes;
mod socket;
mod wire;
