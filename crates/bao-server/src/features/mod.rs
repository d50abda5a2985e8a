//! Features over the game core. Each owns its state, its routes and its request and answer
//! types, builds on the core (crate::game) and the layers below it, and never imports another
//! feature (a test, tests/layers.rs, holds every file to that). The composition root
//! (crate::app) builds them and merges their routes.

pub mod abandon;
pub mod accounts;
pub mod analysis;
pub mod arenas;
pub mod assist;
pub mod clubs;
pub mod fairplay;
pub mod learn;
pub mod lobby;
pub mod mine;
pub mod push;
pub mod puzzles;
pub mod ratings;
pub mod rematch;
pub mod review;
pub mod seeks;
pub mod teams;
pub mod tournaments;
pub mod variants;
