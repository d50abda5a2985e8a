//! Random playouts (CLI-9): complete games with uniformly random legal moves.

use crate::event::{DrawReason, NoEvents, StopReason, WinReason};
use crate::exec::{self, End, Ended, Run};
use crate::legal::{
    after_move, filtered, legal_from, legal_moves, never_ending_outcome, removed, LegalMove,
    Outcome,
};
use crate::movegen::{self, Candidate, Kind};
use crate::options::Repetition;
use crate::rng::Rng;
use crate::Pit;
use crate::{Position, Rules, Side};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Totals of a series of random games.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Moves played in all games.
    pub plies: u64,
    /// Games won by South.
    pub south: u64,
    /// Games won by North.
    pub north: u64,
    /// Drawn games.
    pub draws: u64,
}

impl std::fmt::Display for PlayoutStats {
    /// The line of CLI-9.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {} plies {} S {} N {} draw {}",
            self.games, self.plies, self.south, self.north, self.draws
        )
    }
}

/// A uniformly random legal move of `pos` (BRD-7.1), or `None` if it has none.
///
/// Rejection sampling, so that usually only one or two candidates are executed instead of
/// all of them: a candidate is drawn uniformly among those not yet found illegal, and with
/// `two` (some candidate may reach a house choice point and so give two moves) one of two
/// slots is drawn as well, a slot without a move being a rejection. Every legal move then has
/// the same chance per draw, so the choice is uniform over the legal moves.
pub fn random_move(pos: &Position, rules: &Rules, rng: &mut Rng) -> Option<LegalMove> {
    if filtered(pos, rules) {
        // Steps 4 and 5 of BRD-7.1 need every move: no shortcut.
        let moves = legal_moves(pos, rules);
        return (!moves.is_empty()).then(|| moves.as_slice()[rng.below(moves.len())]);
    }
    random_run(pos, rules, rng, |c, safari, e, end| {
        legal_from(pos, rules, c, safari, e, end)
    })
}

/// [`random_move`] for a game: only the position it leads to and whether it is never-ending,
/// with the same draws from `rng`.
fn random_next(pos: &Position, rules: &Rules, rng: &mut Rng) -> Option<(Position, bool)> {
    if filtered(pos, rules) {
        return random_move(pos, rules, rng).map(|m| (m.next, m.is_never_ending()));
    }
    random_run(pos, rules, rng, |c, _, e, end| {
        let next = after_move(pos, rules, c.kind, e, &mut NoEvents);
        (next, end == End::Stop(StopReason::NeverEnding))
    })
}

/// The candidates [`random_run`] draws from: the namua captures read off the board (the
/// most common kind early in a game), or the list of [`movegen::candidates`].
enum Cands {
    /// Front pits of the namua captures (see [`movegen::namua_captures`]).
    Namua(u8),
    List(movegen::Candidates),
}

impl Cands {
    fn new(pos: &Position, rules: &Rules) -> Cands {
        match movegen::namua_captures(pos) {
            Some(caps) => Cands::Namua(caps),
            None => Cands::List(movegen::candidates(pos, rules)),
        }
    }

    /// How many candidates there are.
    #[inline]
    fn len(&self) -> usize {
        match self {
            // KIS-4.2: one letter from a kimbi, two from the pits between.
            Cands::Namua(caps) => {
                (caps & 0b1100_0011).count_ones() as usize
                    + 2 * (caps & 0b0011_1100).count_ones() as usize
            }
            Cands::List(l) => l.as_slice().len(),
        }
    }

    /// Whether some candidate is a capture that may reach a house choice point (KIS-7.5).
    #[inline]
    fn any_capture(&self) -> bool {
        match self {
            Cands::Namua(_) => true,
            Cands::List(l) => l
                .as_slice()
                .iter()
                .any(|c| matches!(c.kind, Kind::NamuaCapture | Kind::MtajiCapture)),
        }
    }

    /// Candidate `i` in canonical order.
    #[inline]
    fn get(&self, i: usize) -> Candidate {
        match self {
            Cands::Namua(caps) => {
                let mut caps = *caps;
                let mut i = i;
                loop {
                    let r = caps.trailing_zeros() as u8;
                    caps &= caps - 1;
                    let letters = movegen::namua_capture_letters(r);
                    if i < letters.len() {
                        return Candidate {
                            pit: Pit::from_index(r),
                            letter: letters[i],
                            kind: Kind::NamuaCapture,
                        };
                    }
                    i -= letters.len();
                }
            }
            Cands::List(l) => l.as_slice()[i],
        }
    }
}

/// The draw of [`random_move`] (described there) without the filters of BRD-7.1 steps 4 and
/// 5: `make` turns the drawn run (candidate, `+` move, end of the run, how it ended) into the
/// answer.
#[inline]
fn random_run<R>(
    pos: &Position,
    rules: &Rules,
    rng: &mut Rng,
    make: impl FnOnce(Candidate, bool, &Ended, End) -> R,
) -> Option<R> {
    let cands = Cands::new(pos, rules);
    let len = cands.len();
    let side = pos.side();
    let two = pos.variant().is_bao()
        && pos.owns_house(side)
        && (pos.is_namua() || rules.mtaji_house_stop)
        && cands.any_capture();
    let mut alive: u32 = if len == 32 {
        u32::MAX
    } else {
        (1u32 << len) - 1
    };
    // The last run made: a slot without a move may redraw the same candidate. (A run is a
    // function of the candidate, so a miss only costs time.)
    let mut last: Option<(usize, Run)> = None;
    let ctx = exec::Ctx::new(pos, rules);
    loop {
        let k = alive.count_ones() as usize;
        if k == 0 {
            return None;
        }
        let mut pick = rng.below(k);
        let mut idx = alive.trailing_zeros() as usize;
        while pick > 0 {
            idx = (alive & !((2u32 << idx) - 1)).trailing_zeros() as usize;
            pick -= 1;
        }
        let slot = if two { rng.below(2) } else { 0 };
        let c = cands.get(idx);
        let out = match &mut last {
            Some((i, run)) if *i == idx => &*run,
            slot => &slot.insert((idx, exec::run(&ctx, c))).1,
        };
        let mut variants: [Option<(&Ended, bool, End)>; 2] = [None, None];
        let mut n = 0;
        // The move stopped at a choice point is always legal (see `exec::count`).
        if let Some(stop) = &out.stopped {
            variants[n] = Some((stop, false, End::Stop(StopReason::House)));
            n += 1;
        }
        if !removed(out.end, rules) {
            variants[n] = Some((&out.main, out.main.choice_point, out.end));
            n += 1;
        }
        if n == 0 {
            alive &= !(1 << idx);
            continue;
        }
        debug_assert!(two || n == 1, "a second move needs a choice point");
        if let Some((e, safari, end)) = variants.get(slot).copied().flatten() {
            return Some(make(c, safari, e, end));
        }
    }
}

/// Plays one complete random game from `start`; returns the moves played and the result.
///
/// Threefold repetition is counted from `start` (BRD-7.5).
pub fn random_game(start: &Position, rules: &Rules, rng: &mut Rng) -> (u64, Outcome) {
    play_game(start, rules, rng, &mut Seen::default())
}

/// Positions seen since the hand total last changed, with their counts (BRD-7.5). Kept by
/// [`playout`] from game to game so that its table is allocated once.
type Seen = HashMap<RepetitionKey, u8, BuildHasherDefault<KeyHasher>>;

/// A position for the repetition count: equal when [`Position::same_as`] says so, hashed
/// by [`Position::repetition_key`] (one word for the hasher instead of every field).
#[derive(PartialEq, Eq)]
struct RepetitionKey(Position);

impl std::hash::Hash for RepetitionKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.repetition_key());
    }
}

fn play_game(start: &Position, rules: &Rules, rng: &mut Rng, seen: &mut Seen) -> (u64, Outcome) {
    let mut pos = *start;
    let mut plies = 0;
    let threefold = rules.repetition == Repetition::ThreefoldDraw;
    clear(seen);
    let mut hands_total = pos.hand(Side::South) as u16 + pos.hand(Side::North) as u16;
    // The first position since the hand total last changed, not yet in `seen`: while the
    // total changes at every move (the namua stage) nothing is ever hashed.
    let mut pending = threefold.then(|| pos.with_ply(0));
    loop {
        // BRD-7.3 in its order: front rows, then legal moves, then the ply cap.
        let x = pos.side();
        if pos.front_row_empty(x) {
            return (plies, Outcome::Win(x.other(), WinReason::FrontRow));
        }
        if pos.front_row_empty(x.other()) {
            return (plies, Outcome::Win(x, WinReason::FrontRow));
        }
        let Some((next, never_ending)) = random_next(&pos, rules, rng) else {
            return (plies, Outcome::Win(x.other(), WinReason::NoMoves));
        };
        if rules.max_plies.is_some_and(|cap| pos.ply() >= cap) {
            return (plies, Outcome::Draw(DrawReason::MaxPlies));
        }
        plies += 1;
        pos = next;
        if never_ending {
            return (plies, never_ending_outcome(rules, x));
        }
        if threefold {
            // Hands never grow, so a position can only recur while the hand total is the same.
            let total = pos.hand(Side::South) as u16 + pos.hand(Side::North) as u16;
            if total != hands_total {
                clear(seen);
                hands_total = total;
                pending = Some(pos.with_ply(0));
                continue;
            }
            if let Some(first) = pending.take() {
                seen.insert(RepetitionKey(first), 1);
            }
            let n = seen.entry(RepetitionKey(pos.with_ply(0))).or_insert(0);
            *n += 1;
            // A third occurrence draws, unless the move result is already decided: a position
            // without legal moves cannot have occurred before, and front rows are checked first.
            if *n >= 3
                && !pos.front_row_empty(Side::South)
                && !pos.front_row_empty(Side::North)
                && rules.max_plies.is_none_or(|cap| pos.ply() < cap)
            {
                return (plies, Outcome::Draw(DrawReason::Repetition));
            }
        }
    }
}

/// Empties `seen`; an empty table is left alone (clearing costs its whole capacity).
fn clear(seen: &mut Seen) {
    if !seen.is_empty() {
        seen.clear();
    }
}

/// A fast hasher for [`RepetitionKey`]: the key is already a well-mixed 64-bit word.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Plays `games` random games from `start` with the generator seeded by `seed` (CLI-9).
///
/// ```
/// use bao_rules::{playout, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kimasai);
/// let stats = playout(&Position::start(&rules), &rules, 1, 3);
/// assert_eq!(stats.games, 3);
/// assert_eq!(stats.south + stats.north + stats.draws, 3);
/// ```
pub fn playout(start: &Position, rules: &Rules, seed: u64, games: u64) -> PlayoutStats {
    let mut rng = Rng::new(seed);
    let mut stats = PlayoutStats {
        games,
        ..Default::default()
    };
    let mut seen = Seen::default();
    for _ in 0..games {
        let (plies, outcome) = play_game(start, rules, &mut rng, &mut seen);
        stats.plies += plies;
        match outcome {
            Outcome::Win(Side::South, _) => stats.south += 1,
            Outcome::Win(Side::North, _) => stats.north += 1,
            _ => stats.draws += 1,
        }
    }
    stats
}
