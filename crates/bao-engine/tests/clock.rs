//! Clock-aware time use through the engine protocol: a simulated clock game under CPU load.

use bao_engine::protocol::{Out, Session};
use bao_rules::{Game, Position, Rules, Variant};
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

mod load;
use load::Load;

/// The engine's output; `bestmove` wakes the waiting test at once (no polling delay is
/// charged to the engine).
#[derive(Clone, Default)]
struct Buf(Arc<(Mutex<Vec<u8>>, Condvar)>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 .0.lock().unwrap().extend_from_slice(b);
        self.0 .1.notify_all();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn wait_bestmove(&self, timeout: Duration) -> Option<String> {
        let (lock, cv) = &*self.0;
        let mut v = lock.lock().unwrap();
        let t = Instant::now();
        loop {
            let text = String::from_utf8_lossy(&v).into_owned();
            if let Some(l) = text.lines().find(|l| l.starts_with("bestmove")) {
                v.clear();
                return Some(l.to_string());
            }
            let left = timeout.checked_sub(t.elapsed())?;
            v = cv.wait_timeout(v, left).unwrap().0;
        }
    }
}

/// The test keeps both clocks (2 s + 50 ms per move), charges the engine the wall time from
/// `go` to `bestmove`, and plays the engine against itself with two CPU-bound processes
/// beside it: the engine never runs out of time.
#[test]
fn a_clock_game_under_load_never_runs_out_of_time() {
    let _load = Load::start(2);
    let b = Buf::default();
    let mut s = Session::new(Out::new(Box::new(b.clone())));
    let rules = Rules::new(Variant::Kiswahili);
    let mut g = Game::new(Position::start(&rules), rules);
    let inc = Duration::from_millis(50);
    let mut left = [Duration::from_secs(2); 2];
    let mut least = Duration::from_secs(2);
    let mut moves = Vec::new();
    while !g.outcome().is_over() && moves.len() < 120 {
        let side = g.side().index();
        let mut pos = "position startpos".to_string();
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        s.handle(&pos);
        let go = format!(
            "go wtime {} btime {} winc 50 binc 50",
            left[0].as_millis(),
            left[1].as_millis()
        );
        let t = Instant::now();
        s.handle(&go);
        let best = b
            .wait_bestmove(Duration::from_secs(30))
            .expect("a bestmove");
        let used = t.elapsed();
        assert!(
            used < left[side],
            "ply {}: used {used:?} with {:?} left",
            moves.len(),
            left[side]
        );
        left[side] = left[side] - used + inc;
        least = least.min(left[side]);
        let mv = best.split_whitespace().nth(1).unwrap().to_string();
        g.play_text(&mv).unwrap();
        moves.push(mv);
    }
    eprintln!(
        "{} plies, least time left {least:?}, clocks at the end {left:?}",
        moves.len()
    );
    assert!(moves.len() >= 20, "the game went on: {}", moves.len());
}
