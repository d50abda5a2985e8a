//! `bao bench`: perft over a fixed set of positions and a fixed series of random games.
//! The node count is a signature: it changes only when the rules' behaviour changes.

use crate::common::{out, CliError};
use bao_rules::{perft, playout, Position, Rules, Variant};
use clap::Args;
use std::io::Write;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Perft depth added to (or, negative, taken from) each position's default depth.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    depth_offset: i32,
    /// Random games per variant in the playout part.
    #[arg(long, default_value_t = 2000)]
    games: u64,
}

/// (variant, position, depth): start positions and middle-game positions from the fixtures.
pub const BENCH_POSITIONS: &[(Variant, &str, u32)] = &[
    (Variant::Kiswahili, "kiswahili", 9),
    (Variant::Kete, "kete", 9),
    (Variant::Kimasai, "kimasai", 5),
    (Variant::Kiswahili, "kiswahili 0,0,0,0,0,0,0,0/0,3,4,8,0,2,5,6/0,2,1,0,8,0,3,4/0,0,0,0,0,0,0,0 S 9/9 house:S,house:N 0", 6),
    (Variant::Kiswahili, "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0", 5),
    (Variant::Kiswahili, "kiswahili 6,6,6,5,5,5,5,5/2,0,3,0,4,0,0,1/0,0,2,0,0,1,0,0/0,5,0,0,3,0,0,0 S 0/0 - 0", 5),
    (Variant::Kete, "kete 0,6,3,1,0,2,5,6/0,0,0,4,0,3,0,0/5,0,2,6,3,0,0,0/7,2,3,4,0,1,1,0 S 0/0 - 0", 5),
    (Variant::Kimasai, "kimasai 0,1,0,3,5,2,2,7/1,1,1,4,1,0,1,3/0,7,0,1,4,0,5,1/3,0,1,3,2,4,0,1 N 0/0 - 49", 4),
];

pub fn run(a: BenchArgs) -> Result<(), CliError> {
    let mut o = out();
    let mut total = 0u64;
    let t0 = Instant::now();
    for (i, (v, text, depth)) in BENCH_POSITIONS.iter().enumerate() {
        let rules = Rules::new(*v);
        let pos = Position::parse(text, &rules).map_err(|e| CliError::internal(e.to_string()))?;
        let d = (*depth as i32 + a.depth_offset).max(1) as u32;
        let t = Instant::now();
        let n = perft(&pos, &rules, d);
        let secs = t.elapsed().as_secs_f64();
        writeln!(
            o,
            "position {} {} depth {d} nodes {n} nodes/s {:.0}",
            i + 1,
            v.id(),
            n as f64 / secs.max(1e-9)
        )?;
        o.flush()?;
        total += n;
    }
    let secs = t0.elapsed().as_secs_f64();
    writeln!(
        o,
        "perft nodes {total} time {:.3} s nodes/s {:.0}",
        secs,
        total as f64 / secs.max(1e-9)
    )?;
    for v in Variant::ALL {
        let rules = Rules::new(v);
        let t = Instant::now();
        let s = playout(&Position::start(&rules), &rules, 1, a.games);
        let secs = t.elapsed().as_secs_f64();
        writeln!(
            o,
            "playout {} {} games/s {:.0} plies/s {:.0}",
            v.id(),
            s,
            s.games as f64 / secs.max(1e-9),
            s.plies as f64 / secs.max(1e-9)
        )?;
        o.flush()?;
    }
    writeln!(o, "signature {total}")?;
    o.flush()?;
    Ok(())
}
