//! Helpers shared by the integration tests of bao-rules: building positions by pit name,
//! listing moves, replaying event streams, and the cheap per-move invariants.
#![allow(dead_code)]

use bao_rules::{
    find_move, legal_moves, legal_moves_within, random_move, status, trace, DrawReason, Event,
    Game, LegalMove, Outcome, Position, Repetition, Rng, Rules, Side, Square, Variant,
};
use std::collections::HashMap;

/// Rules of `variant` from an option string; panics with the error if it is refused.
pub fn rules(variant: Variant, opts: &str) -> Rules {
    Rules::parse(variant, opts).unwrap_or_else(|e| panic!("rules {opts:?}: {e}"))
}

/// Parses a position; panics with the error if it is refused.
pub fn pos(rules: &Rules, text: &str) -> Position {
    Position::parse(text, rules).unwrap_or_else(|e| panic!("position {text:?}: {e}"))
}

/// The position text (NOT-3) of a board given by pit names (`A5`, `b8`, …); pits not named are
/// empty. Written out as text and parsed, so that every hand-built position also goes through
/// the parser and its checks.
pub fn text(
    variant: Variant,
    side: Side,
    hands: [u8; 2],
    pits: &[(&str, u8)],
    flags: &str,
    ply: u32,
) -> String {
    let mut board = [[0u8; 16]; 2];
    for &(name, n) in pits {
        let sq = Square::parse(name).unwrap_or_else(|| panic!("bad pit name {name}"));
        board[sq.side.index()][sq.pit.index()] = n;
    }
    let n = &board[1];
    let s = &board[0];
    // Diagram order (NOT-3.2): b8..b1 / a8..a1 / A1..A8 / B1..B8, as ring indices.
    let rows: [Vec<u8>; 4] = [
        (8..16).map(|i| n[i]).collect(),
        (0..8).rev().map(|i| n[i]).collect(),
        (0..8).map(|i| s[i]).collect(),
        (8..16).rev().map(|i| s[i]).collect(),
    ];
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!(
        "{} {} {} {}/{} {} {}",
        variant.id(),
        rows.join("/"),
        side.letter(),
        hands[0],
        hands[1],
        flags,
        ply
    )
}

/// A position built by pit names (see [`text`]), parsed under `rules`.
pub fn build(
    rules: &Rules,
    side: Side,
    hands: [u8; 2],
    pits: &[(&str, u8)],
    flags: &str,
) -> Position {
    pos(rules, &text(rules.variant, side, hands, pits, flags, 0))
}

/// The canonical names of the legal moves, in the order listed.
pub fn names(p: &Position, r: &Rules) -> Vec<String> {
    legal_moves(p, r).iter().map(|m| m.mv.to_string()).collect()
}

/// The legal move written `text` (any NOT-2 form); panics if it is not exactly one legal move.
pub fn mv(p: &Position, r: &Rules, text: &str) -> LegalMove {
    find_move(p, r, text).unwrap_or_else(|e| panic!("move {text} in {p}: {} {e}", e.category()))
}

/// The event lines of playing `text` in `p`, without the position/result lines.
pub fn events(p: &Position, r: &Rules, text: &str) -> Vec<String> {
    let m = mv(p, r, text);
    let (ev, next, _) = trace(p, r, &m.mv);
    assert_eq!(
        next, m.next,
        "trace and legal_moves disagree on {text} in {p}"
    );
    ev.iter().map(|e| e.to_string()).collect()
}

/// All 64 seeds are somewhere (BRD-1.2).
pub fn seed_total(p: &Position) -> u32 {
    Side::BOTH
        .iter()
        .map(|&s| p.ring(s).iter().map(|&c| c as u32).sum::<u32>() + p.hand(s) as u32)
        .sum()
}

/// Replays an event stream (CLI-5.1) onto the board and hands of `before`, as an animation
/// would: `place` takes a seed from the mover's hand, `lift`/`tax`/`capture` fill the moving
/// hand, `sow` drops one seed from it. Returns the boards `[side][ring]` and the hands, or an
/// error naming the first event that does not fit (a seed sown from an empty hand, a lift of
/// the wrong count, seeds left in the moving hand at the end).
pub fn replay(before: &Position, evs: &[Event]) -> Result<([[u8; 16]; 2], [u8; 2]), String> {
    let mut board = [*before.ring(Side::South), *before.ring(Side::North)];
    let mut hands = [before.hand(Side::South), before.hand(Side::North)];
    let mover = before.side();
    let mut in_hand: u32 = 0;
    for e in evs {
        match *e {
            Event::Place(sq) => {
                if sq.side != mover || hands[mover.index()] == 0 {
                    return Err(format!("{e}: no seed in {mover}'s hand"));
                }
                hands[mover.index()] -= 1;
                board[sq.side.index()][sq.pit.index()] += 1;
            }
            Event::Lift(sq, n) => {
                let c = &mut board[sq.side.index()][sq.pit.index()];
                if sq.side != mover || *c != n || in_hand != 0 {
                    return Err(format!("{e}: pit holds {c}, hand holds {in_hand}"));
                }
                *c = 0;
                in_hand = n as u32;
            }
            Event::Tax(sq) => {
                let c = &mut board[sq.side.index()][sq.pit.index()];
                if sq.side != mover || *c < 2 || in_hand != 0 {
                    return Err(format!("{e}: pit holds {c}"));
                }
                *c -= 2;
                in_hand = 2;
            }
            Event::Capture(sq, n) => {
                let c = &mut board[sq.side.index()][sq.pit.index()];
                if sq.side == mover || *c != n || in_hand != 0 || !sq.pit.is_front() {
                    return Err(format!("{e}: pit holds {c}"));
                }
                *c = 0;
                in_hand = n as u32;
            }
            Event::Sow(sq) => {
                if sq.side != mover || in_hand == 0 {
                    return Err(format!("{e}: nothing in the moving hand"));
                }
                in_hand -= 1;
                board[sq.side.index()][sq.pit.index()] += 1;
            }
            Event::Enter(sq)
                if sq.side != mover
                    || (!sq.pit.is_kichwa() && before.variant() != Variant::Kimasai) =>
            {
                return Err(format!("{e}: entry is not a kichwa of the mover"));
            }
            Event::Stop(_) if in_hand != 0 => {
                return Err(format!("{e} with {in_hand} seeds still in the moving hand"));
            }
            _ => {}
        }
    }
    if in_hand != 0 {
        return Err(format!("{in_hand} seeds left in the moving hand"));
    }
    Ok((board, hands))
}

/// The seed-conservation part of the invariants, cheap enough for every move of every game.
pub fn assert_conserved(p: &Position, context: &dyn Fn() -> String) {
    let t = seed_total(p);
    assert!(t == 64, "seed total {t} after {}", context());
}

/// No game of any variant comes near this (the longest random games have a few hundred plies).
pub const PLY_GUARD: u32 = 20_000;

/// Checks that cost a few comparisons: run on every move of every game.
pub fn cheap_checks(before: &Position, m: &LegalMove, rules: &Rules) {
    let next = &m.next;
    let ctx = || format!("{} after {} in {before} ({rules})", next, m.mv);
    assert_conserved(next, &ctx);
    let mover = before.side();
    assert_eq!(m.mv.side(), mover, "{}", ctx());
    assert_eq!(next.side(), mover.other(), "{}", ctx());
    assert_eq!(next.ply(), before.ply() + 1, "{}", ctx());
    assert_eq!(next.variant(), before.variant(), "{}", ctx());
    // Hands never grow; a mover's hand shrinks by at most one seed, the other's not at all.
    let (hb, hn) = (before.hand(mover), next.hand(mover));
    assert!(hn == hb || hn + 1 == hb, "{}", ctx());
    assert_eq!(
        next.hand(mover.other()),
        before.hand(mover.other()),
        "{}",
        ctx()
    );
    if before.variant().is_bao() {
        // KIS-2.1, KIS-6.1: a namua move always puts one seed from the hand.
        assert_eq!(hb > 0, hn + 1 == hb, "{}", ctx());
        assert_eq!(m.mv.is_namua(), hb > 0, "{}", ctx());
        // KIS-7.1: an owned house is never empty; a house once lost stays lost.
        for s in Side::BOTH {
            if next.owns_house(s) {
                assert!(before.owns_house(s), "{}", ctx());
                assert!(next.seeds(s, bao_rules::Pit::HOUSE) > 0, "{}", ctx());
            }
            // NOT-3.4: duty only with the house; never regained.
            if next.flags().duty[s.index()] {
                assert!(
                    next.owns_house(s) && before.flags().duty[s.index()],
                    "{}",
                    ctx()
                );
            }
        }
        // NOT-1.1: '+' and '*' never together.
        assert!(!(m.mv.is_safari() && m.mv.is_takasa()), "{}", ctx());
    } else {
        assert!(!next.owns_house(Side::South) && !next.owns_house(Side::North));
    }
    // BRD-7.4: the move result is the position result of the next position, except for
    // never-ending moves (drawn or lost by the mover).
    let out = m.outcome(rules);
    if m.is_never_ending() {
        assert!(
            matches!(out, Outcome::Draw(DrawReason::NeverEnding))
                || out.winner() == Some(mover.other()),
            "{}",
            ctx()
        );
    } else {
        assert_eq!(out, status(next, rules), "{}", ctx());
    }
}

/// The expensive checks, for a sample of positions: listing is deterministic and in canonical
/// byte order; every move re-parses to itself (and through a lenient alias); the trace agrees
/// with the listing and its events replayed onto the board give the next position; `Game`
/// (what `bao apply` uses) gives the same position and result; every position round-trips
/// through its text.
pub fn full_checks(pos: &Position, moves: &[LegalMove], rules: &Rules) {
    let again = legal_moves(pos, rules);
    assert_eq!(
        again.as_slice(),
        moves,
        "legal_moves is not deterministic in {pos}"
    );
    // A lap budget never changes an answer, it only declines to give one.
    for budget in [3, 40] {
        match legal_moves_within(pos, rules, budget) {
            Ok(within) => assert_eq!(within.as_slice(), moves, "budget {budget} in {pos}"),
            Err(e) => {
                // The move it names really needs more laps: count them in its trace (a lap
                // starts at every lift, tax and capture).
                let laps = trace(pos, rules, &e.mv)
                    .0
                    .iter()
                    .filter(|e| matches!(e, Event::Lift(..) | Event::Tax(..) | Event::Capture(..)))
                    .count() as u64;
                assert!(
                    laps >= budget,
                    "{} named over budget {budget} in {pos}",
                    e.mv
                );
            }
        }
    }
    let texts: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    for w in texts.windows(2) {
        assert!(
            w[0].as_bytes() < w[1].as_bytes(),
            "order {w:?} in {pos} (NOT-1.5)"
        );
    }
    let printed = pos.to_string();
    let parsed = Position::parse(&printed, rules).unwrap_or_else(|e| panic!("{printed}: {e}"));
    assert_eq!(&parsed, pos, "round trip of {printed}");
    assert_eq!(parsed.to_string(), printed);
    for (m, t) in moves.iter().zip(&texts) {
        let found = find_move(pos, rules, t).unwrap_or_else(|e| panic!("{t} in {pos}: {e}"));
        assert_eq!(&found, m, "find_move({t}) in {pos}");
        // NOT-2.2: the row letter's case is ignored.
        let swapped: String = t
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                } else {
                    c
                }
            })
            .collect();
        assert_eq!(
            find_move(pos, rules, &swapped).map(|f| f.mv),
            Ok(m.mv),
            "{swapped} in {pos}"
        );
        let (events, next, outcome) = trace(pos, rules, &m.mv);
        assert_eq!(next, m.next, "trace vs moves for {t} in {pos}");
        assert_eq!(outcome, m.outcome(rules), "trace result for {t} in {pos}");
        let (board, hands) =
            replay(pos, &events).unwrap_or_else(|e| panic!("events of {t} in {pos}: {e}"));
        assert_eq!(
            board,
            [*next.ring(Side::South), *next.ring(Side::North)],
            "replayed {t} in {pos}"
        );
        assert_eq!(hands, [next.hand(Side::South), next.hand(Side::North)]);
        let stops = events
            .iter()
            .filter(|e| e.to_string().starts_with("stop "))
            .count();
        assert_eq!(stops, 1, "exactly one stop event for {t} in {pos}");
        let mut g = Game::new(*pos, *rules);
        let played = g
            .play_text(t)
            .unwrap_or_else(|e| panic!("apply {t} in {pos}: {e}"));
        assert_eq!(played.next, m.next);
        assert_eq!(
            g.outcome(),
            m.outcome(rules),
            "apply vs moves result of {t} in {pos}"
        );
    }
}

/// Plays one random game; returns (plies, outcome). Moves are drawn with the library's
/// sampler `random_move` (so that the totals can be compared with `playout`, which uses it),
/// and each drawn move must be one of `legal_moves`. The result is decided here from the
/// spec: BRD-7.3 for positions, BRD-7.4 for moves, and repetition counted independently of
/// the library (BRD-7.5: the start counts once; checked only when the move result is `-`).
pub fn checked_game(start: &Position, rules: &Rules, rng: &mut Rng, full: bool) -> (u64, Outcome) {
    let mut pos = *start;
    let mut seen: HashMap<Position, u32> = HashMap::new();
    seen.insert(pos.with_ply(0), 1);
    let mut plies = 0u64;
    loop {
        let moves = legal_moves(&pos, rules);
        if full {
            full_checks(&pos, moves.as_slice(), rules);
        }
        let drawn = random_move(&pos, rules, rng);
        let st = status(&pos, rules);
        let x = pos.side();
        if pos.front_row_empty(x) || pos.front_row_empty(x.other()) {
            assert_eq!(
                st.winner(),
                Some(if pos.front_row_empty(x) { x.other() } else { x })
            );
            return (plies, st);
        }
        let Some(m) = drawn else {
            assert!(
                moves.is_empty(),
                "random_move found none of {} moves in {pos}",
                moves.len()
            );
            assert_eq!(
                st,
                Outcome::Win(x.other(), bao_rules::WinReason::NoMoves),
                "{pos}"
            );
            return (plies, st);
        };
        assert!(
            moves.as_slice().contains(&m),
            "random_move gave {} (not legal) in {pos}",
            m.mv
        );
        if st.is_over() {
            assert_eq!(st, Outcome::Draw(DrawReason::MaxPlies), "{pos}");
            return (plies, st);
        }
        cheap_checks(&pos, &m, rules);
        plies += 1;
        pos = m.next;
        let mut outcome = m.outcome(rules);
        if outcome == Outcome::Ongoing && rules.repetition == Repetition::ThreefoldDraw {
            let n = seen.entry(pos.with_ply(0)).or_insert(0);
            *n += 1;
            if *n >= 3 {
                outcome = Outcome::Draw(DrawReason::Repetition);
            }
        }
        if outcome.is_over() {
            if full {
                // A finished game has no moves (NOT-2.5): Game refuses every move.
                let mut g = Game::new(pos, *rules);
                if g.outcome().is_over() {
                    assert!(g.legal_moves().is_empty());
                    assert!(g.play_text("A1").is_err());
                }
            }
            return (plies, outcome);
        }
        assert!(
            pos.ply() < start.ply() + PLY_GUARD,
            "game from {start} did not finish ({rules})"
        );
    }
}
