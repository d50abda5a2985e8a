//! # bao-rating
//!
//! Glicko-2 ratings for the Bao games, one per account and variant, updated as each game
//! ends. Pure arithmetic: no I/O, no clock, no global state.
//!
//! What it computes: Glickman's Glicko-2 ("Example of the Glicko-2 system", steps 1 to 8,
//! the volatility found by the Illinois algorithm), made "instant" as lichess makes it. A
//! game's update is applied at once when it ends; before the game's information is added
//! (step 7), the player's deviation grows with the time since their last rated game,
//! counted in rating periods with fractions, phi* = sqrt(phi² + periods · sigma'²), capped at
//! the maximum deviation. Over exactly one period this is the paper's update.
//!
//! The pieces:
//! * [`Rating`]: rating, deviation and volatility, checked on construction;
//! * [`Outcome`]: a game's result for one side;
//! * [`Settings`] and [`Config`]: the system's constants, checked, and the updates
//!   ([`Config::rate_game`], [`Config::update`], [`Config::after_idle`]) and how ratings are
//!   shown ([`Config::display`]: "1523", or "1523?" while provisional);
//! * [`RatingError`]: what a person is told when a value is out of range.
//!
//! The defaults ([`Settings`] says why each): lichess's, since this is lichess's scheme and
//! its constants work together there, on per-game updates. A new player is 1500 with
//! deviation 500 and volatility 0.09; tau is 0.75; the deviation stays within 45 and 500
//! and the volatility under 0.1; a rating period is about 4.66 days, so that a settled
//! deviation of 60 grows back to the provisional 110 in a year away; a deviation above 110
//! is provisional.
//!
//! The server stores, per account and variant, the [`Rating`] (with the `serde` feature it
//! serialises; deserialising checks it) and the time of the last rated game:
//!
//! ```
//! use std::time::Duration;
//! use bao_rating::{Config, Outcome, Rating};
//!
//! let config = Config::default();
//! let day = Duration::from_secs(86_400);
//!
//! // A new player (no game yet: no idle time) beats a settled one who last played a week ago.
//! let newcomer = config.start();
//! let regular = Rating::new(1650.0, 70.0, 0.06)?;
//! let (newcomer, regular) =
//!     config.rate_game(newcomer, Duration::ZERO, regular, 7 * day, Outcome::Win);
//! assert!(newcomer.rating() > 1500.0 && regular.rating() < 1650.0);
//! assert_eq!(config.display(&newcomer).to_string(), "1869?");
//! assert_eq!(config.display(&regular).to_string(), "1641");
//!
//! // Shown a month later, the regular's deviation has grown but is not provisional yet.
//! let later = config.after_idle(regular, 30 * day);
//! assert_eq!(later.rating(), regular.rating());
//! assert!(later.deviation() > regular.deviation() && !config.is_provisional(&later));
//! # Ok::<(), bao_rating::RatingError>(())
//! ```
#![warn(missing_docs)]

mod config;
mod error;
mod glicko2;
mod rating;

pub use config::{Config, Settings, Shown};
pub use error::RatingError;
pub use rating::{Outcome, Rating};
