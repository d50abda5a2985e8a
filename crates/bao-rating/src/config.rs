//! The system's constants and the updates that use them.

use std::fmt;
use std::time::Duration;

use crate::glicko2::{self, Game, Limits};
use crate::{Outcome, Rating, RatingError};

/// The constants of a rating system, unchecked: fill in the fields (or start from
/// [`Settings::default`]) and pass them to [`Config::new`], which checks them.
///
/// The defaults are lichess's, whose instant Glicko-2 this crate follows: they are used
/// together there, for ratings updated after every game, on a very large number of games. Glickman's paper, written for rating periods of several games
/// each, suggests 350 / 0.06 / tau 0.3 to 1.2; the field docs say where lichess differs and
/// why we follow it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Tau, how fast the volatility may change; Glickman: "reasonable choices are between
    /// 0.3 and 1.2". Default 0.75 (lichess), inside that range and used there with the
    /// other defaults. Accepted: 0.1 to 2.
    pub tau: f64,
    /// A new player's rating. Default 1500, Glickman's and lichess's.
    pub start_rating: f64,
    /// A new player's deviation. Default 500 (lichess) rather than Glickman's 350: the spread
    /// of strength among Bao players, from beginners to masters of the board, is unknown
    /// and likely wide, and a larger deviation lets a new player's first games move the
    /// rating further (a first win against an equal 1500 opponent: about +240 at 500, +160
    /// at 350), so that they reach their level sooner. Between `min_deviation` and
    /// `max_deviation`.
    pub start_deviation: f64,
    /// A new player's volatility. Default 0.09 (lichess) rather than Glickman's 0.06, to go
    /// with lichess's other constants: the deviation grows between games by the volatility
    /// squared per period, so a higher one keeps a newcomer's rating responsive while their
    /// games are few and far between; a steady player's volatility settles lower by itself.
    /// At most `max_volatility`.
    pub start_volatility: f64,
    /// The deviation never falls below this. Default 45 (lichess). With instant updates an
    /// active player's deviation barely grows between games while each game shrinks it, so
    /// without a floor it would keep shrinking and their rating stop responding. At least
    /// [`Rating::MIN_DEVIATION`].
    pub min_deviation: f64,
    /// The deviation never grows above this, however long a player is away. Default 500
    /// (lichess): a returning player is at most as uncertain as a new one. At most
    /// [`Rating::MAX_DEVIATION`].
    pub max_deviation: f64,
    /// The volatility is clamped to this after each update. Default 0.1 (lichess: above it
    /// a volatility may never settle again). At most [`Rating::MAX_VOLATILITY`].
    pub max_volatility: f64,
    /// The length of one Glicko rating period: idle time is counted in these, fractions
    /// included. Default 403,060 s, about 4.66 days, lichess's 0.21436 periods a day,
    /// chosen there so that a typical player's deviation (volatility 0.06) grows from 60 to
    /// 110, provisional again, in one year without a rated game.
    pub rating_period: Duration,
    /// A rating whose deviation is above this is provisional, shown "1523?". Default 110
    /// (lichess): the 95% interval is then wider than about ±220. Between `min_deviation`
    /// and `max_deviation`.
    pub provisional_deviation: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tau: 0.75,
            start_rating: 1500.0,
            start_deviation: 500.0,
            start_volatility: 0.09,
            min_deviation: 45.0,
            max_deviation: 500.0,
            max_volatility: 0.1,
            rating_period: Duration::from_secs(403_060),
            provisional_deviation: 110.0,
        }
    }
}

/// Checks that `got` is within `min..=max` (and so not a NaN).
fn check(setting: &'static str, got: f64, min: f64, max: f64) -> Result<(), RatingError> {
    if (min..=max).contains(&got) {
        Ok(())
    } else {
        Err(RatingError::Setting {
            setting,
            min,
            max,
            got,
        })
    }
}

/// A checked rating system: Glicko-2 as in Glickman's "Example of the Glicko-2 system",
/// applied at once when each game ends, as lichess does.
///
/// Time is always passed in: the updates take the time since each player's last rated game
/// and never read a clock.
///
/// ```
/// use std::time::Duration;
/// use bao_rating::{Config, Outcome};
///
/// let config = Config::default();
/// let new = config.start();
/// let (a, b) = config.rate_game(new, Duration::ZERO, new, Duration::ZERO, Outcome::Win);
/// assert_eq!(config.display(&a).to_string(), "1741?");
/// assert_eq!(config.display(&b).to_string(), "1259?");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    settings: Settings,
    start: Rating,
    period_secs: f64,
    limits: Limits,
}

impl Default for Config {
    /// [`Settings::default`], checked.
    fn default() -> Self {
        Self::new(Settings::default()).expect("the default settings are valid")
    }
}

impl Config {
    /// Checks `settings`: each within the range its field's doc gives, the starting
    /// deviation, volatility and the provisional threshold within the minimum and maximum
    /// the settings themselves give, the rating period not zero.
    ///
    /// # Errors
    /// [`RatingError::Setting`] naming the first field out of range, or
    /// [`RatingError::RatingPeriod`].
    ///
    /// ```
    /// use bao_rating::{Config, Settings};
    /// let err = Config::new(Settings { min_deviation: 600.0, ..Settings::default() });
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "the setting min_deviation must be between 30 and 500; got 600"
    /// );
    /// ```
    pub fn new(settings: Settings) -> Result<Self, RatingError> {
        let s = &settings;
        check("tau", s.tau, 0.1, 2.0)?;
        check(
            "start_rating",
            s.start_rating,
            Rating::MIN_RATING,
            Rating::MAX_RATING,
        )?;
        check(
            "max_deviation",
            s.max_deviation,
            Rating::MIN_DEVIATION,
            Rating::MAX_DEVIATION,
        )?;
        check(
            "min_deviation",
            s.min_deviation,
            Rating::MIN_DEVIATION,
            s.max_deviation,
        )?;
        check(
            "start_deviation",
            s.start_deviation,
            s.min_deviation,
            s.max_deviation,
        )?;
        check(
            "provisional_deviation",
            s.provisional_deviation,
            s.min_deviation,
            s.max_deviation,
        )?;
        check(
            "max_volatility",
            s.max_volatility,
            Rating::MIN_VOLATILITY,
            Rating::MAX_VOLATILITY,
        )?;
        check(
            "start_volatility",
            s.start_volatility,
            Rating::MIN_VOLATILITY,
            s.max_volatility,
        )?;
        if s.rating_period.is_zero() {
            return Err(RatingError::RatingPeriod {
                got: s.rating_period,
            });
        }
        let start = Rating::new(s.start_rating, s.start_deviation, s.start_volatility)?;
        Ok(Self {
            settings,
            start,
            period_secs: s.rating_period.as_secs_f64(),
            limits: Limits {
                tau: s.tau,
                max_phi: glicko2::to_phi(s.max_deviation),
                min_sigma: Rating::MIN_VOLATILITY,
                max_sigma: s.max_volatility,
            },
        })
    }

    /// The settings this configuration was made from.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// A new player's rating.
    pub fn start(&self) -> Rating {
        self.start
    }

    /// `elapsed` in rating periods, fractions included.
    ///
    /// ```
    /// # use bao_rating::Config;
    /// let config = Config::default();
    /// assert_eq!(config.periods(config.settings().rating_period * 3), 3.0);
    /// ```
    pub fn periods(&self, elapsed: Duration) -> f64 {
        elapsed.as_secs_f64() / self.period_secs
    }

    /// The rating as it stands after `idle` without a rated game: the rating and volatility
    /// unchanged, the deviation grown as in Glickman's step 6 over `idle` counted in rating
    /// periods, sqrt(RD² + periods · (173.7178 σ)²), capped at the maximum deviation. (A
    /// rating made under other settings is first brought within these: the deviation
    /// raised to the minimum, the volatility lowered to the maximum.)
    ///
    /// Show players, and decide whether they are provisional, with their rating as it
    /// stands now: someone away for a year is uncertain again.
    ///
    /// ```
    /// use std::time::Duration;
    /// use bao_rating::{Config, Rating};
    /// let config = Config::default();
    /// let settled = Rating::new(1800.0, 60.0, 0.06)?;
    /// let year = Duration::from_secs(365 * 86_400);
    /// let back = config.after_idle(settled, year);
    /// assert_eq!(back.deviation().round(), 110.0);
    /// assert_eq!(config.after_idle(settled, 100 * year).deviation(), 500.0);
    /// # Ok::<(), bao_rating::RatingError>(())
    /// ```
    pub fn after_idle(&self, rating: Rating, idle: Duration) -> Rating {
        let volatility = rating.volatility().min(self.settings.max_volatility);
        // On the Glicko scale, so that no idle time gives back the deviation exactly rather
        // than after a round trip through the Glicko-2 scale.
        let step = volatility * glicko2::SCALE;
        let grown = (rating.deviation().powi(2) + self.periods(idle) * step * step).sqrt();
        Rating::clamped(rating.rating(), self.clamp_deviation(grown), volatility)
    }

    fn clamp_deviation(&self, deviation: f64) -> f64 {
        deviation.clamp(self.settings.min_deviation, self.settings.max_deviation)
    }

    /// The player's new rating after `games`, each an opponent's rating and the player's
    /// outcome against them, `elapsed` after the player's last rated game.
    ///
    /// This is Glickman's rating period, steps 1 to 8, with step 6 growing the deviation
    /// over `elapsed` counted in rating periods, fractions included, rather than over
    /// exactly one, and capped at the maximum deviation (lichess's instant Glicko-2). So:
    /// * one game as it ends, `elapsed` since the player's previous game: the instant update
    ///   ([`rate_game`](Self::rate_game) does this for both players);
    /// * a whole period's games at its end, `elapsed` one [`Settings::rating_period`]: the
    ///   paper's update exactly (the tests check this against a second implementation).
    ///
    /// The opponents' ratings are used as given: for an instant update, pass each as it
    /// stands at the game, [`after_idle`](Self::after_idle). With no games this is
    /// [`after_idle`](Self::after_idle). The result is clamped: the deviation into the
    /// settings' minimum and maximum, the volatility to at most the maximum, the rating into
    /// [`Rating::MIN_RATING`]..=[`Rating::MAX_RATING`].
    ///
    /// Glickman's worked example (tau 0.5, one period):
    ///
    /// ```
    /// use bao_rating::{Config, Outcome, Rating, Settings};
    /// let config = Config::new(Settings { tau: 0.5, min_deviation: 30.0, ..Settings::default() })?;
    /// let player = Rating::new(1500.0, 200.0, 0.06)?;
    /// let games = [
    ///     (Rating::new(1400.0, 30.0, 0.06)?, Outcome::Win),
    ///     (Rating::new(1550.0, 100.0, 0.06)?, Outcome::Loss),
    ///     (Rating::new(1700.0, 300.0, 0.06)?, Outcome::Loss),
    /// ];
    /// let new = config.update(player, config.settings().rating_period, &games);
    /// assert!((new.rating() - 1464.06).abs() < 0.01);
    /// assert!((new.deviation() - 151.52).abs() < 0.01);
    /// assert!((new.volatility() - 0.05999).abs() < 0.00001);
    /// # Ok::<(), bao_rating::RatingError>(())
    /// ```
    pub fn update(&self, player: Rating, elapsed: Duration, games: &[(Rating, Outcome)]) -> Rating {
        if games.is_empty() {
            return self.after_idle(player, elapsed);
        }
        let mu = glicko2::to_mu(player.rating());
        let estimates = glicko2::estimates(
            mu,
            games.iter().map(|(opponent, outcome)| Game {
                mu: glicko2::to_mu(opponent.rating()),
                phi: glicko2::to_phi(opponent.deviation()),
                score: outcome.score(),
            }),
        );
        let new = glicko2::update(
            mu,
            glicko2::to_phi(player.deviation()),
            player.volatility(),
            estimates,
            self.periods(elapsed),
            self.limits,
        );
        Rating::clamped(
            glicko2::from_mu(new.mu),
            self.clamp_deviation(glicko2::from_phi(new.phi)),
            new.sigma,
        )
    }

    /// Both players' new ratings after one game between them, as it ends: `outcome` is
    /// `a`'s, and `a_elapsed` and `b_elapsed` the time since each one's last rated game
    /// ([`Duration::ZERO`] for a player with none: their deviation is the starting one).
    ///
    /// Each is [`update`](Self::update)d with the one game, against the other as they stand
    /// at the game ([`after_idle`](Self::after_idle)), as lichess does.
    ///
    /// ```
    /// use std::time::Duration;
    /// use bao_rating::{Config, Outcome, Rating};
    /// let config = Config::default();
    /// let a = Rating::new(1600.0, 80.0, 0.06)?;
    /// let b = Rating::new(1500.0, 120.0, 0.07)?;
    /// let day = Duration::from_secs(86_400);
    /// let (a2, b2) = config.rate_game(a, day, b, 30 * day, Outcome::Loss);
    /// assert!(a2.rating() < a.rating() && b2.rating() > b.rating());
    /// # Ok::<(), bao_rating::RatingError>(())
    /// ```
    pub fn rate_game(
        &self,
        a: Rating,
        a_elapsed: Duration,
        b: Rating,
        b_elapsed: Duration,
        outcome: Outcome,
    ) -> (Rating, Rating) {
        let a_now = self.after_idle(a, a_elapsed);
        let b_now = self.after_idle(b, b_elapsed);
        (
            self.update(a, a_elapsed, &[(b_now, outcome)]),
            self.update(b, b_elapsed, &[(a_now, outcome.reversed())]),
        )
    }

    /// Whether `rating` is provisional: its deviation above
    /// [`Settings::provisional_deviation`]. Pass the rating as it stands now
    /// ([`after_idle`](Self::after_idle)).
    pub fn is_provisional(&self, rating: &Rating) -> bool {
        rating.deviation() > self.settings.provisional_deviation
    }

    /// The rating as shown: rounded to an integer, with "?" after it when provisional.
    /// Pass the rating as it stands now ([`after_idle`](Self::after_idle)).
    ///
    /// ```
    /// use bao_rating::{Config, Rating};
    /// let config = Config::default();
    /// assert_eq!(config.display(&Rating::new(1523.4, 110.5, 0.06)?).to_string(), "1523?");
    /// assert_eq!(config.display(&Rating::new(1523.5, 110.0, 0.06)?).to_string(), "1524");
    /// # Ok::<(), bao_rating::RatingError>(())
    /// ```
    pub fn display(&self, rating: &Rating) -> Shown {
        Shown {
            rating: rating.rounded(),
            provisional: self.is_provisional(rating),
        }
    }
}

/// A rating as shown to people: [`Config::display`]. Its [`Display`](fmt::Display) is
/// "1523" or, when provisional, "1523?"; the fields are there for pages that mark the
/// provisional ones their own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shown {
    /// The rating rounded to the nearest integer.
    pub rating: i32,
    /// Whether the deviation is above the provisional threshold.
    pub provisional: bool,
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rating)?;
        if self.provisional {
            f.write_str("?")?;
        }
        Ok(())
    }
}
