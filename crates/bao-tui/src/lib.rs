//! # bao-tui
//!
//! The terminal game of bao (ratatui + crossterm): `bao play` against the computer or a
//! friend, and `bao replay FILE` to step through recorded games.
//!
//! The game is a pure state machine ([`App`]: state plus [`App::handle_key`]) drawn by
//! [`ui::render`]; only [`run_play`] and [`run_replay`] touch the terminal, the clock and
//! threads. Tests drive [`App`] with key presses through ratatui's `TestBackend`.
#![warn(missing_docs)]

pub mod app;
pub mod replay;
pub mod ui;

pub use app::{default_name, key, App, Effect, Mode, PlayConfig, Player, Question};
pub use replay::Replay;

use crossterm::event::{self, Event as TermEvent};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long each event of a move is shown.
const ANIMATION_STEP: Duration = Duration::from_millis(70);

/// Runs a game (or match) in the terminal until the user quits; returns the final state so
/// that the caller can save its records ([`save_records`]).
pub fn run_play(config: PlayConfig) -> io::Result<App> {
    let mut terminal = ratatui::try_init()?;
    let result = play_loop(&mut terminal, App::new(config));
    ratatui::restore();
    result
}

fn play_loop(terminal: &mut ratatui::DefaultTerminal, mut app: App) -> io::Result<App> {
    type Answer = (bao_rules::Position, Option<bao_rules::LegalMove>);
    let mut engine: Option<mpsc::Receiver<Answer>> = None;
    let mut hint: Option<mpsc::Receiver<Answer>> = None;
    loop {
        terminal.draw(|f| ui::render(&app, f))?;
        // The computer thinks in a thread so that the screen stays alive.
        if app.needs_engine() && engine.is_none() {
            let pos = *app.game().position();
            let rules = *app.game().rules();
            let level = app.engine_level().unwrap_or(bao_engine::MIN_LEVEL);
            let seed = app.next_seed();
            let history = app.history();
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let m = bao_engine::choose_move_in_game(&pos, &rules, level, seed, &history);
                let _ = tx.send((pos, m));
            });
            engine = Some(rx);
        }
        if app.hint_requested && hint.is_none() {
            let pos = *app.game().position();
            let rules = *app.game().rules();
            let level = app.config.hint_level;
            let seed = app.next_seed();
            let history = app.history();
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let m = bao_engine::choose_move_in_game(&pos, &rules, level, seed, &history);
                let _ = tx.send((pos, m));
            });
            hint = Some(rx);
        }
        if let Some(rx) = &engine {
            match rx.try_recv() {
                Ok((pos, Some(m))) => {
                    app.engine_moved(&pos, m);
                    engine = None;
                }
                Ok((_, None)) | Err(mpsc::TryRecvError::Disconnected) => engine = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if let Some(rx) = &hint {
            match rx.try_recv() {
                Ok((pos, m)) => {
                    app.hint_ready(&pos, m.map(|m| m.mv));
                    hint = None;
                }
                Err(mpsc::TryRecvError::Disconnected) => hint = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if event::poll(ANIMATION_STEP)? {
            if let TermEvent::Key(k) = event::read()? {
                if app.handle_key(k) == Effect::Quit {
                    return Ok(app);
                }
            }
        } else {
            app.tick();
        }
    }
}

/// Runs the replay viewer until the user quits.
pub fn run_replay(replay: Replay) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let mut r = replay;
    let result = (|| -> io::Result<()> {
        loop {
            terminal.draw(|f| ui::render_replay(&r, f))?;
            if event::poll(ANIMATION_STEP)? {
                if let TermEvent::Key(k) = event::read()? {
                    if r.handle_key(k) == Effect::Quit {
                        return Ok(());
                    }
                }
            } else {
                r.tick();
            }
        }
    })();
    ratatui::restore();
    result
}

use bao_engine::record::civil_from_days;
pub use bao_engine::record::today;

/// Where a record is saved when no file is given: `$XDG_DATA_HOME/bao/games` or
/// `~/.local/share/bao/games`, else the current directory; the name carries the time.
pub fn default_record_path() -> PathBuf {
    let dir = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })
        .map(|d| d.join("bao").join("games"))
        .unwrap_or_else(|| PathBuf::from("."));
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    dir.join(format!(
        "bao-{y:04}{m:02}{d:02}-{:02}{:02}{:02}.txt",
        t / 3600,
        (t / 60) % 60,
        t % 60
    ))
}

/// Writes the session's records (NOT-6, one per game, separated by blank lines) to `path`,
/// creating its directory. Never overwrites silently: an existing file gets a numbered
/// sibling name. Returns the path written.
pub fn save_records(app: &App, path: &Path) -> io::Result<PathBuf> {
    let records = app.records(&today());
    let mut text = String::new();
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&r.to_string());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut target = path.to_path_buf();
    let mut n = 1;
    loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&target)
        {
            Ok(mut f) => {
                f.write_all(text.as_bytes())?;
                f.sync_all()?;
                return Ok(target);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "bao".into());
                let ext = path
                    .extension()
                    .map(|s| format!(".{}", s.to_string_lossy()))
                    .unwrap_or_default();
                target = path.with_file_name(format!("{stem}-{n}{ext}"));
                n += 1;
            }
            Err(e) => return Err(e),
        }
    }
}
