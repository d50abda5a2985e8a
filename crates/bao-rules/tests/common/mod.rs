//! Helpers shared by the integration tests of bao-rules: building positions by pit name,
//! listing moves, replaying event streams, and the cheap per-move invariants.
#![allow(dead_code)]

use bao_rules::{
    find_move, legal_moves, trace, Event, LegalMove, Position, Rules, Side, Square, Variant,
};

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
        .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","))
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
    assert_eq!(next, m.next, "trace and legal_moves disagree on {text} in {p}");
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
            Event::Enter(sq) => {
                if sq.side != mover || !sq.pit.is_kichwa() && before.variant() != Variant::Kimasai
                {
                    return Err(format!("{e}: entry is not a kichwa of the mover"));
                }
            }
            Event::Stop(_) => {
                if in_hand != 0 {
                    return Err(format!("{e} with {in_hand} seeds still in the moving hand"));
                }
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
