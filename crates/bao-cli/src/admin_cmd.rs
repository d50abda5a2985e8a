//! `bao admin`: the site's operators act on its database (docs/api.md, "Arenas", "Fair play").

use crate::common::CliError;
use bao_server::features::arenas::admin::{parse_utc, run_blocking, AdminArena};
use clap::{Args, Subcommand};

/// `bao admin` (its help is the doc comment of `Command::Admin` in main.rs).
#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The site's database, as `bao serve --database` takes it: sqlite://FILE or
    /// postgres://USER:PASS@HOST/DB.
    #[arg(long, global = true)]
    database: Option<String>,
    #[command(subcommand)]
    what: AdminWhat,
}

#[derive(Subcommand, Debug)]
enum AdminWhat {
    /// The site's arenas: make one or a daily or weekly series, list the series, stop one.
    #[command(subcommand)]
    Arena(ArenaCmd),
    /// Give an account the moderator role, or take it back. Moderators see /mod (the reports
    /// and the accounts whose rated games follow the engine too closely) and act on them.
    ///
    /// Examples:
    ///   bao admin --database sqlite://bao.db moderator grant Asha
    ///   bao admin --database postgres://bao@localhost/bao moderator revoke Asha
    #[command(verbatim_doc_comment)]
    Moderator(ModeratorArgs),
}

#[derive(Args, Debug)]
struct ModeratorArgs {
    /// grant or revoke.
    #[arg(value_parser = ["grant", "revoke"])]
    what: String,
    /// The account's name (any case).
    name: String,
}

#[derive(Subcommand, Debug)]
enum ArenaCmd {
    /// Make an arena shown as the site's. With --repeat, a series: the next arena is made
    /// (same name, game, clock and length, a day or a week later) as each one starts, so the
    /// calendar always shows the coming one and players can join it ahead.
    ///
    /// Example: bao admin --database sqlite://bao.db arena create --name 'Bao la Ijumaa'
    ///   --variant kete --clock 3+2 --minutes 60 --starts-at 2026-12-11T16:00Z --repeat weekly
    Create(CreateArgs),
    /// List the series: id, how often, the newest arena's start (UTC), running or stopped,
    /// its name.
    List,
    /// Stop a series (its id from `list`): no more arenas are made; those made stay.
    Stop {
        /// The series id.
        series: String,
    },
}

#[derive(Args, Debug)]
struct CreateArgs {
    /// The arena's name, 1 to 80 characters, as players see it.
    #[arg(long)]
    name: String,
    /// The game: kiswahili, kete or kimasai.
    #[arg(long, default_value = "kete")]
    variant: String,
    /// Rule options (name=value,...; see `bao rules`); the variant's usual rules without it.
    #[arg(long)]
    rules: Option<String>,
    /// Each player's clock: MINUTES+SECONDS, the seconds added after each move (3+2).
    #[arg(long, default_value = "3+2")]
    clock: String,
    /// How long the arena runs, 10 to 720 minutes.
    #[arg(long, default_value_t = 60)]
    minutes: i64,
    /// When it starts, in UTC: YYYY-MM-DDTHH:MMZ (players see it in their own time). Now
    /// without it.
    #[arg(long)]
    starts_at: Option<String>,
    /// daily or weekly: a series.
    #[arg(long)]
    repeat: Option<String>,
    /// Rated games.
    #[arg(long)]
    rated: bool,
    /// Players may go berserk (half their clock for one more point on a win).
    #[arg(long)]
    berserk: bool,
    /// Not listed in the arenas nor the calendar: joined by its link only.
    #[arg(long)]
    private: bool,
    /// Only this club's members join (the club's id, from its page's address /club/ID).
    #[arg(long)]
    club: Option<String>,
}

/// Reads `3+2` (minutes + seconds a move).
fn clock(s: &str) -> Option<(i64, i64)> {
    let (m, inc) = s.trim().split_once('+')?;
    let m: f64 = m.trim().parse().ok()?;
    let inc: i64 = inc.trim().parse().ok()?;
    (m > 0.0 && m.is_finite()).then(|| ((m * 60_000.0).round() as i64, inc * 1000))
}

/// Runs `bao admin`.
pub fn admin(a: AdminArgs) -> Result<(), CliError> {
    let database = a.database.as_deref().map(str::trim).unwrap_or_default();
    if database.is_empty() {
        return Err(CliError::usage(
            "give the site's database: --database sqlite://FILE or postgres://USER:PASS@HOST/DB",
        ));
    }
    let cmd = match a.what {
        AdminWhat::Arena(cmd) => cmd,
        AdminWhat::Moderator(m) => return moderator(database, m),
    };
    let cmd = match cmd {
        ArenaCmd::Create(c) => {
            let (initial_ms, increment_ms) = clock(&c.clock)
                .ok_or_else(|| CliError::usage("--clock is MINUTES+SECONDS, e.g. 3+2 or 0.5+1"))?;
            let starts_at = match &c.starts_at {
                None => None,
                Some(s) => Some(parse_utc(s).ok_or_else(|| {
                    CliError::usage(
                        "--starts-at is a UTC time: YYYY-MM-DDTHH:MMZ, e.g. 2026-12-11T16:00Z",
                    )
                })?),
            };
            AdminArena::Create(serde_json::json!({
                "name": c.name, "variant": c.variant, "rules": c.rules,
                "clock": {"initial_ms": initial_ms, "increment_ms": increment_ms},
                "rated": c.rated, "starts_at": starts_at, "minutes": c.minutes,
                "berserk": c.berserk, "private": c.private, "club": c.club, "repeat": c.repeat,
            }))
        }
        ArenaCmd::List => AdminArena::List,
        ArenaCmd::Stop { series } => AdminArena::Stop(series),
    };
    let out = run_blocking(database, cmd).map_err(CliError::usage)?;
    println!("{out}");
    Ok(())
}

fn moderator(database: &str, m: ModeratorArgs) -> Result<(), CliError> {
    let on = m.what == "grant";
    let name = m.name.trim().to_string();
    let found = bao_server::set_moderator_blocking(database, &name, on)
        .map_err(|e| CliError::usage(format!("--database {database}: {e}")))?;
    if !found {
        return Err(CliError::usage(format!(
            "there is no account named '{}'",
            bao_rules::printable(&name)
        )));
    }
    println!(
        "{name} {}",
        if on {
            "is a moderator now"
        } else {
            "is no longer a moderator"
        }
    );
    Ok(())
}
