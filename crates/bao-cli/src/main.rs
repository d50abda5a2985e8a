//! `bao`: the command-line program. The machine interface of the spec (interface.md) and the
//! commands people use.

mod bench;
mod common;
mod engine_cmd;
mod machine;
mod play_cmd;
mod record_cmd;
mod serve_cmd;
mod svg_cmd;
mod tune_cmd;

use clap::{Parser, Subcommand};
use common::CliError;
use std::process::ExitCode;

/// Bao: Bao la Kiswahili, Bao la Kete and Bao la Kimasai.
///
/// POSITION is a full position in quotes, e.g.
/// 'kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0',
/// or just a variant name (kiswahili, kete, kimasai) for its start position.
/// --rules takes name=value,... (see `bao rules`); it is checked against the position's variant.
#[derive(Parser, Debug)]
#[command(name = "bao", version, propagate_version = true, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the legal moves: MOVE<TAB>RESULTING_POSITION<TAB>RESULT per line (CLI-2).
    ///
    /// With POSITION `-`, read positions from standard input, one per line, and print
    /// each one's moves followed by a line `.` (CLI-2.1).
    Moves(machine::MovesArgs),
    /// Apply moves and print the final position and the result, with repetition (CLI-3).
    Apply(machine::ApplyArgs),
    /// Count move sequences of each length 1..DEPTH (CLI-4).
    Perft(machine::PerftArgs),
    /// Print the event stream of one move (CLI-5).
    Trace(machine::TraceArgs),
    /// Draw a position for people (CLI-6).
    Show(machine::ShowArgs),
    /// Play GAMES complete random games and print the totals (CLI-9).
    Playout(machine::PlayoutArgs),
    /// List the rule options of each variant, with their values and defaults.
    Rules(machine::RulesArgs),
    /// Measure the rules' speed on a fixed set of positions; the node count is a signature
    /// of the rules' behaviour.
    Bench(bench::BenchArgs),
    /// Search a position and print the best move, its score and the principal variation.
    Bestmove(engine_cmd::BestmoveArgs),
    /// Score every legal move of a position, best first.
    Analyse(engine_cmd::AnalyseArgs),
    /// Speak the engine protocol on standard input and output (docs/engine-protocol.md).
    Engine(engine_cmd::EngineArgs),
    /// Play paired games between two players and report the score, Elo and SPRT.
    Match(engine_cmd::MatchArgs),
    /// Tune the evaluation weights of one variant by self-play (SPSA); compare the result
    /// with `bao match nodes:20000:FILE nodes:20000`.
    Tune(tune_cmd::TuneArgs),
    /// Draw a position as an SVG picture on standard output: bao svg POSITION > board.svg
    Svg(svg_cmd::SvgArgs),
    /// Check game records by replaying them, or convert them between text and JSON (NOT-6).
    Record(record_cmd::RecordArgs),
    /// Play in the terminal against the computer or a friend; the record is saved on exit.
    Play(play_cmd::PlayArgs),
    /// Step through the games of a record file in the terminal.
    Replay(play_cmd::ReplayArgs),
    /// Serve the web app: play in the browser against the computer or other people.
    Serve(serve_cmd::ServeArgs),
    /// Play many concurrent games against a server over WebSockets and report move round-trips.
    Loadtest(serve_cmd::LoadtestArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        ExitCode::from(2)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                _ => CliError::usage(common::clap_message(&e)).report(),
            };
        }
    };
    let result = match cli.command {
        Command::Moves(a) => machine::moves(a),
        Command::Apply(a) => machine::apply(a),
        Command::Perft(a) => machine::perft(a),
        Command::Trace(a) => machine::trace(a),
        Command::Show(a) => machine::show(a),
        Command::Playout(a) => machine::playout(a),
        Command::Rules(a) => machine::rules(a),
        Command::Bench(a) => bench::run(a),
        Command::Bestmove(a) => engine_cmd::bestmove(a),
        Command::Analyse(a) => engine_cmd::analyse(a),
        Command::Engine(a) => engine_cmd::engine(a),
        Command::Tune(a) => tune_cmd::run(a),
        Command::Match(a) => engine_cmd::play_match(a),
        Command::Svg(a) => svg_cmd::run(a),
        Command::Record(a) => record_cmd::run(a),
        Command::Play(a) => play_cmd::play(a),
        Command::Replay(a) => play_cmd::replay(a),
        Command::Serve(a) => serve_cmd::serve(a),
        Command::Loadtest(a) => serve_cmd::loadtest(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}
