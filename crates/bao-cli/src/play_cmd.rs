//! `bao play` and `bao replay FILE`: thin glue around the terminal game (crates/bao-tui).

use crate::common::CliError;
use crate::record_cmd::load_records;
use bao_rules::{printable, Position, Rules, Side, Variant};
use bao_tui::{default_name, PlayConfig, Player, Replay};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game: kiswahili, kete or kimasai.
    #[arg(long, default_value = "kiswahili", value_name = "V")]
    variant: String,
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// The opponent: computer:LEVEL (1..8) or human (two people at one keyboard).
    #[arg(long, default_value = "computer:2", value_name = "OPPONENT")]
    vs: String,
    /// Your side in the first game: S (moves first) or N.
    #[arg(long, default_value = "S", value_name = "S|N")]
    side: String,
    /// Play a match (best of three by default, option `match`) instead of one game.
    #[arg(long = "match")]
    is_match: bool,
    /// Start every game from this position instead of the variant's start.
    #[arg(long, value_name = "POSITION")]
    start: Option<String>,
    /// Where to save the game record (default: ~/.local/share/bao/games/bao-DATE-TIME.txt).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Show moves at once instead of animating the sowing.
    #[arg(long)]
    no_animation: bool,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Show moves at once instead of animating the sowing.
    #[arg(long)]
    no_animation: bool,
    /// A game record file, as text or JSON (NOT-6); every record in it is checked first.
    #[arg(value_name = "FILE", allow_hyphen_values = true)]
    file: String,
}

fn need_terminal() -> Result<(), CliError> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(CliError::usage(
            "this command needs a terminal (standard input and output are not one)",
        ));
    }
    Ok(())
}

pub fn play(a: PlayArgs) -> Result<(), CliError> {
    let variant = Variant::from_id(&a.variant).ok_or_else(|| {
        CliError::usage(format!(
            "--variant '{}': not kiswahili, kete or kimasai",
            printable(&a.variant)
        ))
    })?;
    let rules =
        Rules::parse(variant, a.rules.as_deref().unwrap_or("-")).map_err(bao_rules::Error::from)?;
    let start = match &a.start {
        Some(text) => {
            let v = Position::variant_of(text).map_err(bao_rules::Error::from)?;
            if v != variant {
                return Err(CliError::usage(format!(
                    "--start is a {} position but --variant is {}",
                    v.id(),
                    variant.id()
                )));
            }
            Some(Position::parse(text, &rules).map_err(bao_rules::Error::from)?)
        }
        None => None,
    };
    let opponent = match a.vs.as_str() {
        "human" => Player::Human("Player 2".into()),
        s => {
            let level = s
                .strip_prefix("computer:")
                .or(if s == "computer" { Some("2") } else { None })
                .and_then(|l| l.parse::<u8>().ok())
                .filter(|l| (bao_engine::MIN_LEVEL..=bao_engine::MAX_LEVEL).contains(l))
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "--vs '{}': use computer:LEVEL (LEVEL {}..{}) or human",
                        printable(s),
                        bao_engine::MIN_LEVEL,
                        bao_engine::MAX_LEVEL
                    ))
                })?;
            Player::Computer(level)
        }
    };
    let side = Side::from_letter(&a.side)
        .ok_or_else(|| CliError::usage(format!("--side '{}': use S or N", printable(&a.side))))?;
    let me = if matches!(opponent, Player::Human(_)) {
        Player::Human("Player 1".into())
    } else {
        Player::Human(default_name())
    };
    let mut config = PlayConfig::vs_computer(rules, bao_engine::MIN_LEVEL);
    config.start = start;
    config.player1 = me;
    config.player2 = opponent;
    config.first_side = side;
    config.is_match = a.is_match;
    config.animate = !a.no_animation;
    config.seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    need_terminal()?;
    let app = bao_tui::run_play(config)?;
    if app.has_moves() {
        let path = a.record.unwrap_or_else(bao_tui::default_record_path);
        match bao_tui::save_records(&app, &path) {
            Ok(p) => eprintln!("Game record saved to {}", p.display()),
            Err(e) => {
                // Do not lose the game: print the record instead.
                eprintln!("Could not save the record to {}: {e}", path.display());
                for r in app.records(&bao_tui::today()) {
                    eprint!("{r}");
                }
                return Err(CliError::internal(format!("saving the record: {e}")));
            }
        }
    }
    Ok(())
}

pub fn replay(a: ReplayArgs) -> Result<(), CliError> {
    let (records, _) = load_records(&a.file)?;
    let mut r = Replay::new(records).map_err(|(i, e)| CliError {
        category: e.category(),
        detail: format!("{}: record {i}, {e}", printable(&a.file)),
        status: 2,
    })?;
    r.animate = !a.no_animation;
    need_terminal()?;
    bao_tui::run_replay(r)?;
    Ok(())
}
