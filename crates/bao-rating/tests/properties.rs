//! What must hold for any rating, game and idle time: results move ratings the right way,
//! equal players are treated alike, deviations stay within the configured range and grow
//! with idle time, and the provisional mark appears exactly above the threshold. Also the
//! checks on ratings and settings and their messages.

use std::time::Duration;

use bao_rating::{Config, Outcome, Rating, RatingError, Settings};
use proptest::prelude::*;

const DAY: Duration = Duration::from_secs(86_400);

/// Any valid rating, including deviations and volatilities outside the default
/// configuration's range (a rating made under other settings).
fn rating() -> impl Strategy<Value = Rating> {
    (
        Rating::MIN_RATING..=Rating::MAX_RATING,
        Rating::MIN_DEVIATION..=Rating::MAX_DEVIATION,
        Rating::MIN_VOLATILITY..=Rating::MAX_VOLATILITY,
    )
        .prop_map(|(r, rd, v)| Rating::new(r, rd, v).unwrap())
}

/// A rating as the default configuration produces them.
fn usual_rating() -> impl Strategy<Value = Rating> {
    (500.0..3000.0f64, 45.0..=500.0f64, 0.03..=0.1f64)
        .prop_map(|(r, rd, v)| Rating::new(r, rd, v).unwrap())
}

/// Idle time from none to four years, in seconds.
fn elapsed() -> impl Strategy<Value = Duration> {
    prop_oneof![
        Just(Duration::ZERO),
        (0u64..4 * 365 * 86_400).prop_map(Duration::from_secs),
    ]
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![Just(Outcome::Win), Just(Outcome::Draw), Just(Outcome::Loss)]
}

/// Any configuration the crate accepts.
fn config() -> impl Strategy<Value = Config> {
    (
        0.1..=2.0f64,
        Rating::MIN_DEVIATION..=Rating::MAX_DEVIATION,
        Rating::MIN_DEVIATION..=Rating::MAX_DEVIATION,
        0.01..=Rating::MAX_VOLATILITY,
        1u64..=60 * 86_400,
        0.0..=1.0f64,
    )
        .prop_map(|(tau, d1, d2, max_volatility, period, where_provisional)| {
            let (min_deviation, max_deviation) = (d1.min(d2), d1.max(d2));
            Config::new(Settings {
                tau,
                min_deviation,
                max_deviation,
                start_deviation: max_deviation,
                max_volatility,
                start_volatility: max_volatility.min(0.06),
                rating_period: Duration::from_secs(period),
                provisional_deviation: min_deviation
                    + where_provisional * (max_deviation - min_deviation),
                ..Settings::default()
            })
            .unwrap()
        })
}

fn within_config(config: &Config, r: &Rating) -> bool {
    let s = config.settings();
    (s.min_deviation..=s.max_deviation).contains(&r.deviation())
        && (Rating::MIN_VOLATILITY..=s.max_volatility).contains(&r.volatility())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_win_never_lowers_a_rating_and_a_loss_never_raises_one(
        config in config(),
        a in rating(),
        b in rating(),
        a_elapsed in elapsed(),
        b_elapsed in elapsed(),
        outcome in outcome(),
    ) {
        let (a2, b2) = config.rate_game(a, a_elapsed, b, b_elapsed, outcome);
        match outcome {
            Outcome::Win => {
                prop_assert!(a2.rating() >= a.rating(), "{a:?} won: {a2:?}");
                prop_assert!(b2.rating() <= b.rating(), "{b:?} lost: {b2:?}");
            }
            Outcome::Loss => {
                prop_assert!(a2.rating() <= a.rating(), "{a:?} lost: {a2:?}");
                prop_assert!(b2.rating() >= b.rating(), "{b:?} won: {b2:?}");
            }
            Outcome::Draw => {
                // A draw moves each towards the other.
                if a.rating() < b.rating() {
                    prop_assert!(a2.rating() >= a.rating() && b2.rating() <= b.rating());
                } else if a.rating() > b.rating() {
                    prop_assert!(a2.rating() <= a.rating() && b2.rating() >= b.rating());
                }
            }
        }
    }

    #[test]
    fn every_update_stays_within_the_configured_ranges(
        config in config(),
        player in rating(),
        elapsed in elapsed(),
        games in prop::collection::vec((rating(), outcome()), 0..8),
    ) {
        let new = config.update(player, elapsed, &games);
        prop_assert!(within_config(&config, &new), "{new:?} under {:?}", config.settings());
        // And it is a valid Rating (the type's own ranges).
        prop_assert!(Rating::new(new.rating(), new.deviation(), new.volatility()).is_ok());
        let idle = config.after_idle(player, elapsed);
        prop_assert!(within_config(&config, &idle), "{idle:?} under {:?}", config.settings());
    }

    #[test]
    fn equal_players_are_treated_alike(
        r in 800.0..3200.0f64,
        rd in 45.0..=500.0f64,
        v in 0.03..=0.1f64,
        elapsed in elapsed(),
    ) {
        let config = Config::default();
        let p = Rating::new(r, rd, v).unwrap();

        // A win: what one gains the other loses, and both are as certain afterwards.
        let (winner, loser) = config.rate_game(p, elapsed, p, elapsed, Outcome::Win);
        let gain = winner.rating() - r;
        let loss = r - loser.rating();
        prop_assert!(gain > 0.0);
        prop_assert!((gain - loss).abs() < 1e-9, "gain {gain} loss {loss}");
        prop_assert!((winner.deviation() - loser.deviation()).abs() < 1e-9);
        prop_assert!((winner.volatility() - loser.volatility()).abs() < 1e-12);
        // The same game the other way round mirrors it.
        let (loser2, winner2) = config.rate_game(p, elapsed, p, elapsed, Outcome::Loss);
        prop_assert_eq!(loser2, loser);
        prop_assert_eq!(winner2, winner);

        // A draw between equals leaves both ratings where they were.
        let (a, b) = config.rate_game(p, elapsed, p, elapsed, Outcome::Draw);
        prop_assert!((a.rating() - r).abs() < 1e-9 && (b.rating() - r).abs() < 1e-9);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn idle_deviation_grows_monotonically_up_to_the_maximum(
        config in config(),
        player in rating(),
        t1 in 0u64..20 * 365 * 86_400,
        t2 in 0u64..20 * 365 * 86_400,
    ) {
        let (t1, t2) = (t1.min(t2), t1.max(t2));
        let early = config.after_idle(player, Duration::from_secs(t1));
        let late = config.after_idle(player, Duration::from_secs(t2));
        prop_assert!(early.deviation() <= late.deviation());
        prop_assert!(late.deviation() <= config.settings().max_deviation);
        // Only the deviation changes (the volatility only if above this configuration's
        // maximum).
        prop_assert_eq!(late.rating(), player.rating());
        prop_assert_eq!(
            late.volatility(),
            player.volatility().min(config.settings().max_volatility)
        );
        // Long enough away, the maximum whatever the start (at the lowest volatility that
        // takes far longer than a lifetime).
        let forever = config.after_idle(player, Duration::MAX);
        prop_assert_eq!(forever.deviation(), config.settings().max_deviation);
    }

    #[test]
    fn no_idle_time_leaves_a_rating_alone(config in config(), player in rating()) {
        let s = config.settings();
        let same = config.after_idle(player, Duration::ZERO);
        prop_assert_eq!(
            same.deviation(),
            player.deviation().clamp(s.min_deviation, s.max_deviation)
        );
        prop_assert_eq!(same.rating(), player.rating());
    }

    #[test]
    fn an_update_without_games_is_the_idle_growth(
        config in config(),
        player in rating(),
        elapsed in elapsed(),
    ) {
        prop_assert_eq!(config.update(player, elapsed, &[]), config.after_idle(player, elapsed));
    }

    #[test]
    fn rate_game_is_update_against_the_opponent_as_they_stand(
        a in usual_rating(),
        b in usual_rating(),
        a_elapsed in elapsed(),
        b_elapsed in elapsed(),
        outcome in outcome(),
    ) {
        let config = Config::default();
        let (a2, b2) = config.rate_game(a, a_elapsed, b, b_elapsed, outcome);
        let b_now = config.after_idle(b, b_elapsed);
        let a_now = config.after_idle(a, a_elapsed);
        prop_assert_eq!(a2, config.update(a, a_elapsed, &[(b_now, outcome)]));
        prop_assert_eq!(b2, config.update(b, b_elapsed, &[(a_now, outcome.reversed())]));
    }

    #[test]
    fn provisional_exactly_above_the_threshold(config in config(), player in rating()) {
        let threshold = config.settings().provisional_deviation;
        prop_assert_eq!(config.is_provisional(&player), player.deviation() > threshold);
        let shown = config.display(&player).to_string();
        prop_assert_eq!(shown.ends_with('?'), player.deviation() > threshold);
        prop_assert_eq!(
            shown.trim_end_matches('?').parse::<i32>().unwrap(),
            player.rating().round() as i32
        );
    }
}

#[test]
fn the_default_settings_are_the_documented_ones() {
    let s = *Config::default().settings();
    assert_eq!(s, Settings::default());
    assert_eq!(s.tau, 0.75);
    assert_eq!(
        (s.start_rating, s.start_deviation, s.start_volatility),
        (1500.0, 500.0, 0.09)
    );
    assert_eq!((s.min_deviation, s.max_deviation), (45.0, 500.0));
    assert_eq!(s.max_volatility, 0.1);
    assert_eq!(s.provisional_deviation, 110.0);
    let start = Config::default().start();
    assert_eq!(
        (start.rating(), start.deviation(), start.volatility()),
        (1500.0, 500.0, 0.09)
    );
}

#[test]
fn the_default_period_takes_a_settled_deviation_from_60_to_110_in_a_year() {
    // The reason lichess gives for its 0.21436 periods a day.
    let config = Config::default();
    let settled = Rating::new(1500.0, 60.0, 0.06).unwrap();
    let back = config.after_idle(settled, 365 * DAY);
    assert!((back.deviation() - 110.0).abs() < 0.5, "{back:?}");
    assert!(!config.is_provisional(&config.after_idle(settled, 360 * DAY)));
    assert!(config.is_provisional(&config.after_idle(settled, 370 * DAY)));
}

#[test]
fn provisional_threshold_and_display() {
    let config = Config::default();
    let at = |rd: f64| Rating::new(1523.4, rd, 0.06).unwrap();
    assert!(!config.is_provisional(&at(110.0)));
    assert!(config.is_provisional(&at(110.000_001)));
    assert!(config.is_provisional(&config.start()));
    assert_eq!(config.display(&at(110.0)).to_string(), "1523");
    assert_eq!(config.display(&at(111.0)).to_string(), "1523?");
    assert_eq!(config.display(&config.start()).to_string(), "1500?");
    let shown = config.display(&Rating::new(1999.5, 60.0, 0.06).unwrap());
    assert_eq!((shown.rating, shown.provisional), (2000, false));
}

#[test]
fn a_new_player_settles_after_some_games() {
    // Twenty games at a day's interval against settled 1500s, winning three in five: the
    // rating ends above 1500 and is no longer provisional.
    let config = Config::default();
    let opponent = Rating::new(1500.0, 60.0, 0.06).unwrap();
    let mut player = config.start();
    let mut elapsed = Duration::ZERO;
    for i in 0..20 {
        let outcome = if i % 5 < 3 {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        player = config.update(player, elapsed, &[(opponent, outcome)]);
        elapsed = DAY;
    }
    assert!(player.rating() > 1500.0, "{player:?}");
    assert!(!config.is_provisional(&player), "{player:?}");
}

#[test]
fn ratings_are_checked() {
    let msg = |r: Result<Rating, RatingError>| r.unwrap_err().to_string();
    assert_eq!(
        msg(Rating::new(1500.0, 900.0, 0.06)),
        "a rating deviation must be between 30 and 500; got 900"
    );
    assert_eq!(
        msg(Rating::new(-5.0, 350.0, 0.06)),
        "a rating must be between 0 and 4000; got -5"
    );
    assert_eq!(
        msg(Rating::new(f64::NAN, 350.0, 0.06)),
        "a rating must be between 0 and 4000; got NaN"
    );
    assert_eq!(
        msg(Rating::new(1500.0, f64::INFINITY, 0.06)),
        "a rating deviation must be between 30 and 500; got inf"
    );
    assert_eq!(
        msg(Rating::new(1500.0, 350.0, 0.0)),
        "a rating volatility must be between 0.001 and 0.5; got 0"
    );
    assert!(matches!(
        Rating::new(1500.0, 350.0, 350.0),
        Err(RatingError::Volatility { got }) if got == 350.0
    ));
    // The bounds themselves are valid.
    assert!(Rating::new(
        Rating::MIN_RATING,
        Rating::MIN_DEVIATION,
        Rating::MIN_VOLATILITY
    )
    .is_ok());
    assert!(Rating::new(
        Rating::MAX_RATING,
        Rating::MAX_DEVIATION,
        Rating::MAX_VOLATILITY
    )
    .is_ok());
    assert_eq!(
        Rating::try_from((1500.0, 350.0, 0.06)),
        Rating::new(1500.0, 350.0, 0.06)
    );
}

#[test]
fn settings_are_checked() {
    let msg = |s: Settings| Config::new(s).unwrap_err().to_string();
    let d = Settings::default();
    assert_eq!(
        msg(Settings { tau: 0.0, ..d }),
        "the setting tau must be between 0.1 and 2; got 0"
    );
    assert_eq!(
        msg(Settings {
            min_deviation: 200.0,
            max_deviation: 150.0,
            start_deviation: 150.0,
            ..d
        }),
        "the setting min_deviation must be between 30 and 150; got 200"
    );
    assert_eq!(
        msg(Settings {
            max_deviation: 350.0,
            ..d
        }),
        "the setting start_deviation must be between 45 and 350; got 500"
    );
    assert_eq!(
        msg(Settings {
            provisional_deviation: 20.0,
            ..d
        }),
        "the setting provisional_deviation must be between 45 and 500; got 20"
    );
    assert_eq!(
        msg(Settings {
            max_volatility: 0.05,
            ..d
        }),
        "the setting start_volatility must be between 0.001 and 0.05; got 0.09"
    );
    assert_eq!(
        msg(Settings {
            start_rating: f64::NAN,
            ..d
        }),
        "the setting start_rating must be between 0 and 4000; got NaN"
    );
    assert_eq!(
        msg(Settings {
            rating_period: Duration::ZERO,
            ..d
        }),
        "the rating period must be longer than zero; got 0ns"
    );
    // Glickman's own choices are accepted.
    assert!(Config::new(Settings {
        tau: 0.5,
        start_deviation: 350.0,
        max_deviation: 350.0,
        start_volatility: 0.06,
        ..d
    })
    .is_ok());
}

#[cfg(feature = "serde")]
#[test]
fn ratings_serialise_and_are_checked_when_read() {
    let r = Rating::new(1523.25, 80.5, 0.0625).unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(
        json,
        r#"{"rating":1523.25,"deviation":80.5,"volatility":0.0625}"#
    );
    assert_eq!(serde_json::from_str::<Rating>(&json).unwrap(), r);
    let err =
        serde_json::from_str::<Rating>(r#"{"rating":1500,"deviation":900,"volatility":0.06}"#)
            .unwrap_err()
            .to_string();
    assert!(
        err.contains("a rating deviation must be between 30 and 500; got 900"),
        "{err}"
    );
    assert_eq!(serde_json::to_string(&Outcome::Draw).unwrap(), r#""Draw""#);
}
