//! The pure domain: the match model (BRD-8) with its clocks, the contract's views and wire
//! messages (docs/api.md), records (NOT-6) and names. No axum, tokio or SQL here: everything
//! is a function of its arguments, the time included (docs/architecture.md).

pub mod clock;
pub mod ending;
pub mod events;
pub mod messages;
pub mod model;
pub mod names;
pub mod pairing;
pub mod rating;
pub mod record;
pub mod wire;
