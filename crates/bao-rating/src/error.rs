//! What can be wrong with a rating or a configuration.

use std::time::Duration;

use crate::Rating;

/// A rating or a configuration that breaks one of the crate's invariants.
///
/// Every message names the quantity, the range it must lie in and the value given, so that
/// it can be shown to whoever typed or stored the value:
///
/// ```
/// use bao_rating::Rating;
/// let err = Rating::new(1500.0, 900.0, 0.06).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "a rating deviation must be between 30 and 500; got 900"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RatingError {
    /// The rating itself is outside [`Rating::MIN_RATING`]..=[`Rating::MAX_RATING`], or not
    /// a number.
    #[error(
        "a rating must be between {} and {}; got {got}",
        Rating::MIN_RATING,
        Rating::MAX_RATING
    )]
    Rating {
        /// The value given.
        got: f64,
    },
    /// The deviation is outside [`Rating::MIN_DEVIATION`]..=[`Rating::MAX_DEVIATION`], or
    /// not a number.
    #[error(
        "a rating deviation must be between {} and {}; got {got}",
        Rating::MIN_DEVIATION,
        Rating::MAX_DEVIATION
    )]
    Deviation {
        /// The value given.
        got: f64,
    },
    /// The volatility is outside [`Rating::MIN_VOLATILITY`]..=[`Rating::MAX_VOLATILITY`],
    /// or not a number.
    #[error(
        "a rating volatility must be between {} and {}; got {got}",
        Rating::MIN_VOLATILITY,
        Rating::MAX_VOLATILITY
    )]
    Volatility {
        /// The value given.
        got: f64,
    },
    /// A setting of a [`Config`](crate::Config) is outside the range the crate accepts for
    /// it, or not a number.
    #[error("the setting {setting} must be between {min} and {max}; got {got}")]
    Setting {
        /// The field of [`Settings`](crate::Settings).
        setting: &'static str,
        /// The smallest value accepted.
        min: f64,
        /// The largest value accepted.
        max: f64,
        /// The value given.
        got: f64,
    },
    /// The rating period of a [`Config`](crate::Config) is zero: idle time could not be
    /// counted in periods.
    #[error("the rating period must be longer than zero; got {got:?}")]
    RatingPeriod {
        /// The value given.
        got: Duration,
    },
}
