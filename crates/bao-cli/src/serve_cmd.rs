//! `bao serve` and `bao loadtest`: thin glue over crates/bao-server.

use crate::common::CliError;
use clap::Args;

/// `bao serve` arguments.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Database: sqlite://FILE (created if missing) or postgres://USER:PASS@HOST/DB.
    #[arg(long, default_value = "sqlite://bao.db")]
    database: String,
    /// SQLite only: `full` syncs every commit to disk (survives power loss); `normal` is
    /// faster and survives a crash of the program but not of the machine.
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
}

/// `bao loadtest` arguments.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// Concurrent games (each has two players driven over WebSockets).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// A running `bao serve` (HOST:PORT); without it a server is started in this process on
    /// a temporary SQLite file.
    #[arg(long)]
    addr: Option<String>,
    /// Moves per game at most.
    #[arg(long, default_value_t = 40)]
    plies: usize,
    /// Mean pause before each move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Spread the start of the games over this many milliseconds.
    #[arg(long, default_value_t = 10_000)]
    ramp_ms: u64,
    /// Variant.
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// SQLite durability of the in-process server (see `bao serve --sync`).
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
    /// Spectator sockets per game, besides the two players (they only read).
    #[arg(long, default_value_t = 0)]
    spectators: usize,
}

fn durability(s: &str) -> bao_server::Durability {
    if s == "normal" {
        bao_server::Durability::Normal
    } else {
        bao_server::Durability::Full
    }
}

/// Runs the server until Ctrl-C.
pub fn serve(a: ServeArgs) -> Result<(), CliError> {
    bao_server::serve_blocking(bao_server::Config {
        addr: a.addr,
        database: a.database,
        durability: durability(&a.sync),
        ws: Default::default(),
    })
    .map_err(CliError::internal)
}

/// Runs the load test and prints its report.
pub fn loadtest(a: LoadtestArgs) -> Result<(), CliError> {
    let report = bao_server::loadtest_blocking(bao_server::loadtest::LoadOptions {
        games: a.games,
        addr: a.addr,
        plies: a.plies,
        think_ms: a.think_ms,
        variant: a.variant,
        ramp_ms: a.ramp_ms,
        durability: durability(&a.sync),
        spectators: a.spectators,
    })
    .map_err(CliError::internal)?;
    println!("{report}");
    Ok(())
}
