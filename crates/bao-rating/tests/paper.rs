//! Glickman's worked example ("Example of the Glicko-2 system"), through the public API.

use std::time::Duration;

use bao_rating::{Config, Outcome, Rating, Settings};

/// The paper's system: tau 0.5 and one rating period; the other settings do not bind here
/// (the minimum deviation is lowered to 30 for the opponent at 30, though an opponent's
/// deviation is used as given anyway).
fn paper_config() -> Config {
    Config::new(Settings {
        tau: 0.5,
        min_deviation: 30.0,
        ..Settings::default()
    })
    .unwrap()
}

fn paper_games() -> [(Rating, Outcome); 3] {
    // The paper gives no volatility for the opponents; theirs does not enter the player's
    // update.
    [
        (Rating::new(1400.0, 30.0, 0.06).unwrap(), Outcome::Win),
        (Rating::new(1550.0, 100.0, 0.06).unwrap(), Outcome::Loss),
        (Rating::new(1700.0, 300.0, 0.06).unwrap(), Outcome::Loss),
    ]
}

#[test]
fn worked_example() {
    let config = paper_config();
    let player = Rating::new(1500.0, 200.0, 0.06).unwrap();
    let new = config.update(player, config.settings().rating_period, &paper_games());
    // The paper prints r' = 1464.06, RD' = 151.52 and sigma' = 0.05999, from intermediate
    // values rounded to four decimals (mu' = -0.2069, phi' = 0.8722): the exact arithmetic
    // is within a hundredth of a point of them, and one unit of the volatility's last digit.
    assert!(
        (new.rating() - 1464.06).abs() < 0.01,
        "rating {}",
        new.rating()
    );
    assert!(
        (new.deviation() - 151.52).abs() < 0.01,
        "deviation {}",
        new.deviation()
    );
    assert!(
        (new.volatility() - 0.05999).abs() < 0.00001,
        "volatility {}",
        new.volatility()
    );
    // And to the four decimals of the paper's Glicko-2 scale figures.
    let mu = (new.rating() - 1500.0) / 173.7178;
    let phi = new.deviation() / 173.7178;
    assert!((mu - -0.2069).abs() < 0.00005, "mu' {mu}");
    assert!((phi - 0.8722).abs() < 0.00005, "phi' {phi}");
}

#[test]
fn games_order_does_not_matter() {
    let config = paper_config();
    let player = Rating::new(1500.0, 200.0, 0.06).unwrap();
    let mut games = paper_games();
    let forward = config.update(player, config.settings().rating_period, &games);
    games.reverse();
    let backward = config.update(player, config.settings().rating_period, &games);
    assert!((forward.rating() - backward.rating()).abs() < 1e-9);
    assert!((forward.deviation() - backward.deviation()).abs() < 1e-9);
    assert!((forward.volatility() - backward.volatility()).abs() < 1e-12);
}

#[test]
fn fractional_periods_between_none_and_one() {
    // The instant form: the same games after half a period grow the deviation less before
    // the games' information is added, so the new deviation is smaller than after a whole
    // period and larger than after none.
    let config = paper_config();
    let player = Rating::new(1500.0, 200.0, 0.06).unwrap();
    let period = config.settings().rating_period;
    let none = config.update(player, Duration::ZERO, &paper_games());
    let half = config.update(player, period / 2, &paper_games());
    let one = config.update(player, period, &paper_games());
    assert!(none.deviation() < half.deviation() && half.deviation() < one.deviation());
    // The rating moves further the more uncertain it was.
    assert!(none.rating() > half.rating() && half.rating() > one.rating());
}
