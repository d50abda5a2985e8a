//! The engine protocol in-process (docs/engine-protocol.md): replies, errors, stop.

use bao_engine::protocol::{Out, Session};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
    fn wait_for(&self, prefix: &str) -> String {
        let t = Instant::now();
        loop {
            if let Some(l) = self.lines().into_iter().find(|l| l.starts_with(prefix)) {
                return l;
            }
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "no '{prefix}' line in {:?}",
                self.lines()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
}

fn session() -> (Session, Buf) {
    let b = Buf::default();
    (Session::new(Out::new(Box::new(b.clone()))), b)
}

#[test]
fn handshake_position_and_go() {
    let (mut s, b) = session();
    s.handle("bao");
    s.handle("isready");
    let l = b.lines();
    assert!(l[0].starts_with("id name bao-engine"));
    assert!(l.contains(&"baook".to_string()));
    assert_eq!(l.last().unwrap(), "readyok");
    b.clear();
    s.handle("variant kete");
    s.handle("position startpos moves A6L* a5L");
    s.handle("print");
    let rules = bao_rules::Rules::new(bao_rules::Variant::Kete);
    let mut g = bao_rules::Game::new(bao_rules::Position::start(&rules), rules);
    g.play_text("A6L*").unwrap();
    g.play_text("a5L").unwrap();
    assert_eq!(
        b.lines(),
        vec![format!("position {}", g.position()), "result -".to_string()]
    );
    b.clear();
    s.handle("go depth 3");
    let best = b.wait_for("bestmove");
    let infos: Vec<String> = b
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{infos:?}");
    assert!(infos[2].contains(" pv "));
    // The move is legal in the position.
    let mv = best.split(' ').nth(1).unwrap();
    assert!(g.play_text(mv).is_ok());
}

#[test]
fn bad_input_gives_one_error_line_each_and_the_session_goes_on() {
    let (mut s, b) = session();
    for line in [
        "frobnicate",
        "variant chess",
        "rules takasia=maybe",
        "position kiswahili moves A5L*",
        "position kiswahili 1,2,3",
        "position kimasai",
        "go depth 0",
        "go level 9",
        "go sideways 3",
        "position",
    ] {
        b.clear();
        assert!(s.handle(line));
        let l = b.lines();
        assert_eq!(l.len(), 1, "{line}: {l:?}");
        assert!(l[0].starts_with("error "), "{line}: {l:?}");
    }
    b.clear();
    s.handle("position kiswahili moves A5L*");
    assert!(b.lines()[0].starts_with("error illegal_move:"));
    b.clear();
    s.handle("rules takasia=maybe");
    assert!(b.lines()[0].starts_with("error bad_rules:"));
    // Still working.
    b.clear();
    s.handle("position startpos");
    s.handle("go depth 1");
    assert!(b.wait_for("bestmove").starts_with("bestmove A"));
    assert!(!s.handle("quit"));
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let (mut s, b) = session();
    s.handle("position kiswahili");
    s.handle("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    b.clear();
    s.handle("position kiswahili moves A6L*");
    assert!(b.lines()[0].starts_with("error busy:"));
    s.handle("isready");
    assert!(b.lines().contains(&"readyok".to_string()));
    s.handle("stop");
    let best = b.wait_for("bestmove");
    assert!([
        "bestmove A6L*",
        "bestmove A6R*",
        "bestmove A7L*",
        "bestmove A7R*"
    ]
    .contains(&best.as_str()));
}

#[test]
fn game_over_gives_bestmove_none() {
    let (mut s, b) = session();
    // KIS-9.3: South has only singletons in mtaji, so no legal move.
    s.handle("position kiswahili 0,0,0,0,0,0,0,0/6,6,6,6,6,6,6,6/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1 S 0/0 - 0");
    s.handle("go depth 2");
    assert_eq!(b.wait_for("bestmove"), "bestmove none");
}

#[test]
fn levels_and_seeds_are_reproducible() {
    let run = || {
        let (mut s, b) = session();
        s.handle("position kimasai moves A1");
        s.handle("go level 2 seed 5");
        b.wait_for("bestmove")
    };
    assert_eq!(run(), run());
}

/// The next command, sent the moment `bestmove` is read, is never answered `busy` (the
/// search is marked done before `bestmove` is written; docs/engine-protocol.md,
/// "Conventions").
#[test]
fn commands_right_after_bestmove_are_accepted() {
    let (mut s, b) = session();
    for i in 0..200 {
        s.handle("position startpos");
        s.handle(if i % 2 == 0 {
            "go nodes 50"
        } else {
            "go movetime 1"
        });
        b.wait_for("bestmove");
        let l = b.lines();
        assert!(
            !l.iter().any(|l| l.starts_with("error")),
            "search {i}: {l:?}"
        );
        b.clear();
    }
}

/// `go` takes clocks and threads; bad values get one error line.
#[test]
fn go_takes_clocks_and_threads() {
    let (mut s, b) = session();
    s.handle("position kete");
    s.handle("go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5 threads 2");
    assert!(b.wait_for("bestmove").starts_with("bestmove A"));
    b.clear();
    s.handle("go wtime 0 btime 0");
    assert!(b.wait_for("bestmove").starts_with("bestmove A"));
    for bad in [
        "go threads 0",
        "go threads 65",
        "go wtime x",
        "go movestogo 0",
    ] {
        b.clear();
        s.handle(bad);
        let l = b.lines();
        assert!(
            l.len() == 1 && l[0].starts_with("error usage:"),
            "{bad}: {l:?}"
        );
    }
}
