//! A player's rating and a game's outcome.

use crate::RatingError;

/// A player's Glicko-2 rating in one variant: the rating, its deviation (RD, the uncertainty:
/// the player's strength is within about two deviations of the rating, 95 times in 100) and
/// its volatility (how erratic the player's results have been).
///
/// All three are on the familiar Glicko scale (a new player near 1500), never the internal
/// Glicko-2 one. A `Rating` always holds finite values within the ranges of its constants,
/// [`MIN_RATING`](Self::MIN_RATING) and so on; [`new`](Self::new) checks them, and so does
/// deserialising with the `serde` feature. The ranges are wide enough for any configuration
/// the crate accepts and narrow enough to catch a swapped or corrupt field.
///
/// ```
/// use bao_rating::Rating;
/// let r = Rating::new(1523.4, 80.0, 0.06)?;
/// assert_eq!(r.rating(), 1523.4);
/// assert!(Rating::new(1500.0, 0.06, 350.0).is_err()); // deviation and volatility swapped
/// assert!(Rating::new(f64::NAN, 350.0, 0.06).is_err());
/// # Ok::<(), bao_rating::RatingError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "RawRating")
)]
pub struct Rating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

impl Rating {
    /// The lowest rating. Glicko ratings of real players stay far above it (lichess, starting
    /// players at 1500 as we do, floors them at 400); the updates clamp to it.
    pub const MIN_RATING: f64 = 0.0;
    /// The highest rating: no human or engine gets near it on a scale that starts at 1500;
    /// the updates clamp to it.
    pub const MAX_RATING: f64 = 4000.0;
    /// The lowest deviation a rating may have. Glickman's worked example has an opponent at
    /// 30; a configuration's minimum deviation may not go below it.
    pub const MIN_DEVIATION: f64 = 30.0;
    /// The highest deviation: lichess's deviation for a new player, above Glickman's 350. A
    /// configuration's maximum may not go above it.
    pub const MAX_DEVIATION: f64 = 500.0;
    /// The lowest volatility. Glickman starts players at 0.06 and lichess at 0.09; the
    /// volatility step moves it slowly, so a value below this is a corrupt one.
    pub const MIN_VOLATILITY: f64 = 0.001;
    /// The highest volatility: five times lichess's cap of 0.1, so still far above anything
    /// the updates produce; a configuration's maximum may not go above it.
    pub const MAX_VOLATILITY: f64 = 0.5;

    /// A rating, its deviation and its volatility, each checked: finite and within the
    /// ranges of the constants above, bounds included.
    ///
    /// # Errors
    /// [`RatingError::Rating`], [`RatingError::Deviation`] or [`RatingError::Volatility`]
    /// for the first value that is out of range or not a number.
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Result<Self, RatingError> {
        if !(Self::MIN_RATING..=Self::MAX_RATING).contains(&rating) {
            return Err(RatingError::Rating { got: rating });
        }
        if !(Self::MIN_DEVIATION..=Self::MAX_DEVIATION).contains(&deviation) {
            return Err(RatingError::Deviation { got: deviation });
        }
        if !(Self::MIN_VOLATILITY..=Self::MAX_VOLATILITY).contains(&volatility) {
            return Err(RatingError::Volatility { got: volatility });
        }
        Ok(Self {
            rating,
            deviation,
            volatility,
        })
    }

    /// For the updates, which clamp every value into its range first (a NaN cannot reach
    /// here: the arithmetic guards against it, and the debug check would catch it).
    pub(crate) fn clamped(rating: f64, deviation: f64, volatility: f64) -> Self {
        let r = Self {
            rating: rating.clamp(Self::MIN_RATING, Self::MAX_RATING),
            deviation: deviation.clamp(Self::MIN_DEVIATION, Self::MAX_DEVIATION),
            volatility: volatility.clamp(Self::MIN_VOLATILITY, Self::MAX_VOLATILITY),
        };
        debug_assert!(
            Self::new(r.rating, r.deviation, r.volatility).is_ok(),
            "{r:?}"
        );
        r
    }

    /// The rating, e.g. 1523.4.
    pub fn rating(&self) -> f64 {
        self.rating
    }

    /// The rating deviation (RD), e.g. 80.
    pub fn deviation(&self) -> f64 {
        self.deviation
    }

    /// The volatility, e.g. 0.06.
    pub fn volatility(&self) -> f64 {
        self.volatility
    }

    /// The rating rounded to the nearest integer (halves away from zero), as it is shown.
    ///
    /// ```
    /// # use bao_rating::Rating;
    /// assert_eq!(Rating::new(1522.5, 80.0, 0.06)?.rounded(), 1523);
    /// # Ok::<(), bao_rating::RatingError>(())
    /// ```
    pub fn rounded(&self) -> i32 {
        // In range by the invariant, so the cast is exact.
        self.rating.round() as i32
    }
}

impl TryFrom<(f64, f64, f64)> for Rating {
    type Error = RatingError;

    /// `(rating, deviation, volatility)`, checked as [`Rating::new`] does.
    fn try_from((rating, deviation, volatility): (f64, f64, f64)) -> Result<Self, Self::Error> {
        Self::new(rating, deviation, volatility)
    }
}

/// The stored form, checked on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct RawRating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

#[cfg(feature = "serde")]
impl TryFrom<RawRating> for Rating {
    type Error = RatingError;

    fn try_from(raw: RawRating) -> Result<Self, Self::Error> {
        Self::new(raw.rating, raw.deviation, raw.volatility)
    }
}

/// The result of one game for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// This side won: a score of 1.
    Win,
    /// A draw: a score of 1/2.
    Draw,
    /// This side lost: a score of 0.
    Loss,
}

impl Outcome {
    /// The game's score for this side: 1, 1/2 or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    ///
    /// ```
    /// use bao_rating::Outcome;
    /// assert_eq!(Outcome::Win.reversed(), Outcome::Loss);
    /// assert_eq!(Outcome::Draw.reversed(), Outcome::Draw);
    /// ```
    pub fn reversed(self) -> Self {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}
