//! The machine interface of interface.md: `moves`, `apply`, `perft`, `trace`, `show`,
//! `playout`. Output formats are exact (CLI-1.2).

use crate::common::{load, out, positive, CliError};
use bao_rules::{
    legal_moves, perft as count, playout as play_random, printable, status, trace as trace_move,
    Game, Outcome, Pit, Position, Rules, Side, Variant,
};
use clap::Args;
use std::io::{BufRead, Write};

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// Rule options: name=value,... (`-` or empty for the defaults).
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Print one JSON value instead of lines (CLI-7).
    #[arg(long)]
    json: bool,
    /// A position, a variant name, or `-` to read positions from standard input.
    #[arg(value_name = "POSITION", allow_hyphen_values = true)]
    position: String,
}

#[derive(Args, Debug)]
pub struct ApplyArgs {
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Print one JSON value instead of lines (CLI-7).
    #[arg(long)]
    json: bool,
    /// The position to start from.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Moves to apply in order, e.g. A7L* a5R; the usual aliases such as 7L* are accepted (NOT-2).
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    moves: Vec<String>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Print one JSON value instead of lines (CLI-7).
    #[arg(long)]
    json: bool,
    /// The position to count from.
    #[arg(value_name = "POSITION")]
    position: String,
    /// The deepest length to count (an integer ≥ 1).
    #[arg(value_name = "DEPTH", allow_hyphen_values = true)]
    depth: String,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Print one JSON value instead of lines (CLI-7).
    #[arg(long)]
    json: bool,
    /// The position.
    #[arg(value_name = "POSITION")]
    position: String,
    /// The move to trace.
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    mv: String,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// The position to draw.
    #[arg(value_name = "POSITION")]
    position: String,
}

#[derive(Args, Debug)]
pub struct PlayoutArgs {
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Seed of the random generator; the same seed gives the same line.
    #[arg(long, default_value = "1", value_name = "S")]
    seed: String,
    /// The position to play from.
    #[arg(value_name = "POSITION")]
    position: String,
    /// How many games (an integer ≥ 1).
    #[arg(value_name = "GAMES", allow_hyphen_values = true)]
    games: String,
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// Only this variant.
    #[arg(value_name = "VARIANT")]
    variant: Option<String>,
}

pub fn moves(a: MovesArgs) -> Result<(), CliError> {
    if a.position == "-" {
        return moves_batch(a);
    }
    let (pos, rules) = load(&a.position, a.rules.as_deref())?;
    let mut o = out();
    write_moves(&mut o, &pos, &rules, a.json)?;
    o.flush()?;
    Ok(())
}

fn write_moves(
    o: &mut impl Write,
    pos: &Position,
    rules: &Rules,
    json: bool,
) -> Result<(), CliError> {
    let over = status(pos, rules).is_over();
    let moves = if over {
        Vec::new()
    } else {
        legal_moves(pos, rules).into_iter().collect()
    };
    if json {
        let v: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": m.mv.to_string(),
                    "position": m.next.to_string(),
                    "result": m.outcome(rules).token(),
                })
            })
            .collect();
        writeln!(o, "{}", serde_json::Value::Array(v))?;
    } else {
        for m in &moves {
            writeln!(o, "{}\t{}\t{}", m.mv, m.next, m.outcome(rules))?;
        }
    }
    Ok(())
}

fn moves_batch(a: MovesArgs) -> Result<(), CliError> {
    let stdin = std::io::stdin().lock();
    let mut o = out();
    for (i, line) in stdin.split(b'\n').enumerate() {
        let line = line?;
        let n = i + 1;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches('\r');
        if text.trim_matches([' ', '\t']).is_empty() {
            continue;
        }
        match load(text, a.rules.as_deref()) {
            Ok((pos, rules)) => {
                write_moves(&mut o, &pos, &rules, a.json)?;
                writeln!(o, ".")?;
                o.flush()?;
            }
            Err(e) => {
                o.flush()?;
                let mut err = CliError::from(e);
                // Keep the kind first for bad_position (CLI-8.1), then the line number.
                err.detail = match err.detail.split_once(": ") {
                    Some((kind, rest)) if err.category == "bad_position" => {
                        format!("{kind}: line {n}: {rest}")
                    }
                    _ => format!("line {n}: {}", err.detail),
                };
                return Err(err);
            }
        }
    }
    o.flush()?;
    Ok(())
}

/// Plays the MOVE arguments in a game (so that repetition counts, BRD-7.5).
fn play_all(pos: Position, rules: Rules, moves: &[String]) -> Result<Game, CliError> {
    let mut game = Game::new(pos, rules);
    for (i, text) in moves.iter().enumerate() {
        game.play_text(text)
            .map_err(|e| CliError::from_move(i + 1, &e))?;
    }
    Ok(game)
}

pub fn apply(a: ApplyArgs) -> Result<(), CliError> {
    let (pos, rules) = load(&a.position, a.rules.as_deref())?;
    let game = play_all(pos, rules, &a.moves)?;
    let mut o = out();
    if a.json {
        let v = serde_json::json!({
            "position": game.position().to_string(),
            "result": game.outcome().token(),
        });
        writeln!(o, "{v}")?;
    } else {
        writeln!(o, "{}", game.position())?;
        writeln!(o, "{}", game.outcome())?;
    }
    o.flush()?;
    Ok(())
}

pub fn perft(a: PerftArgs) -> Result<(), CliError> {
    // CLI-8.3: the command line's shape is checked first.
    let depth = positive("DEPTH", &a.depth)?;
    if depth > 64 {
        return Err(CliError::usage("DEPTH above 64 would never finish"));
    }
    let (pos, rules) = load(&a.position, a.rules.as_deref())?;
    let mut o = out();
    let mut counts = Vec::new();
    for d in 1..=depth as u32 {
        let n = count(&pos, &rules, d);
        if !a.json {
            writeln!(o, "depth {d} {n}")?;
            o.flush()?;
        }
        counts.push(serde_json::json!({"depth": d, "count": n}));
    }
    if a.json {
        writeln!(o, "{}", serde_json::Value::Array(counts))?;
    }
    o.flush()?;
    Ok(())
}

pub fn trace(a: TraceArgs) -> Result<(), CliError> {
    let (pos, rules) = load(&a.position, a.rules.as_deref())?;
    let mut game = Game::new(pos, rules);
    let m = game
        .play_text(&a.mv)
        .map_err(|e| CliError::from_move(1, &e))?;
    let (events, next, outcome) = trace_move(&pos, &rules, &m.mv);
    debug_assert_eq!(next, m.next);
    let mut o = out();
    if a.json {
        let ev: Vec<String> = events.iter().map(|e| e.to_string()).collect();
        let v = serde_json::json!({
            "events": ev,
            "position": next.to_string(),
            "result": outcome.token(),
        });
        writeln!(o, "{v}")?;
    } else {
        for e in &events {
            writeln!(o, "{e}")?;
        }
        writeln!(o, "position {next}")?;
        writeln!(o, "result {outcome}")?;
    }
    o.flush()?;
    Ok(())
}

/// The diagram of CLI-6 (informative layout).
pub fn diagram(pos: &Position) -> String {
    let mut s = String::new();
    let hand_word = if pos.variant() == Variant::Kimasai {
        "reserve"
    } else {
        "hand"
    };
    s.push_str(&format!("North {hand_word} {}\n", pos.hand(Side::North)));
    s.push_str(&pit_rows(pos));
    s.push_str(&format!("South {hand_word} {}\n", pos.hand(Side::South)));
    let text = pos.to_string();
    let flags = text.split(' ').nth(4).unwrap_or("-");
    s.push_str(&format!(
        "{} to move, ply {}, flags {}\n",
        pos.side(),
        pos.ply(),
        flags
    ));
    s
}

/// The eight lines of pits of the CLI-6 diagram, names and counts, North's back row first
/// (BRD-2.2): the part of the board drawing that has no words (`bao learn` shares it).
pub fn pit_rows(pos: &Position) -> String {
    let mut s = String::new();
    let row = |side: Side, pits: [Pit; 8], names: bool| -> String {
        let mut r = String::from("   ");
        for p in pits {
            if names {
                r.push_str(&format!(" {}", p.name(side)));
            } else {
                r.push_str(&format!("{:>3}", pos.seeds(side, p)));
            }
        }
        r + "\n"
    };
    let nb: [Pit; 8] = std::array::from_fn(|j| Pit::back(8 - j as u8));
    let nf: [Pit; 8] = std::array::from_fn(|j| Pit::front(8 - j as u8));
    let sf: [Pit; 8] = std::array::from_fn(|j| Pit::front(j as u8 + 1));
    let sb: [Pit; 8] = std::array::from_fn(|j| Pit::back(j as u8 + 1));
    s.push_str(&row(Side::North, nb, true));
    s.push_str(&row(Side::North, nb, false));
    s.push_str(&row(Side::North, nf, false));
    s.push_str(&row(Side::North, nf, true));
    s.push_str(&row(Side::South, sf, true));
    s.push_str(&row(Side::South, sf, false));
    s.push_str(&row(Side::South, sb, false));
    s.push_str(&row(Side::South, sb, true));
    s
}

pub fn show(a: ShowArgs) -> Result<(), CliError> {
    let (pos, rules) = load(&a.position, a.rules.as_deref())?;
    let mut o = out();
    let mut text = diagram(&pos);
    let st = status(&pos, &rules);
    if st != Outcome::Ongoing {
        text.push_str(&format!("game over: {}\n", st.describe()));
    }
    // Colour only on a terminal (and not under NO_COLOR); the plain text is unchanged.
    if crate::svg_cmd::colour_enabled() {
        text = crate::svg_cmd::colour_diagram(&text, &pos);
    }
    write!(o, "{text}")?;
    o.flush()?;
    Ok(())
}

pub fn playout(a: PlayoutArgs) -> Result<(), CliError> {
    let games = positive("GAMES", &a.games)?;
    let seed: u64 = a.seed.parse().map_err(|_| {
        CliError::usage(format!(
            "--seed must be a whole number, not '{}'",
            printable(&a.seed)
        ))
    })?;
    let (pos, rules) = load(&a.position, a.rules.as_deref())?;
    let stats = play_random(&pos, &rules, seed, games);
    let mut o = out();
    writeln!(o, "{stats}")?;
    o.flush()?;
    Ok(())
}

pub fn rules(a: RulesArgs) -> Result<(), CliError> {
    let variants: Vec<Variant> = match &a.variant {
        None => Variant::ALL.to_vec(),
        Some(v) => vec![Variant::from_id(v).ok_or_else(|| {
            CliError::usage(format!(
                "unknown variant '{}' (kiswahili, kete or kimasai)",
                printable(v)
            ))
        })?],
    };
    let mut o = out();
    for v in variants {
        writeln!(o, "{} ({}):", v.id(), v.title())?;
        let def = Rules::new(v);
        for name in Rules::option_names(v) {
            writeln!(
                o,
                "  {name} = {}  [{}]",
                def.get(name).unwrap_or_default(),
                bao_rules::option_values(name)
            )?;
        }
    }
    o.flush()?;
    Ok(())
}
