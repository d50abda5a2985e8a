//! Memory across many games the figure in docs/api.md ("Memory").
//! Ignored by default (it plays 20,000 matches); run it with
//!
//! ```text
//! cargo test -p bao-server --test life_memory -- --ignored --nocapture
//! BAO_MEMORY_GAMES=2000 cargo test ...    # fewer games
//! BAO_MEMORY_KEEP=1 cargo test ...        # no eviction: every game stays in memory
//! ```
//!
//! Each match (kete, person against person, single game) is created, joined, played for
//! four plies and resigned, through the server's own operations (the same code the HTTP
//! handlers call) on a SQLite file; the resident set size of the process is read from
//! /proc/self/status before, after the games and after the next sweep.

mod common;

use bao_rules::{MatchFormat, Position, Rules, Side, Variant};
use bao_server::app::App;
use bao_server::game::Lifecycle;
use bao_server::game::{NewGame, Seat};
use common::*;
use std::sync::Arc;
use std::time::Duration;

fn rss_kib() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

async fn one_match(app: &Arc<App>) {
    let mut rules = Rules::new(Variant::Kete);
    rules.match_format = MatchFormat::SingleGame;
    let games = &app.games;
    let created = games
        .create(NewGame {
            rules,
            start: Position::start(&rules),
            computer: None,
            side: Side::South,
            name: "Asha".into(),
            clock: None,
            local: None,
            rated: false,
            account: None,
        })
        .await
        .unwrap();
    let id = created.id;
    let slot = games.slot(&id).await.unwrap();
    let seat = Seat {
        id: id.clone(),
        slot: slot.clone(),
        token: None,
        player: None,
    };
    games
        .join(
            &seat,
            created.invite.as_deref().unwrap(),
            "Guest".into(),
            None,
        )
        .await
        .unwrap();
    for ply in 0..4u32 {
        let mv = {
            let m = slot.m.lock().await;
            m.game.legal_moves().as_slice()[0].mv.to_string()
        };
        let player = (ply % 2) as usize;
        games
            .play(&slot, Some(player), &mv, Some(ply))
            .await
            .unwrap();
    }
    games.resign(&slot, Some(0), 1, 4).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "plays 20,000 matches; run by hand for the figure in docs/api.md"]
async fn memory_across_many_games() {
    let games: usize = std::env::var("BAO_MEMORY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let keep = std::env::var("BAO_MEMORY_KEEP").is_ok();
    let lifecycle = if keep {
        Lifecycle {
            sweep_every: Duration::from_secs(24 * 3600),
            ..Default::default()
        }
    } else {
        Lifecycle::default()
    };
    // Rate limits as in production: this test measures the server as it runs.
    let s = server(&sqlite_url("memory"))
        .with(|c| {
            c.durability = bao_server::Durability::Normal;
            c.edge = Default::default();
        })
        .lifecycle(lifecycle)
        .start()
        .await;
    let app = s.app.clone();
    // Warm up pools and allocator with a few games first.
    for _ in 0..200 {
        one_match(&app).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before = rss_kib();
    let t0 = std::time::Instant::now();
    let workers = 16;
    let quarter = games / 4;
    let mut steps = Vec::new();
    for q in 0..4 {
        let mut tasks = Vec::new();
        for w in 0..workers {
            let app = app.clone();
            tasks.push(tokio::spawn(async move {
                for _ in (w..quarter).step_by(workers) {
                    one_match(&app).await;
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        steps.push(format!(
            "{} MiB after {}",
            rss_kib() / 1024,
            (q + 1) * quarter
        ));
    }
    println!("RSS: {}", steps.join(", "));
    let after = rss_kib();
    let in_memory = app.games.in_memory();
    // The next sweep (every 2 s by default) lets the finished games go.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let swept = rss_kib();
    println!(
        "{games} matches in {:.0} s{}: RSS {} MiB before, {} MiB after ({} games in memory), \
         {} MiB after the next sweep ({} games in memory): {:+.2} KiB per match",
        t0.elapsed().as_secs_f64(),
        if keep { " (no eviction)" } else { "" },
        before / 1024,
        after / 1024,
        in_memory,
        swept / 1024,
        app.games.in_memory(),
        (swept as f64 - before as f64) / games as f64,
    );
    if !keep {
        assert_eq!(app.games.in_memory(), 0, "finished games leave memory");
    }
    s.stop().await;
}
