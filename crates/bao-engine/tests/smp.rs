//! The multi-threaded search (root split with a shared table) and the deterministic
//! single-threaded one.

use bao_engine::search::{Limits, Score, Searcher};
use bao_engine::Weights;
use bao_rules::{legal_moves, Game, Position, Rules, Variant};

fn positions() -> Vec<(Rules, Position)> {
    let mut v = Vec::new();
    for var in Variant::ALL {
        let rules = Rules::new(var);
        let mut g = Game::new(Position::start(&rules), rules);
        v.push((rules, *g.position()));
        // A middle-game position: a few first moves in canonical order.
        for _ in 0..12 {
            let ms = g.legal_moves();
            if ms.is_empty() || g.outcome().is_over() {
                break;
            }
            let m = ms.as_slice()[ms.len() / 2];
            g.play(&m);
        }
        if !g.outcome().is_over() {
            v.push((rules, *g.position()));
        }
    }
    v
}

fn searcher(rules: Rules, threads: usize) -> Searcher {
    let mut s = Searcher::new(rules, Weights::for_variant(rules.variant), 18);
    s.set_threads(threads);
    s
}

/// One thread with a depth or node limit: the same move, score and node count every time.
#[test]
fn one_thread_is_deterministic() {
    for (rules, pos) in positions() {
        for limits in [Limits::depth(4), Limits::nodes(30_000)] {
            let run = || {
                let r = searcher(rules, 1).search_root(&pos, limits, &mut |_| {});
                (r.best.map(|m| m.mv), r.score, r.nodes, r.depth)
            };
            assert_eq!(run(), run(), "{pos} {limits:?}");
        }
    }
}

/// Two and four threads return a legal move and a score close to the single thread's at
/// the same depth (the root is split between the threads; a move counts only when searched
/// to the end).
#[test]
fn several_threads_play_legal_moves_with_sane_scores() {
    for (rules, pos) in positions() {
        let legal = legal_moves(&pos, &rules);
        let one = searcher(rules, 1).search_root(&pos, Limits::depth(5), &mut |_| {});
        for threads in [2, 4] {
            let mut s = searcher(rules, threads);
            assert_eq!(s.threads(), threads);
            for _ in 0..3 {
                let r = s.search_root(&pos, Limits::depth(5), &mut |_| {});
                let best = r.best.expect("a move");
                assert!(legal.as_slice().contains(&best), "{pos}: {}", best.mv);
                assert_eq!(r.depth, 5);
                match (one.score, r.score) {
                    // A shared table changes move order and so which of equal moves is
                    // chosen, and can deepen lines: the score stays in the same range.
                    (Score::Cp(a), Score::Cp(b)) => {
                        assert!(
                            (a - b).abs() <= 600,
                            "{pos}: {a} vs {b} ({threads} threads)"
                        )
                    }
                    (a, b) => assert_eq!(
                        std::mem::discriminant(&a),
                        std::mem::discriminant(&b),
                        "{pos}: {a} vs {b}"
                    ),
                }
                assert!(r.pv.first() == Some(&best.mv));
            }
        }
    }
}

/// A node limit counts the nodes of all threads, and a time limit ends all threads.
#[test]
fn limits_hold_across_threads() {
    let rules = Rules::new(Variant::Kiswahili);
    let pos = Position::start(&rules);
    let mut s = searcher(rules, 2);
    let r = s.search_root(&pos, Limits::nodes(50_000), &mut |_| {});
    assert!(r.nodes >= 50_000, "{}", r.nodes);
    // Each thread adds its count to the total in batches of about a thousand nodes.
    assert!(r.nodes < 50_000 + 20_000, "{}", r.nodes);
    let t = std::time::Instant::now();
    let r = s.search_root(&pos, Limits::time(50), &mut |_| {});
    assert!(r.best.is_some());
    // Generous: the machine may be busy, but the search must not run on for seconds.
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    // Back to one thread: deterministic again.
    s.set_threads(1);
    s.clear();
    let a = s.search_root(&pos, Limits::depth(4), &mut |_| {});
    s.clear();
    let b = s.search_root(&pos, Limits::depth(4), &mut |_| {});
    assert_eq!((a.nodes, a.score), (b.nodes, b.score));
}
