//! `bao`: the command-line program. The machine interface of the spec (interface.md) and the
//! commands people use.

mod admin_cmd;
mod bench;
mod common;
mod engine_cmd;
mod learn_cmd;
mod machine;
mod play_cmd;
mod puzzles_cmd;
mod record_cmd;
mod review_cmd;
mod serve_cmd;
mod svg_cmd;
mod tournament_cmd;
mod tune_cmd;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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
    /// Play a round robin or Swiss among engines and levels; print the crosstable and the
    /// standings with tie-breaks.
    Tournament(tournament_cmd::TournamentArgs),
    /// Tune the evaluation weights of one variant by self-play (SPSA); compare the result
    /// with `bao match nodes:20000:FILE nodes:20000`.
    Tune(tune_cmd::TuneArgs),
    /// Draw a position as an SVG picture on standard output: bao svg POSITION > board.svg
    Svg(svg_cmd::SvgArgs),
    /// Judge every move of a game record: the best move, what the played move cost and a
    /// mark (?!, ?, ??), then a summary per player.
    Review(review_cmd::ReviewArgs),
    /// Check game records by replaying them, or convert them between text and JSON (NOT-6).
    Record(record_cmd::RecordArgs),
    /// Play in the terminal against the computer or a friend; the record is saved on exit.
    Play(play_cmd::PlayArgs),
    /// Step through the games of a record file in the terminal.
    Replay(play_cmd::ReplayArgs),
    /// Learn a game from the start: short lessons in the terminal, in Kiswahili or English,
    /// each step a position, a sentence and a goal (docs/learn.md).
    Learn(learn_cmd::LearnArgs),
    /// Serve the web app: play in the browser against the computer or other people.
    Serve(serve_cmd::ServeArgs),
    /// Load a server and measure it: many concurrent games over WebSockets (move round-trips),
    /// or with --players, idle signed-in players (CPU and memory per socket) and events sent
    /// through one instance to sockets on another (their latency).
    ///
    /// Examples:
    ///   bao loadtest --games 500
    ///   bao loadtest --players 2000
    ///   bao loadtest --players 20000 --addr 127.0.0.1:8080 --server-pid 4242 \
    ///       --database sqlite:///srv/bao/bao.db
    ///   bao loadtest --players 2000 --instances 2 --database postgres://bao@localhost/bao \
    ///       --events 200
    #[command(verbatim_doc_comment)]
    Loadtest(serve_cmd::LoadtestArgs),
    /// Mine puzzles from self-play games (the server's data files), or check a puzzle file.
    Puzzles(puzzles_cmd::PuzzlesArgs),
    /// Run the site: make the site's arenas and their daily or weekly series (shown on the
    /// calendar), list and stop them; grant the moderator role; on the server's database.
    ///
    /// Acts on the database directly, while the server runs or not; a running server takes
    /// up a new arena at once on PostgreSQL, within its safety sweep on SQLite. The arenas
    /// are shown as the site's. A series makes its next arena (same name, game, clock and
    /// length, a day or a week later) as each one starts, so players see the coming one on
    /// /calendar and join it ahead.
    ///
    /// Examples:
    ///   bao admin --database sqlite:///srv/bao/bao.db arena create --name 'Bao la Ijumaa' \
    ///       --variant kete --clock 3+2 --minutes 60 --starts-at 2026-12-11T16:00Z --repeat weekly
    ///   bao admin --database postgres://bao@localhost/bao arena list
    ///   bao admin --database postgres://bao@localhost/bao arena stop k3v9q0x2ma
    ///   bao admin arena create --help      (every field of an arena)
    ///   bao admin --database sqlite://bao.db moderator grant Asha
    #[command(verbatim_doc_comment)]
    Admin(admin_cmd::AdminArgs),
}

/// The commands of `bao --help`, by what people use them for. Every command is in exactly one
/// group (checked by a test).
const GROUPS: &[(&str, &[&str])] = &[
    ("Play", &["play", "replay", "learn"]),
    (
        "Study a position or a game",
        &[
            "show", "svg", "bestmove", "analyse", "review", "record", "rules",
        ],
    ),
    (
        "Machine interface (exact output for programs and tests)",
        &["moves", "apply", "perft", "trace", "playout", "engine"],
    ),
    ("Server", &["serve", "loadtest", "admin"]),
    (
        "Development",
        &["bench", "match", "tournament", "tune", "puzzles"],
    ),
];

/// Width of `bao --help` lines, as `max_term_width` above.
const HELP_WIDTH: usize = 100;

/// The command list of `bao --help`, grouped by [`GROUPS`], each line `  name  about` with
/// the about text wrapped under itself.
fn grouped_commands(cmd: &clap::Command) -> String {
    let name_width = GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter())
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    let indent = 2 + name_width + 2;
    let mut text = String::new();
    for (heading, names) in GROUPS {
        text.push_str(&format!("{heading}:\n"));
        for name in *names {
            let about = cmd
                .find_subcommand(name)
                .and_then(|c| c.get_about())
                .map(|a| a.to_string())
                .unwrap_or_default();
            let mut line = format!("  {name:name_width$}  ");
            let mut col = indent;
            for word in about.split_whitespace() {
                if col > indent && col + 1 + word.len() > HELP_WIDTH {
                    line.push('\n');
                    line.push_str(&" ".repeat(indent));
                    col = indent;
                } else if col > indent {
                    line.push(' ');
                    col += 1;
                }
                line.push_str(word);
                col += word.len();
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

/// The clap command with the grouped command list in its help.
fn command() -> clap::Command {
    let cmd = Cli::command();
    let template = format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{}Options:\n{{options}}{{after-help}}\n",
        grouped_commands(&cmd).replace('{', "{{").replace('}', "}}")
    );
    cmd.help_template(template)
}

fn main() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
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
        Command::Tournament(a) => tournament_cmd::run(a),
        Command::Svg(a) => svg_cmd::run(a),
        Command::Record(a) => record_cmd::run(a),
        Command::Review(a) => review_cmd::run(a),
        Command::Play(a) => play_cmd::play(a),
        Command::Replay(a) => play_cmd::replay(a),
        Command::Learn(a) => learn_cmd::run(a),
        Command::Serve(a) => serve_cmd::serve(a),
        Command::Admin(a) => admin_cmd::admin(a),
        Command::Loadtest(a) => serve_cmd::loadtest(a),
        Command::Puzzles(a) => puzzles_cmd::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_is_in_exactly_one_help_group() {
        let cmd = Cli::command();
        let mut listed: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        listed.sort_unstable();
        let mut commands: Vec<&str> = cmd
            .get_subcommands()
            .map(|c| c.get_name())
            .filter(|n| *n != "help")
            .collect();
        commands.sort_unstable();
        assert_eq!(listed, commands);
    }

    #[test]
    fn help_lists_commands_under_their_group_and_fits_the_width() {
        let help = command().render_help().to_string();
        let play = help.find("Play:").expect("a Play group");
        let server = help.find("Server:").expect("a Server group");
        let play_line = help.find("\n  play ").expect("play listed");
        let serve_line = help.find("\n  serve ").expect("serve listed");
        assert!(play < play_line && play_line < server && server < serve_line);
        assert!(help.contains("Options:"), "{help}");
        for line in help.lines() {
            assert!(line.chars().count() <= HELP_WIDTH, "too wide: {line:?}");
        }
    }
}
