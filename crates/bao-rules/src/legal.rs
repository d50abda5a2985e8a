//! Legal moves (BRD-7.1), the after-move procedure (KIS-6.9, KIM-7.5) and results (BRD-7.3, BRD-7.4).

use crate::event::{DrawReason, Event, EventSink, NoEvents, StopReason, WinReason};
use crate::exec::{self, End, Ended};
use crate::movegen::{self, Candidate, Kind};
use crate::options::{BlockerMustCapture, HouseLostAt, HouseProtection, NeverEnding, NoIntro};
use crate::position::{front_empty, Position};
use crate::{Move, Pit, Rules, Side, Variant};
use std::fmt;

/// The state of a game: going on, won, or drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The game goes on (`-`).
    Ongoing,
    /// That side has won (`S`, `N`).
    Win(Side, WinReason),
    /// Drawn (`draw`).
    Draw(DrawReason),
}

impl Outcome {
    /// True unless the game goes on.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
    /// The winner, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(s, _) => Some(s),
            _ => None,
        }
    }
    /// The RESULT token (CLI-1.3): `-`, `S`, `N` or `draw`.
    pub fn token(self) -> &'static str {
        match self {
            Outcome::Ongoing => "-",
            Outcome::Win(Side::South, _) => "S",
            Outcome::Win(Side::North, _) => "N",
            Outcome::Draw(_) => "draw",
        }
    }
    /// The `win …`/`draw …` event for a trace, if the game is over.
    pub fn event(self) -> Option<Event> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Win(s, r) => Some(Event::Win(s, r)),
            Outcome::Draw(r) => Some(Event::Draw(r)),
        }
    }
    /// How the game ended, for people.
    pub fn describe(self) -> String {
        match self {
            Outcome::Ongoing => "the game goes on".into(),
            Outcome::Win(s, WinReason::FrontRow) => {
                format!(
                    "{} has won: {}'s front row is empty",
                    s.name(),
                    s.other().name()
                )
            }
            Outcome::Win(s, WinReason::NoMoves) => {
                format!(
                    "{} has won: {} has no legal move",
                    s.name(),
                    s.other().name()
                )
            }
            Outcome::Win(s, WinReason::NeverEnding) => format!(
                "{} has won: {} played a never-ending move",
                s.name(),
                s.other().name()
            ),
            Outcome::Draw(DrawReason::NeverEnding) => "drawn by a never-ending move".into(),
            Outcome::Draw(DrawReason::MaxPlies) => "drawn: the ply limit was reached".into(),
            Outcome::Draw(DrawReason::Repetition) => {
                "drawn: the same position occurred three times".into()
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// BRD-7.4: the move result of a never-ending move played by `mover` (legal only under
/// `never_ending=draw|mover_loses`).
pub(crate) fn never_ending_outcome(rules: &Rules, mover: Side) -> Outcome {
    match rules.never_ending {
        NeverEnding::Draw => Outcome::Draw(DrawReason::NeverEnding),
        _ => Outcome::Win(mover.other(), WinReason::NeverEnding),
    }
}

/// A legal move together with the position it leads to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LegalMove {
    /// The move.
    pub mv: Move,
    /// The position after the move, after-move procedure included.
    pub next: Position,
    /// Set for a never-ending move under `never_ending=draw|mover_loses` (BRD-7.4).
    pub(crate) never_ending: bool,
    pub(crate) first_capture: Option<u8>,
    pub(crate) captured: u8,
    pub(crate) first_lap_capture: bool,
}

impl LegalMove {
    /// The move result (BRD-7.4), ignoring history. Needs the legal moves of `next`.
    pub fn outcome(&self, rules: &Rules) -> Outcome {
        if self.never_ending {
            return never_ending_outcome(rules, self.mv.side);
        }
        status(&self.next, rules)
    }

    /// The move is never-ending, legal under `never_ending=draw|mover_loses` (BRD-6.3).
    pub fn is_never_ending(&self) -> bool {
        self.never_ending
    }

    /// Seeds captured by this move, by opponent pit, as a bit set of front ring indices.
    pub fn captured_pits(&self) -> u8 {
        self.captured
    }

    /// The opponent pit taken by the move's first capture, if any.
    pub fn first_capture(&self) -> Option<Pit> {
        self.first_capture.map(Pit::from_index)
    }
}

/// The legal moves of a position, in canonical order (at most 64).
#[derive(Clone, Debug)]
pub struct MoveList {
    items: Vec<LegalMove>,
}

impl MoveList {
    /// An empty list.
    pub fn empty() -> MoveList {
        MoveList { items: Vec::new() }
    }
    /// The moves as a slice.
    pub fn as_slice(&self) -> &[LegalMove] {
        &self.items
    }
    /// Number of legal moves.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// No legal move.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, LegalMove> {
        self.items.iter()
    }
    /// Finds a move by its canonical string.
    pub fn find(&self, canonical: &str) -> Option<&LegalMove> {
        self.items.iter().find(|m| m.mv.to_string() == canonical)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a LegalMove;
    type IntoIter = std::slice::Iter<'a, LegalMove>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl IntoIterator for MoveList {
    type Item = LegalMove;
    type IntoIter = std::vec::IntoIter<LegalMove>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

pub(crate) fn make_move(pos: &Position, c: Candidate, safari: bool) -> Move {
    Move {
        side: pos.side,
        pit: c.pit,
        letter: pos.variant.is_bao().then_some(c.letter),
        kind: c.kind,
        safari,
    }
}

/// Whether a run that ended so is removed by BRD-7.1 step 3.
#[inline]
pub(crate) fn removed(end: End, rules: &Rules) -> bool {
    match end {
        // Only runs given a lap budget end so, and their callers check for it first.
        End::FrontEmptied | End::OverBudget => true,
        End::Stop(StopReason::NeverEnding) => rules.never_ending == NeverEnding::Illegal,
        End::Stop(_) => false,
    }
}

/// Calls `f` for every legal move before the filters of steps 4 and 5, in canonical order,
/// with whether it is the `+` move and how its run ended.
/// With a lap budget, stops at the first candidate that outruns it and returns it.
#[inline]
fn for_each_raw(
    pos: &Position,
    rules: &Rules,
    lap_limit: u64,
    mut f: impl FnMut(Candidate, bool, &Ended, End),
) -> Result<(), (Candidate, bool)> {
    let cands = movegen::candidates(pos, rules);
    let ctx = exec::Ctx::new(pos, rules).with_lap_limit(lap_limit);
    let mut over = Ok(());
    exec::run_all(&ctx, cands.as_slice(), |c, run| {
        if run.end == End::OverBudget {
            over = Err((c, run.main.choice_point));
            return false;
        }
        // The move stopped at a choice point is always legal (see `exec::count`).
        if let Some(stop) = &run.stopped {
            f(c, false, stop, End::Stop(StopReason::House));
        }
        if !removed(run.end, rules) {
            f(c, run.main.choice_point, &run.main, run.end);
        }
        true
    });
    over
}

/// The legal moves of `pos` (BRD-7.1), with the positions they lead to.
///
/// This does not check whether the game is already over (see [`status`]).
///
/// ```
/// use bao_rules::{legal_moves, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let moves = legal_moves(&Position::start(&rules), &rules);
/// let names: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
/// assert_eq!(names, ["A6L*", "A6R*", "A7L*", "A7R*"]);
/// ```
pub fn legal_moves(pos: &Position, rules: &Rules) -> MoveList {
    let mut items = Vec::with_capacity(16);
    // Without a budget every run ends.
    let _ = for_each_raw(pos, rules, u64::MAX, |c, safari, e, end| {
        items.push(legal_from(pos, rules, c, safari, e, end));
    });
    filter(pos, rules, &mut items);
    MoveList { items }
}

/// A move that did not end within the lap budget given to [`legal_moves_within`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OverBudget {
    /// The move that outran it.
    pub mv: Move,
    /// The budget it outran, in laps.
    pub laps: u64,
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} did not end within {} laps (it may be never-ending)",
            self.mv, self.laps
        )
    }
}

impl std::error::Error for OverBudget {}

/// [`legal_moves`] with a budget: gives up as soon as one move needs more than `max_laps`
/// laps (sowings from one lift, tax or capture) to end or to be found never-ending.
///
/// Exact detection (BRD-6.2) follows a never-ending move around its whole cycle, and a few
/// rare positions have cycles of a hundred million laps. A search that meets millions of
/// positions would rather treat those few as unknown than spend a second on each; a player's
/// move must use [`legal_moves`], which always answers.
///
/// ```
/// use bao_rules::{legal_moves, legal_moves_within, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let start = Position::start(&rules);
/// // The first moves are one lap each.
/// let within = legal_moves_within(&start, &rules, 1).unwrap();
/// assert_eq!(within.as_slice(), legal_moves(&start, &rules).as_slice());
/// // In the mtaji stage moves relay: one lap is not enough for all of them.
/// let mtaji = Position::parse(
///     "kiswahili 0,3,1,0,2,3,0,2/6,0,2,1,1,2,1,1/0,0,1,0,2,5,5,4/3,5,4,3,1,3,1,2 S 0/0 - 50",
///     &rules,
/// )
/// .unwrap();
/// let err = legal_moves_within(&mtaji, &rules, 1).unwrap_err();
/// assert_eq!(err.laps, 1);
/// assert!(legal_moves_within(&mtaji, &rules, 1000).is_ok());
/// ```
pub fn legal_moves_within(
    pos: &Position,
    rules: &Rules,
    max_laps: u64,
) -> Result<MoveList, OverBudget> {
    let mut items = Vec::with_capacity(16);
    for_each_raw(pos, rules, max_laps, |c, safari, e, end| {
        items.push(legal_from(pos, rules, c, safari, e, end));
    })
    .map_err(|(c, safari)| OverBudget {
        mv: make_move(pos, c, safari),
        laps: max_laps,
    })?;
    filter(pos, rules, &mut items);
    Ok(MoveList { items })
}

/// The legal move of candidate `c` run to `e`, ended so (its after-move procedure included).
#[inline]
pub(crate) fn legal_from(
    pos: &Position,
    rules: &Rules,
    c: Candidate,
    safari: bool,
    e: &Ended,
    end: End,
) -> LegalMove {
    LegalMove {
        mv: make_move(pos, c, safari),
        next: after_move(pos, rules, c.kind, e, &mut NoEvents),
        never_ending: end == End::Stop(StopReason::NeverEnding),
        first_capture: e.first_capture,
        captured: e.captured,
        first_lap_capture: e.first_lap_capture,
    }
}

/// Steps 4 and 5 of BRD-7.1.
fn filter(pos: &Position, rules: &Rules, items: &mut Vec<LegalMove>) {
    if let Some(t) = pos.flags.must {
        let t = t.index() as u8;
        let keep = |m: &LegalMove| match rules.blocker_must_capture {
            BlockerMustCapture::FirstCapture => m.first_capture == Some(t),
            BlockerMustCapture::AnyCapture => m.captured & (1 << t) != 0,
            BlockerMustCapture::Off => true,
        };
        if items.iter().any(keep) {
            items.retain(keep);
        }
    }
    if pos.variant == Variant::Kimasai
        && rules.capture_compulsory
        && items.iter().any(|m| m.first_lap_capture)
    {
        items.retain(|m| m.first_lap_capture);
    }
}

/// Calls `f` for every legal move of `pos` (BRD-7.1), in canonical order, without
/// collecting them when the filters of steps 4 and 5 cannot apply.
#[inline]
pub(crate) fn for_each_legal(pos: &Position, rules: &Rules, mut f: impl FnMut(&LegalMove)) {
    if filtered(pos, rules) {
        legal_moves(pos, rules).iter().for_each(f);
        return;
    }
    // Without a budget every run ends.
    let _ = for_each_raw(pos, rules, u64::MAX, |c, safari, e, end| {
        f(&legal_from(pos, rules, c, safari, e, end))
    });
}

/// Whether steps 4 and 5 of BRD-7.1 may remove moves: they need the whole list.
#[inline]
pub(crate) fn filtered(pos: &Position, rules: &Rules) -> bool {
    pos.flags.must.is_some() || (pos.variant == Variant::Kimasai && rules.capture_compulsory)
}

/// The number of legal moves, without building the resulting positions (perft leaves).
pub fn count_legal_moves(pos: &Position, rules: &Rules) -> usize {
    if filtered(pos, rules) {
        return legal_moves(pos, rules).len();
    }
    let ctx = exec::Ctx::new(pos, rules);
    if let Some(caps) = movegen::namua_captures(pos) {
        // The most common kind of position early in a game: its moves read off the board.
        return exec::count_namua_captures(&ctx, caps, |e| removed(e, rules));
    }
    let cands = movegen::candidates(pos, rules);
    exec::count_all(&ctx, cands.as_slice(), |e| removed(e, rules))
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
    // The filters of steps 4 and 5 never empty a non-empty list.
    let cands = movegen::candidates(pos, rules);
    let ctx = exec::Ctx::new(pos, rules);
    cands
        .as_slice()
        .iter()
        .any(|&c| exec::count(&ctx, c, |e| removed(e, rules)) > 0)
}

/// The position result (BRD-7.3): depends only on the position and the rules.
pub fn status(pos: &Position, rules: &Rules) -> Outcome {
    let x = pos.side;
    if pos.front_row_empty(x) {
        return Outcome::Win(x.other(), WinReason::FrontRow);
    }
    if pos.front_row_empty(x.other()) {
        return Outcome::Win(x, WinReason::FrontRow);
    }
    if !has_legal_move(pos, rules) {
        return Outcome::Win(x.other(), WinReason::NoMoves);
    }
    if rules.max_plies.is_some_and(|m| pos.ply >= m) {
        return Outcome::Draw(DrawReason::MaxPlies);
    }
    Outcome::Ongoing
}

/// Steps 1, 2 and 4 of BRD-7.3: the cheap part of the position result.
#[inline]
pub(crate) fn over_without_movegen(pos: &Position, rules: &Rules) -> bool {
    front_empty(&pos.rings[0])
        || front_empty(&pos.rings[1])
        || rules.max_plies.is_some_and(|m| pos.ply >= m)
}

/// The after-move procedure: KIS-6.9 (kiswahili, kete) and KIM-7.5 (kimasai).
pub(crate) fn after_move<S: EventSink>(
    before: &Position,
    rules: &Rules,
    kind: Kind,
    e: &Ended,
    sink: &mut S,
) -> Position {
    let mover = before.side;
    let p = mover.index();
    let o = 1 - p;
    let mut next = *before;
    next.rings[p] = e.h;
    next.rings[o] = e.o;
    next.hands[p] = e.hand;
    next.flags.house = [false; 2];
    next.flags.house[p] = e.owns[0];
    next.flags.house[o] = e.owns[1];
    next.side = mover.other();
    next.ply = before.ply.saturating_add(1);
    next.flags.block = None;
    next.flags.must = None;
    if before.variant == Variant::Kimasai {
        next.flags.nointro = rules.no_intro == NoIntro::EachFirstMove
            && before.flags.nointro
            && mover == Side::South
            && next.hands[Side::North.index()] > 0;
        return next;
    }
    next.flags.nointro = false;
    // 1. Stage-based house loss.
    if rules.house_lost_at == HouseLostAt::EndOfNamua && next.hands[p] == 0 && next.flags.house[p] {
        next.flags.house[p] = false;
        sink.event(Event::HouseLost(mover));
    }
    // 2. Kete duty (KET-4.2).
    if kind == Kind::MtajiTakasa {
        next.flags.duty[p] = false;
    }
    for s in 0..2 {
        if !next.flags.house[s] {
            next.flags.duty[s] = false;
        }
    }
    // 4. Follow-up flag (KIS-8.8).
    if rules.blocker_must_capture != BlockerMustCapture::Off {
        if let Some(t) = before.flags.block {
            next.flags.must = Some(t);
            sink.event(Event::Must(t.name(mover)));
        }
    }
    // 5. Takasia (KIS-8.1 to KIS-8.4).
    if rules.takasia && kind == Kind::MtajiTakasa && before.hands == [0, 0] {
        let y = mover.other();
        if !movegen::has_capture(&next.rings, y) {
            let targets = movegen::capture_targets(&next.rings, mover);
            if targets.count_ones() == 1 {
                let t = targets.trailing_zeros() as usize;
                if !takasia_excluded(&next, rules, y, t) {
                    next.flags.block = Some(Pit::from_index(t as u8));
                    sink.event(Event::Block(Pit::from_index(t as u8).name(y)));
                }
            }
        }
    }
    next
}

/// KIS-8.3: the exclusions from takasia of Y's pit t.
fn takasia_excluded(pos: &Position, rules: &Rules, y: Side, t: usize) -> bool {
    let ring = &pos.rings[y.index()];
    if t == 4 && pos.flags.house[y.index()] {
        match rules.takasia_house_protection {
            HouseProtection::Owned => return true,
            HouseProtection::Functional if ring[4] >= rules.house_functional_min => return true,
            HouseProtection::Functional => {}
        }
    }
    let occupied = (0..8).filter(|&i| ring[i] > 0).count();
    if occupied == 1 {
        return true;
    }
    if ring[t] > 1 && (0..8).all(|i| i == t || ring[i] <= 1) {
        return true;
    }
    rules.takasia_excludes_singletons && ring[t] == 1
}

/// Plays `m` (a legal move of `pos`) and returns its event stream (CLI-5.2), the new
/// position and the move result.
pub fn play_with_events<S: EventSink>(
    pos: &Position,
    rules: &Rules,
    m: &Move,
    sink: &mut S,
) -> (Position, Outcome) {
    let c = Candidate {
        pit: m.pit,
        letter: m.letter.unwrap_or(crate::Letter::R),
        kind: m.kind,
    };
    let (e, end) = exec::run_with_events(pos, rules, c, m.safari, sink);
    let next = after_move(pos, rules, m.kind, &e, sink);
    let outcome = if end == End::Stop(StopReason::NeverEnding) {
        never_ending_outcome(rules, m.side)
    } else {
        status(&next, rules)
    };
    if let Some(e) = outcome.event() {
        sink.event(e);
    }
    (next, outcome)
}

/// The event lines of `m` played in `pos`, as `bao trace` prints them before `position`.
pub fn trace(pos: &Position, rules: &Rules, m: &Move) -> (Vec<Event>, Position, Outcome) {
    let mut events = Vec::new();
    let (next, outcome) = play_with_events(pos, rules, m, &mut events);
    (events, next, outcome)
}

/// The fast executor (`exec::run`, `exec::count`) against the plain one that traces use
/// (`exec::run_with_events`), on random positions of every variant under several option sets:
/// the same legal moves with the same positions and flags (BRD-7.1), the same counts, the same
/// perft, and lap budgets that never change an answer.
#[cfg(test)]
mod fast_vs_plain {
    use super::*;
    use crate::event::Event;
    use crate::position::Setup;
    use crate::{perft, random_move, Flags, Rng, Variant};

    /// BRD-7.1 with the plain executor only: each candidate is run to a stop at its house
    /// choice point and, if it reached one, run again with the safari (KIS-7.5).
    fn legal_plain(pos: &Position, rules: &Rules) -> Vec<LegalMove> {
        let mut items = Vec::new();
        for &c in movegen::candidates(pos, rules).as_slice() {
            let (e, end) = exec::run_with_events(pos, rules, c, false, &mut NoEvents);
            if e.choice_point {
                items.push(legal_from(pos, rules, c, false, &e, end));
                let (e, end) = exec::run_with_events(pos, rules, c, true, &mut NoEvents);
                if !removed(end, rules) {
                    items.push(legal_from(pos, rules, c, true, &e, end));
                }
            } else if !removed(end, rules) {
                items.push(legal_from(pos, rules, c, false, &e, end));
            }
        }
        filter(pos, rules, &mut items);
        items
    }

    /// CLI-4 perft over `legal_plain`: a never-ending move ends the game, so it counts at its
    /// own depth and is not extended.
    fn perft_plain(pos: &Position, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if over_without_movegen(pos, rules) {
            return 0;
        }
        legal_plain(pos, rules)
            .iter()
            .map(|m| match (m.never_ending, depth) {
                (true, 1) => 1,
                (true, _) => 0,
                (false, _) => perft_plain(&m.next, rules, depth - 1),
            })
            .sum()
    }

    /// Laps of a move in its trace: one per lift, tax and capture.
    fn laps(pos: &Position, rules: &Rules, m: &Move) -> u64 {
        trace(pos, rules, m)
            .0
            .iter()
            .filter(|e| matches!(e, Event::Lift(..) | Event::Tax(..) | Event::Capture(..)))
            .count() as u64
    }

    /// Every fast answer about `pos` equals the plain one.
    fn check(pos: &Position, rules: &Rules, rng: &mut Rng, deep: bool) -> Vec<LegalMove> {
        let plain = legal_plain(pos, rules);
        let ctx = || format!("{pos} ({rules})");
        assert_eq!(legal_moves(pos, rules).as_slice(), plain, "{}", ctx());
        assert_eq!(count_legal_moves(pos, rules), plain.len(), "{}", ctx());
        assert_eq!(has_legal_move(pos, rules), !plain.is_empty(), "{}", ctx());
        for budget in [1, 3, 40] {
            match legal_moves_within(pos, rules, budget) {
                Ok(within) => assert_eq!(within.as_slice(), plain, "{budget} {}", ctx()),
                Err(e) => assert!(laps(pos, rules, &e.mv) >= budget, "{} {}", e.mv, ctx()),
            }
        }
        match random_move(pos, rules, rng) {
            Some(m) => assert!(plain.contains(&m), "random {} {}", m.mv, ctx()),
            None => assert!(plain.is_empty(), "{}", ctx()),
        }
        for depth in 1..=if deep { 2 } else { 1 } {
            assert_eq!(
                perft(pos, rules, depth),
                perft_plain(pos, rules, depth),
                "perft {depth} {}",
                ctx()
            );
        }
        plain
    }

    /// A random board: the seeds spread over a random set of pits, hands, side and flags
    /// drawn at random; `None` when the position checks of NOT-4 refuse it.
    fn random_position(v: Variant, rules: &Rules, rng: &mut Rng) -> Option<Position> {
        let mut hands = [0u8; 2];
        if rng.below(2) == 0 {
            hands[0] = rng.below(25) as u8;
            hands[1] = hands[0].saturating_sub(rng.below(2) as u8);
        }
        let mut board = [[0u8; 16]; 2];
        let pits = 1 + rng.below(32);
        let chosen: Vec<usize> = (0..pits).map(|_| rng.below(32)).collect();
        for _ in 0..64 - hands[0] as usize - hands[1] as usize {
            let k = chosen[rng.below(pits)];
            board[k / 16][k % 16] += 1;
        }
        let side = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let mut flags = Flags::default();
        if v.is_bao() {
            for (s, ring) in board.iter().enumerate() {
                flags.house[s] = ring[4] > 0 && rng.below(2) == 0;
                flags.duty[s] = v == Variant::Kete && flags.house[s] && rng.below(2) == 0;
            }
            if rng.below(4) == 0 {
                flags.block = Some(Pit::from_index(rng.below(8) as u8));
            }
            if rng.below(6) == 0 {
                flags.must = Some(Pit::from_index(rng.below(8) as u8));
            }
        } else {
            flags.nointro = rng.below(4) == 0;
        }
        let setup = Setup {
            variant: v,
            board,
            hands,
            side,
            flags,
            ply: rng.below(100) as u32,
        };
        setup.validate(rules).ok()
    }

    const OPTIONS: &[(Variant, &str)] = &[
        (Variant::Kiswahili, "-"),
        (Variant::Kiswahili, "never_ending=draw"),
        (Variant::Kiswahili, "never_ending=mover_loses,front_row_empty=illegal"),
        (Variant::Kiswahili, "house_lost_at=first_mtaji_capture,mtaji_house_stop=true,takasia_house_protection=functional"),
        (Variant::Kiswahili, "house_lost_at=end_of_namua,namua_singletons=owned_house,house_functional_min=2"),
        (Variant::Kiswahili, "blocker_must_capture=any_capture,takasia_excludes_singletons=true,takasia_house_first_lap_exception=false"),
        (Variant::Kiswahili, "mtaji_house_stop=true,house_functional_min=3,lone_house_tax=keep_min"),
        (Variant::Kete, "-"),
        (Variant::Kete, "first_takasa_from_kuu=false,lone_house_tax=functional,blocker_must_capture=any_capture"),
        (Variant::Kete, "never_ending=draw,house_functional_min=2,mtaji_house_stop=true"),
        (Variant::Kimasai, "-"),
        (Variant::Kimasai, "capture_compulsory=true,intro_pits=front_only"),
        (Variant::Kimasai, "no_intro=each_first_move,never_ending=mover_loses,front_row_empty=illegal"),
        (Variant::Kimasai, "never_ending=draw,no_intro=never"),
    ];

    fn seed() -> u64 {
        let seed = std::env::var("BAO_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        println!("seed {seed} (rerun with BAO_TEST_SEED={seed})");
        seed
    }

    /// Positions of random games, each move drawn from the plain list.
    #[test]
    fn fast_equals_plain_in_random_games() {
        let seed = seed();
        let mut rng = Rng::new(seed);
        let mut positions = 0;
        for &(v, opts) in OPTIONS {
            let rules = Rules::parse(v, opts).unwrap();
            for game in 0..30 {
                let mut pos = Position::start(&rules);
                for ply in 0..400 {
                    if over_without_movegen(&pos, &rules) {
                        break;
                    }
                    let plain = check(&pos, &rules, &mut rng, (ply + game) % 4 == 0);
                    positions += 1;
                    if plain.is_empty() {
                        break;
                    }
                    let m = &plain[rng.below(plain.len())];
                    if m.never_ending {
                        break;
                    }
                    pos = m.next;
                }
            }
        }
        println!("{positions} positions checked");
        assert!(
            positions > 5_000,
            "only {positions} positions (seed {seed})"
        );
    }

    /// Random boards: stages, flags and seed spreads that games rarely reach, long
    /// never-ending cycles included.
    #[test]
    fn fast_equals_plain_on_random_boards() {
        let seed = seed();
        let mut rng = Rng::new(seed);
        let mut positions = 0;
        for &(v, opts) in OPTIONS {
            let rules = Rules::parse(v, opts).unwrap();
            let mut found = 0;
            for _ in 0..60_000 {
                if found == 1500 {
                    break;
                }
                if let Some(pos) = random_position(v, &rules, &mut rng) {
                    found += 1;
                    check(&pos, &rules, &mut rng, found % 8 == 0);
                }
            }
            assert!(
                found >= 100,
                "{found} valid boards for {v} {opts} (seed {seed})"
            );
            positions += found;
        }
        println!("{positions} boards checked");
    }
}
