//! Move execution (KIS-6, KIM-7, BRD-5, BRD-6): one sowing core for all three games.
//!
//! [`Exec`] runs a move lap by lap and pauses at every relay and at the house choice point,
//! so that one driver can detect never-ending moves exactly (BRD-6.2) and split a move in two
//! at a choice point (KIS-7.5).
//!
//! Exact detection without a cap. Between two *irreversible* events of a move (a capture, which
//! moves seeds from the opponent for good, or the loss of a house) the next relay state is a
//! function of the current one, and that function is injective: sowing one seed at a time,
//! a pit left empty by the hand's last pick-up is the only way the hand can hold seeds over an
//! empty pit, so each step can be undone. An injective map on a finite set has no "tail" before
//! its cycle. So a never-ending move returns to the *first* relay state after its last
//! irreversible event, and no relay state repeats earlier (states before an irreversible event
//! cannot recur after it). Comparing each relay state with that one reference therefore finds
//! the first repetition exactly, at the index BRD-6.4 stops at, with O(1) memory.
//!
//! Rings are kept as `u128` with one byte per pit: a lap of fewer than 16 seeds is one add of
//! a precomputed mask (a seed drop is a byte increment, sixteen at a time).
//!
//! Two executors implement the same rules. [`Exec`] (the plain one) reports every event and
//! is what traces, animation and records read. [`run`] and [`count`] (the fast one, for legal
//! moves, perft and playouts) keep the whole state of a move in local variables and compare a
//! relay state with the reference on the mover's ring and the pit only: the opponent's ring,
//! the direction and the house flags change only at an irreversible event, which resets the
//! reference anyway. Unit tests in `legal.rs` check that both give the same moves, positions
//! and counts on random positions of every variant.

use crate::event::{Event, EventSink, StopReason};
use crate::movegen::{Candidate, Kind};
use crate::options::{FrontRowEmpty, HouseLostAt};
use crate::position::{front_empty, Position};
use crate::{Dir, Letter, Pit, Rules, Side, Variant};

/// `MASKS[lap_index(ccw, start, n)]`: a 1 in each of the n pits after `start` (n < 16), counter-
/// clockwise (ring index down) when `ccw`.
static MASKS: [u128; 512] = build_masks();

/// The index into [`MASKS`] of a lap of n (mod 16) seeds after `start`.
#[inline(always)]
fn lap_index(ccw: bool, start: usize, n: u8) -> usize {
    (ccw as usize) << 8 | (start & 15) << 4 | (n & 15) as usize
}

const fn build_masks() -> [u128; 512] {
    let mut m = [0u128; 512];
    let mut d = 0;
    while d < 2 {
        let mut s = 0;
        while s < 16 {
            let mut n = 1;
            while n < 16 {
                let pit = if d == 0 {
                    (s + n) % 16
                } else {
                    (s + 16 * 16 - n) % 16
                };
                m[d << 8 | s << 4 | n] = m[d << 8 | s << 4 | (n - 1)] | (1u128 << (8 * pit));
                n += 1;
            }
            s += 1;
        }
        d += 1;
    }
    m
}

const ONES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// `CLEAR[i]`: every byte but pit i's.
static CLEAR: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = !(0xFFu128 << (8 * i));
        i += 1;
    }
    t
};

#[inline(always)]
fn get(r: u128, i: usize) -> u8 {
    (r >> (8 * i)) as u8
}

#[inline(always)]
fn front_empty128(r: u128) -> bool {
    r as u64 == 0
}

pub(crate) fn to_u128(ring: &[u8; 16]) -> u128 {
    u128::from_le_bytes(*ring)
}

pub(crate) fn to_bytes(r: u128) -> [u8; 16] {
    r.to_le_bytes()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Lift,
    Tax,
    Capture,
}

/// How a run of the executor ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum End {
    /// A real end of the move, with its `stop` reason.
    Stop(StopReason),
    /// The mover's front row was empty after a lap (`front_row_empty=illegal` only).
    FrontEmptied,
    /// The move outran its lap budget (see [`Exec::with_lap_limit`]); its end is unknown.
    OverBudget,
}

enum Step {
    Relay,
    ChoicePoint,
    Ended(End),
}

/// The relay state of BRD-6.1: both rings, the pit to lift, the direction, the house flags.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RelayState {
    rings: [u128; 2],
    meta: u8,
}

/// The state of a move in progress.
#[derive(Clone, Copy)]
pub(crate) struct Exec {
    pub rings: [u128; 2],
    pub hands: [u8; 2],
    pub owns: [bool; 2],
    p: usize,
    cur: u8,
    d: Dir,
    action: Action,
    capture: bool,
    namua: bool,
    masai: bool,
    kind: Kind,
    letter: Letter,
    block: Option<u8>,
    from_house: bool,
    lap: u64,
    first_cap: bool,
    min: u8,
    choice_allowed_mtaji: bool,
    first_lap_exception: bool,
    front_illegal: bool,
    /// Opponent ring index taken by the first capture.
    pub first_capture: Option<u8>,
    /// Opponent front pits captured at any point (bit per ring index).
    pub captured: u8,
    /// The first lap ended in a capture (kimasai `capture_compulsory`).
    pub first_lap_capture: bool,
    /// The move reached a house choice point.
    pub choice_point: bool,
    /// An irreversible event (capture, house loss) happened since the last relay.
    irreversible: bool,
    house_lost_first_mtaji_capture: bool,
    nointro: bool,
}

impl Exec {
    /// The part of an executor that depends only on the position and the rules, built once
    /// per position and copied for each candidate.
    #[inline(always)]
    pub(crate) fn template(pos: &Position, rules: &Rules) -> Exec {
        let p = pos.side.index();
        Exec {
            rings: [to_u128(&pos.rings[0]), to_u128(&pos.rings[1])],
            hands: pos.hands,
            owns: pos.flags.house,
            p,
            cur: 0,
            d: Dir::Cw,
            action: Action::Lift,
            capture: false,
            namua: false,
            masai: pos.variant == Variant::Kimasai,
            kind: Kind::Masai,
            letter: Letter::R,
            block: pos.flags.block.map(|b| b.index() as u8),
            from_house: false,
            lap: 0,
            first_cap: true,
            min: rules.house_functional_min,
            choice_allowed_mtaji: rules.mtaji_house_stop,
            first_lap_exception: rules.takasia_house_first_lap_exception,
            front_illegal: rules.front_row_empty == FrontRowEmpty::Illegal,
            first_capture: None,
            captured: 0,
            first_lap_capture: false,
            choice_point: false,
            irreversible: false,
            house_lost_first_mtaji_capture: rules.house_lost_at == HouseLostAt::FirstMtajiCapture,
            nointro: pos.flags.nointro,
        }
    }

    /// KIS-13 `execute`, up to the first action: stage-based house loss and the hand seed.
    #[inline(always)]
    fn start<S: EventSink>(tpl: &Exec, c: Candidate, sink: &mut S) -> Exec {
        let mut ex = *tpl;
        let p = ex.p;
        let side = Side::from_index(p);
        let phase2 = ex.hands == [0, 0];
        let r = c.pit.index();
        let (namua, capture) = match c.kind {
            Kind::NamuaCapture => (true, true),
            Kind::NamuaTakasa | Kind::NamuaTax => (true, false),
            Kind::MtajiCapture => (false, true),
            Kind::MtajiTakasa => (false, false),
            Kind::Masai => (false, phase2),
        };
        if c.kind == Kind::MtajiCapture && ex.house_lost_first_mtaji_capture {
            for s in Side::BOTH {
                if ex.owns[s.index()] {
                    ex.owns[s.index()] = false;
                    sink.event(Event::HouseLost(s));
                }
            }
        }
        ex.from_house = !ex.masai && r == 4 && ex.owns[p];
        let place = if ex.masai {
            !phase2 && ex.hands[p] > 0 && !ex.nointro
        } else {
            namua
        };
        if place {
            ex.hands[p] -= 1;
            ex.rings[p] += 1u128 << (8 * r);
            sink.event(Event::Place(c.pit.name(side)));
        }
        ex.action = match c.kind {
            Kind::NamuaCapture => Action::Capture,
            Kind::NamuaTax => Action::Tax,
            _ => Action::Lift,
        };
        ex.d = if ex.masai {
            Dir::Cw
        } else {
            c.letter.dir_from(c.pit)
        };
        ex.cur = r as u8;
        ex.capture = capture;
        ex.namua = namua;
        ex.kind = c.kind;
        ex.letter = c.letter;
        ex
    }

    /// The end of the run, seen from the mover.
    fn ended(&self) -> Ended {
        let (p, o) = (self.p, 1 - self.p);
        Ended {
            h: to_bytes(self.rings[p]),
            o: to_bytes(self.rings[o]),
            owns: [self.owns[p], self.owns[o]],
            hand: self.hands[p],
            first_capture: self.first_capture,
            captured: self.captured,
            first_lap_capture: self.first_lap_capture,
            choice_point: self.choice_point,
        }
    }

    #[inline]
    fn side(&self) -> Side {
        Side::from_index(self.p)
    }

    #[inline]
    fn relay_state(&self) -> RelayState {
        RelayState {
            rings: self.rings,
            meta: self.cur
                | ((self.d == Dir::Cw) as u8) << 4
                | (self.owns[0] as u8) << 5
                | (self.owns[1] as u8) << 6,
        }
    }

    /// Sows laps until the move ends, reaches a relay (the pit to lift is `cur`), or reaches
    /// the house choice point (KIS-6.3).
    #[inline(always)]
    fn next<S: EventSink>(&mut self, sink: &mut S) -> Step {
        let p = self.p;
        let o = 1 - p;
        let side = self.side();
        loop {
            let n;
            let was_capture = self.action == Action::Capture;
            match self.action {
                Action::Capture => {
                    // KIS-6.4, KIS-6.5 (entry kichwa and direction); KIM-7.2 (entry at h).
                    let entry;
                    if self.masai {
                        entry = self.cur;
                    } else {
                        self.d = if self.cur <= 1 {
                            Dir::Cw
                        } else if self.cur >= 6 {
                            Dir::Ccw
                        } else if self.kind == Kind::NamuaCapture && self.first_cap {
                            if self.letter == Letter::L {
                                Dir::Cw
                            } else {
                                Dir::Ccw
                            }
                        } else {
                            self.d
                        };
                        entry = if self.d == Dir::Cw { 0 } else { 7 };
                    }
                    self.first_cap = false;
                    let t = 7 - self.cur;
                    if self.first_capture.is_none() {
                        self.first_capture = Some(t);
                    }
                    self.captured |= 1 << t;
                    self.irreversible = true;
                    n = get(self.rings[o], t as usize);
                    self.rings[o] &= !(0xFFu128 << (8 * t as u32));
                    sink.event(Event::Capture(Pit::from_index(t).name(side.other()), n));
                    if !self.masai && t == 4 && self.owns[o] {
                        self.owns[o] = false;
                        sink.event(Event::HouseLost(side.other()));
                    }
                    sink.event(Event::Enter(Pit::from_index(entry).name(side)));
                    self.cur = (entry + 16 - self.d.offset()) & 15;
                }
                Action::Tax => {
                    n = 2;
                    self.rings[p] -= 2u128 << (8 * self.cur as u32);
                    sink.event(Event::Tax(Pit::from_index(self.cur).name(side)));
                }
                Action::Lift => {
                    let c = self.cur as usize;
                    n = get(self.rings[p], c);
                    self.rings[p] &= !(0xFFu128 << (8 * c));
                    sink.event(Event::Lift(Pit::from_index(self.cur).name(side), n));
                    if !self.masai && c == 4 && self.owns[p] {
                        self.owns[p] = false;
                        self.irreversible = true;
                        sink.event(Event::HouseLost(side));
                    }
                }
            }
            self.sow(n, sink);
            self.lap += 1;
            let h = self.cur as usize;
            if self.front_illegal && front_empty128(self.rings[p]) {
                return Step::Ended(End::FrontEmptied);
            }
            // KIS-6.3 / KIM-7.1, first rule that fits.
            if was_capture && front_empty128(self.rings[o]) {
                return Step::Ended(End::Stop(StopReason::FrontRow));
            }
            let here = get(self.rings[p], h);
            if here == 1 {
                return Step::Ended(End::Stop(StopReason::Empty));
            }
            if self.capture && h < 8 && get(self.rings[o], 7 - h) > 0 {
                if self.lap == 1 {
                    self.first_lap_capture = true;
                }
                self.action = Action::Capture;
                continue;
            }
            self.action = Action::Lift;
            if !self.masai {
                let house = h == 4 && self.owns[p] && here >= self.min;
                if self.capture && house && (self.namua || self.choice_allowed_mtaji) {
                    self.choice_point = true;
                    return Step::ChoicePoint;
                } else if !self.capture && self.namua && house {
                    return Step::Ended(End::Stop(StopReason::House));
                } else if self.block == Some(h as u8)
                    && !(self.lap == 1 && self.from_house && self.first_lap_exception)
                {
                    return Step::Ended(End::Stop(StopReason::Block));
                }
            }
            return Step::Relay;
        }
    }

    /// One lap of `n` seeds from `cur` in direction `d` (BRD-5.2, BRD-5.3, BRD-5.4).
    #[inline(always)]
    fn sow<S: EventSink>(&mut self, n: u8, sink: &mut S) {
        let off = self.d.offset();
        if S::ENABLED {
            let side = Side::from_index(self.p);
            let mut c = self.cur;
            for _ in 0..n {
                c = (c + off) & 15;
                self.rings[self.p] += 1u128 << (8 * c as u32);
                sink.event(Event::Sow(Pit::from_index(c).name(side)));
            }
            self.cur = c;
        } else {
            let i = lap_index(self.d == Dir::Ccw, self.cur as usize, n);
            self.rings[self.p] += ONES * (n >> 4) as u128 + MASKS[i];
            self.cur = (self.cur + off.wrapping_mul(n & 15)) & 15;
        }
    }
}

/// The end of a run, seen from the mover: the board as the move left it and what the filters
/// of BRD-7.1 (steps 4 and 5) read. The after-move procedure turns it into a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Ended {
    /// The mover's ring.
    pub h: [u8; 16],
    /// The opponent's ring.
    pub o: [u8; 16],
    /// House ownership: mover, opponent.
    pub owns: [bool; 2],
    /// Seeds left in the mover's hand.
    pub hand: u8,
    /// Opponent ring index taken by the first capture.
    pub first_capture: Option<u8>,
    /// Opponent front pits captured at any point (bit per ring index).
    pub captured: u8,
    /// The first lap ended in a capture (kimasai `capture_compulsory`).
    pub first_lap_capture: bool,
    /// The move reached a house choice point (KIS-7.5).
    pub choice_point: bool,
}

/// Runs the plain executor to the end of the move. A relay state equal to the reference (the
/// first relay state after the last irreversible event) makes the move never-ending; see the
/// module comment. At a choice point the move stops, or with `safari` continues (KIS-7.5).
fn drive<S: EventSink>(ex: &mut Exec, safari: bool, sink: &mut S) -> End {
    let mut reference: Option<RelayState> = None;
    loop {
        match ex.next(sink) {
            Step::Ended(end) => {
                if let End::Stop(r) = end {
                    sink.event(Event::Stop(r));
                }
                return end;
            }
            Step::ChoicePoint if !safari => {
                sink.event(Event::Stop(StopReason::House));
                return End::Stop(StopReason::House);
            }
            Step::ChoicePoint => sink.event(Event::Safari),
            Step::Relay => {}
        }
        // A relay (or a safari, which relays): the BRD-6.1 state, before the lift.
        let st = ex.relay_state();
        // BRD-6.2: a repeat of the reference (see the module comment) is never-ending.
        match reference {
            Some(r) if !ex.irreversible => {
                if r == st {
                    sink.event(Event::Stop(StopReason::NeverEnding));
                    return End::Stop(StopReason::NeverEnding);
                }
            }
            _ => {
                ex.irreversible = false;
                reference = Some(st);
            }
        }
    }
}

/// Executes one move (`safari` selects the `+` move) with the plain executor and reports its
/// events.
pub(crate) fn run_with_events<S: EventSink>(
    pos: &Position,
    rules: &Rules,
    c: Candidate,
    safari: bool,
    sink: &mut S,
) -> (Ended, End) {
    let mut ex = Exec::start(&Exec::template(pos, rules), c, sink);
    let end = drive(&mut ex, safari, sink);
    (ex.ended(), end)
}

/// What the fast executor needs of a position and its rules, built once per position and
/// shared by its candidates. Rings are seen from the mover.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    h: [u8; 16],
    o: [u8; 16],
    owns: [bool; 2],
    hand: u8,
    phase2: bool,
    masai: bool,
    /// The blocked pit's ring index, 16 if none (KIS-8.4).
    block: usize,
    min: u8,
    choice_allowed_mtaji: bool,
    first_lap_exception: bool,
    front_illegal: bool,
    house_lost_first_mtaji_capture: bool,
    nointro: bool,
    /// The run gives up with [`End::OverBudget`] after this many laps (`u64::MAX`: never).
    lap_limit: u64,
}

impl Ctx {
    /// The context of `pos` under `rules`, without a lap budget.
    #[inline]
    pub(crate) fn new(pos: &Position, rules: &Rules) -> Ctx {
        let p = pos.side.index();
        let o = 1 - p;
        Ctx {
            h: pos.rings[p],
            o: pos.rings[o],
            owns: [pos.flags.house[p], pos.flags.house[o]],
            hand: pos.hands[p],
            phase2: pos.hands == [0, 0],
            masai: pos.variant == Variant::Kimasai,
            block: pos.flags.block.map_or(16, |b| b.index()),
            min: rules.house_functional_min,
            choice_allowed_mtaji: rules.mtaji_house_stop,
            first_lap_exception: rules.takasia_house_first_lap_exception,
            front_illegal: rules.front_row_empty == FrontRowEmpty::Illegal,
            house_lost_first_mtaji_capture: rules.house_lost_at == HouseLostAt::FirstMtajiCapture,
            nointro: pos.flags.nointro,
            lap_limit: u64::MAX,
        }
    }

    /// The same context with a lap budget: runs that need more laps end with
    /// [`End::OverBudget`]. For callers that would rather not know than wait (a search).
    #[inline]
    pub(crate) fn with_lap_limit(mut self, laps: u64) -> Ctx {
        self.lap_limit = laps;
        self
    }
}

/// The fast executor: runs candidate `c` to its end without events, continuing at a house
/// choice point (the `+` move) after showing `on_choice` the move that stops there.
///
/// The same rules as [`Exec::start`], [`Exec::next`] and [`drive`], in the same order, with
/// the state in locals. Keep the two in step: the unit tests compare them.
#[inline(always)]
fn fast(x: &Ctx, c: Candidate, on_choice: impl FnMut(&Ended)) -> (Ended, End) {
    // One copy per kind, so that the kind's branches are decided at compile time.
    match c.kind {
        // A namua capture's letter fixes its first entry and direction (KIS-6.5): one copy
        // per letter too.
        Kind::NamuaCapture if c.letter == Letter::L => {
            let c = Candidate {
                letter: Letter::L,
                ..c
            };
            fast_kind::<0>(x, c, on_choice)
        }
        Kind::NamuaCapture => {
            let c = Candidate {
                letter: Letter::R,
                ..c
            };
            fast_kind::<0>(x, c, on_choice)
        }
        Kind::NamuaTakasa => fast_kind::<1>(x, c, on_choice),
        Kind::NamuaTax => fast_kind::<2>(x, c, on_choice),
        Kind::MtajiCapture => fast_kind::<3>(x, c, on_choice),
        Kind::MtajiTakasa => fast_kind::<4>(x, c, on_choice),
        Kind::Masai => fast_kind::<5>(x, c, on_choice),
    }
}

/// The kind numbered `k` by [`fast`].
const fn kind_of(k: u8) -> Kind {
    match k {
        0 => Kind::NamuaCapture,
        1 => Kind::NamuaTakasa,
        2 => Kind::NamuaTax,
        3 => Kind::MtajiCapture,
        4 => Kind::MtajiTakasa,
        _ => Kind::Masai,
    }
}

/// [`fast`] for candidates of kind `kind_of(K)`.
#[inline(always)]
fn fast_kind<const K: u8>(
    x: &Ctx,
    c: Candidate,
    mut on_choice: impl FnMut(&Ended),
) -> (Ended, End) {
    let kind = kind_of(K);
    // Kimasai candidates are all of kind `Masai`, and only they.
    let masai = kind == Kind::Masai;
    debug_assert_eq!(masai, x.masai);
    let mut h: [u8; 16] = x.h;
    let mut o: [u8; 16] = x.o;
    let mut owns_p = x.owns[0];
    let mut owns_o = x.owns[1];
    let mut hand = x.hand;
    let r = c.pit.index() & 15;
    // KIS-13 `execute`: the kind fixes namua/mtaji and capture/takasa; a kimasai move
    // captures in phase 2 only (KIM-7).
    let (namua, capture) = match kind {
        Kind::NamuaCapture => (true, true),
        Kind::NamuaTakasa | Kind::NamuaTax => (true, false),
        Kind::MtajiCapture => (false, true),
        Kind::MtajiTakasa => (false, false),
        Kind::Masai => (false, x.phase2),
    };
    // KIS-7.2 with house_lost_at=first_mtaji_capture: both houses go as the capture starts.
    if kind == Kind::MtajiCapture && x.house_lost_first_mtaji_capture {
        owns_p = false;
        owns_o = false;
    }
    let from_house = !masai && r == 4 && owns_p;
    // KIS-4 (a namua move places a seed), KIM-5.1 (a cow unless nointro).
    let place = if masai {
        !x.phase2 && hand > 0 && !x.nointro
    } else {
        namua
    };
    if place {
        hand -= 1;
        h[r] += 1;
    }
    let mut action = match kind {
        Kind::NamuaCapture => Action::Capture,
        Kind::NamuaTax => Action::Tax,
        _ => Action::Lift,
    };
    let mut ccw = !masai && c.letter.dir_from(c.pit) == Dir::Ccw;
    let mut cur = r;
    let mut first_cap = true;
    let mut lap = 0u64;
    let mut first_capture = None;
    let mut captured = 0u8;
    let mut first_lap_capture = false;
    let mut choice_point = false;
    // BRD-6.2: the reference relay state; `fresh` while there is none since the last
    // irreversible event (see the module comment for why the mover's ring and the pit suffice).
    let mut fresh = true;
    let mut ref_h = [0u8; 16];
    let mut ref_cur = 0usize;
    let end = loop {
        let was_capture = action == Action::Capture;
        let n = match action {
            Action::Capture => {
                // KIS-6.4, KIS-6.5 (entry kichwa and direction); KIM-7.2 (entry at h).
                let entry = if masai {
                    cur
                } else {
                    ccw = if cur <= 1 {
                        false
                    } else if cur >= 6 {
                        true
                    } else if kind == Kind::NamuaCapture && first_cap {
                        c.letter == Letter::R
                    } else {
                        ccw
                    };
                    if ccw {
                        7
                    } else {
                        0
                    }
                };
                first_cap = false;
                let t = 7 - cur;
                first_capture.get_or_insert(t as u8);
                captured |= 1 << t;
                fresh = true;
                let n = o[t];
                o[t] = 0;
                // KIS-7.2: a captured house is lost.
                if !masai && t == 4 {
                    owns_o = false;
                }
                // Sowing starts at the entry pit: one step back from it.
                cur = (entry + if ccw { 1 } else { 15 }) & 15;
                n
            }
            Action::Tax => {
                h[cur] -= 2;
                2
            }
            Action::Lift => {
                let n = h[cur];
                h[cur] = 0;
                // KIS-7.2: an emptied house is lost.
                if !masai && cur == 4 && owns_p {
                    owns_p = false;
                    fresh = true;
                }
                n
            }
        };
        // BRD-5.2 to BRD-5.4: one lap of n seeds.
        // The ring is added to as a u128, one byte per pit: no pit reaches 256 seeds, so no
        // carry crosses pits.
        let i = lap_index(ccw, cur, n);
        let mut add = MASKS[i];
        if n > 15 {
            add += ONES * (n >> 4) as u128;
        }
        h = (u128::from_le_bytes(h) + add).to_le_bytes();
        // The next pit from arithmetic, not from a table: a load here would lengthen the
        // chain of loads from one lap to the next.
        let rem = (n & 15) as usize;
        cur = (cur + if ccw { 16 - rem } else { rem }) & 15;
        lap += 1;
        // BRD-7.1 with front_row_empty=illegal.
        if x.front_illegal && front_empty(&h) {
            break End::FrontEmptied;
        }
        // KIS-6.3 / KIM-7.1, first rule that fits.
        if was_capture && front_empty(&o) {
            break End::Stop(StopReason::FrontRow);
        }
        let here = h[cur];
        if here == 1 {
            break End::Stop(StopReason::Empty);
        }
        if capture && cur < 8 && o[7 - cur] > 0 {
            if lap == 1 {
                first_lap_capture = true;
            }
            action = Action::Capture;
            continue;
        }
        action = Action::Lift;
        if !masai {
            let house = cur == 4 && owns_p && here >= x.min;
            if capture && house && (namua || x.choice_allowed_mtaji) {
                // KIS-7.5: the move that stops here, then the safari goes on.
                choice_point = true;
                on_choice(&Ended {
                    h,
                    o,
                    owns: [owns_p, owns_o],
                    hand,
                    first_capture,
                    captured,
                    first_lap_capture,
                    choice_point,
                });
            } else if !capture && namua && house {
                break End::Stop(StopReason::House);
            } else if cur == x.block && !(lap == 1 && from_house && x.first_lap_exception) {
                // KIS-8.6, KIS-8.7.
                break End::Stop(StopReason::Block);
            }
        }
        // A relay.
        if lap >= x.lap_limit {
            break End::OverBudget;
        }
        if fresh {
            fresh = false;
            ref_h = h;
            ref_cur = cur;
        } else if h == ref_h && cur == ref_cur {
            break End::Stop(StopReason::NeverEnding);
        }
        if !capture {
            // Without captures the relays until the owned house is lifted are all alike:
            // run them in registers (never-ending cycles can take millions of laps).
            let house_owned = !masai && owns_p;
            let mut r = u128::from_le_bytes(h);
            let reference = (u128::from_le_bytes(ref_h), ref_cur);
            let end = takasa_relays(
                x,
                ccw,
                namua,
                house_owned,
                &mut r,
                &mut cur,
                &mut lap,
                reference,
            );
            h = r.to_le_bytes();
            if let Some(end) = end {
                break end;
            }
        }
    };
    let ended = Ended {
        h,
        o,
        owns: [owns_p, owns_o],
        hand,
        first_capture,
        captured,
        first_lap_capture,
        choice_point,
    };
    (ended, end)
}

/// The relays of a move that cannot capture, from a relay already compared with the BRD-6.2
/// reference `(ring, pit)`, with the mover's ring `r` in registers: the same checks as
/// [`fast_kind`] in the same order. Returns the end of the move, or `None` at a relay whose
/// next lap lifts the owned house (an irreversible event, left to the caller). Past the first
/// lap, so the first-lap exception of KIS-8.7 never applies here.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn takasa_relays(
    x: &Ctx,
    ccw: bool,
    namua: bool,
    house_owned: bool,
    r: &mut u128,
    cur: &mut usize,
    lap: &mut u64,
    reference: (u128, usize),
) -> Option<End> {
    let (ref_r, ref_cur) = reference;
    let mut h = *r;
    let mut c = *cur;
    let mut laps = *lap;
    let end = loop {
        if house_owned && c == 4 {
            break None;
        }
        let n = get(h, c);
        h &= CLEAR[c];
        let i = lap_index(ccw, c, n);
        let mut add = MASKS[i];
        if n > 15 {
            add += ONES * (n >> 4) as u128;
        }
        h += add;
        let rem = (n & 15) as usize;
        c = (c + if ccw { 16 - rem } else { rem }) & 15;
        laps += 1;
        if x.front_illegal && front_empty128(h) {
            break Some(End::FrontEmptied);
        }
        let here = get(h, c);
        if here == 1 {
            break Some(End::Stop(StopReason::Empty));
        }
        if house_owned && c == 4 && namua && here >= x.min {
            break Some(End::Stop(StopReason::House));
        }
        if c == x.block {
            break Some(End::Stop(StopReason::Block));
        }
        if laps >= x.lap_limit {
            break Some(End::OverBudget);
        }
        if h == ref_r && c == ref_cur {
            break Some(End::Stop(StopReason::NeverEnding));
        }
    };
    *r = h;
    *cur = c;
    *lap = laps;
    end
}

/// The runs of one candidate: the move run to its end (the `+` move when a choice point was
/// reached) and the move that stopped at the choice point, if one was reached.
#[derive(Clone, Copy)]
pub(crate) struct Run {
    pub main: Ended,
    pub end: End,
    pub stopped: Option<Ended>,
}

/// Executes a candidate with the fast executor.
#[inline]
pub(crate) fn run(x: &Ctx, c: Candidate) -> Run {
    let mut stopped = None;
    let (main, end) = fast(x, c, |e| stopped = Some(*e));
    Run { main, end, stopped }
}

/// The number of legal moves a candidate gives (0, 1 or 2) before the filters of BRD-7.1
/// steps 4 and 5, without keeping the runs.
#[inline]
pub(crate) fn count(x: &Ctx, c: Candidate, removed: impl Fn(End) -> bool) -> usize {
    // A move stopped at a choice point ended no lap with an empty front row (that would have
    // ended it earlier) and is not never-ending: it is always legal.
    let mut n = 0;
    let (_, end) = fast(x, c, |_| n += 1);
    n + !removed(end) as usize
}

/// [`count`] summed over `cands`, the candidates of one position.
///
/// The candidates of a position are all of one kind (KIS-4, KIS-5: captures exclude the
/// other kinds; kimasai has one kind), so the kind is dispatched once per position and the
/// loop runs the executor made for it; a candidate of another kind still gets its own.
#[inline]
pub(crate) fn count_all(x: &Ctx, cands: &[Candidate], removed: impl Fn(End) -> bool) -> usize {
    let Some(first) = cands.first() else {
        return 0;
    };
    match first.kind {
        Kind::NamuaCapture => count_kind::<0>(x, cands, removed),
        Kind::NamuaTakasa => count_kind::<1>(x, cands, removed),
        Kind::NamuaTax => count_kind::<2>(x, cands, removed),
        Kind::MtajiCapture => count_kind::<3>(x, cands, removed),
        Kind::MtajiTakasa => count_kind::<4>(x, cands, removed),
        Kind::Masai => count_kind::<5>(x, cands, removed),
    }
}

/// [`count_all`] for candidates of kind `kind_of(K)`.
#[inline(always)]
fn count_kind<const K: u8>(x: &Ctx, cands: &[Candidate], removed: impl Fn(End) -> bool) -> usize {
    let mut total = 0;
    for &c in cands {
        total += if c.kind == kind_of(K) {
            count_one::<K>(x, c, &removed)
        } else {
            count(x, c, &removed)
        };
    }
    total
}

/// [`count`] for a candidate of kind `kind_of(K)`.
#[inline(always)]
fn count_one<const K: u8>(x: &Ctx, c: Candidate, removed: &impl Fn(End) -> bool) -> usize {
    if first_lap_ends::<K>(x, c) {
        return 1;
    }
    let mut n = 0;
    let (_, end) = fast_kind::<K>(x, c, |_| n += 1);
    n + !removed(end) as usize
}

/// [`count_all`] for a position whose candidates are the namua captures from the front pits
/// `caps` (see [`crate::movegen::namua_captures`]), without listing them first.
#[inline]
pub(crate) fn count_namua_captures(x: &Ctx, caps: u8, removed: impl Fn(End) -> bool) -> usize {
    let mut total = 0;
    let mut caps = caps;
    while caps != 0 {
        let r = caps.trailing_zeros() as u8;
        caps &= caps - 1;
        let c = |letter| Candidate {
            pit: Pit::from_index(r),
            letter,
            kind: Kind::NamuaCapture,
        };
        // KIS-4.2 as in `movegen::namua_capture_letters`, unrolled: L from A1..A6, R from
        // A3..A8.
        if r < 6 {
            total += count_one::<0>(x, c(Letter::L), &removed);
        }
        if r >= 2 {
            total += count_one::<0>(x, c(Letter::R), &removed);
        }
    }
    total
}

/// Whether candidate `c` (of kind `kind_of(K)`) ends in its first lap, read from the board
/// without running it: the lap's last pit is empty before the lap, so it holds one seed after
/// it (BRD-5.5) and the move ends there. Such a move reaches no choice point and repeats no
/// relay state, and its one lap left the front row occupied (checked with
/// `front_row_empty=illegal`): it gives exactly one legal move (BRD-7.1). `false` means
/// "unknown", never "does not end".
#[inline(always)]
fn first_lap_ends<const K: u8>(x: &Ctx, c: Candidate) -> bool {
    let kind = kind_of(K);
    let r = c.pit.index() & 15;
    let (n, ccw, first) = match kind {
        // Its first lap ends where a capture is made (KIS-5.2).
        Kind::MtajiCapture => return false,
        // KIS-6.2, KIS-6.4, KIS-6.5: the seeds of the facing pit, sown from the entry kichwa
        // (the entry pit takes the first seed, BRD-5.3). The seed placed in r (KIS-6.1) does
        // not matter unless the lap ends in r, and r is not empty then.
        Kind::NamuaCapture => {
            let ccw = if r <= 1 {
                false
            } else if r >= 6 {
                true
            } else {
                c.letter == Letter::R
            };
            let n = x.o[7 - (r & 7)];
            let entry = if ccw { 7 } else { 0 };
            // One step back from the entry, like a lap lifted there.
            (n, ccw, (entry + if ccw { 1 } else { 15 }) & 15)
        }
        _ => {
            // A lap that empties the pit it is lifted from may leave the front row empty.
            if x.front_illegal {
                return false;
            }
            let ccw = kind != Kind::Masai && c.letter.dir_from(c.pit) == Dir::Ccw;
            let n = match kind {
                // KIS-4.5: two seeds taxed from the house, which keeps the rest.
                Kind::NamuaTax => 2,
                // KIS-6.1: a namua move first places a seed in r.
                Kind::NamuaTakasa => x.h[r].wrapping_add(1),
                // KIM-5.1: a cow is placed in r unless nointro or phase 2.
                Kind::Masai => x.h[r].wrapping_add((!x.phase2 && x.hand > 0 && !x.nointro) as u8),
                _ => x.h[r],
            };
            (n, ccw, r)
        }
    };
    // A lap of 1 to 15 seeds drops one seed into each of n distinct pits other than its
    // start; none of them is r (which is never empty here) unless the lap starts in r.
    if n == 0 || n > 15 {
        return false;
    }
    let n = n as usize;
    let last = if ccw { first + 16 - n } else { first + n } & 15;
    last != r && x.h[last] == 0
}

/// Calls `f` with every run end of every candidate of `cands` (the candidates of one
/// position), without a lap budget: the move stopped at a choice point (with
/// `End::Stop(StopReason::House)`) as the run reaches it, then the run to its end. Nothing is
/// removed: `f` sees every end. Dispatches the kind once, like [`count_all`].
#[inline]
pub(crate) fn for_each_end(
    x: &Ctx,
    cands: &[Candidate],
    mut f: impl FnMut(Candidate, &Ended, End),
) {
    let Some(first) = cands.first() else {
        return;
    };
    match first.kind {
        Kind::NamuaCapture => ends_kind::<0>(x, cands, &mut f),
        Kind::NamuaTakasa => ends_kind::<1>(x, cands, &mut f),
        Kind::NamuaTax => ends_kind::<2>(x, cands, &mut f),
        Kind::MtajiCapture => ends_kind::<3>(x, cands, &mut f),
        Kind::MtajiTakasa => ends_kind::<4>(x, cands, &mut f),
        Kind::Masai => ends_kind::<5>(x, cands, &mut f),
    }
}

/// [`for_each_end`] for a position whose candidates are the namua captures from the front
/// pits `caps` (see [`crate::movegen::namua_captures`]), without listing them first.
#[inline]
pub(crate) fn for_each_end_namua_captures(
    x: &Ctx,
    caps: u8,
    mut f: impl FnMut(Candidate, &Ended, End),
) {
    let mut caps = caps;
    while caps != 0 {
        let r = caps.trailing_zeros() as u8;
        caps &= caps - 1;
        let mut one = |letter| {
            let c = Candidate {
                pit: Pit::from_index(r),
                letter,
                kind: Kind::NamuaCapture,
            };
            let (main, end) = fast_kind::<0>(x, c, |e| f(c, e, End::Stop(StopReason::House)));
            f(c, &main, end);
        };
        // Unrolled like `count_namua_captures`.
        if r < 6 {
            one(Letter::L);
        }
        if r >= 2 {
            one(Letter::R);
        }
    }
}

/// [`for_each_end`] for candidates of kind `kind_of(K)`.
#[inline(always)]
fn ends_kind<const K: u8>(
    x: &Ctx,
    cands: &[Candidate],
    f: &mut impl FnMut(Candidate, &Ended, End),
) {
    for &c in cands {
        let stop = |e: &Ended| f(c, e, End::Stop(StopReason::House));
        let (main, end) = if c.kind == kind_of(K) {
            fast_kind::<K>(x, c, stop)
        } else {
            fast(x, c, stop)
        };
        f(c, &main, end);
    }
}

/// Calls `f` with each candidate of `cands` (the candidates of one position) and its run, in
/// order, until `f` returns `false`. Dispatches the kind once, like [`count_all`].
#[inline]
pub(crate) fn run_all(x: &Ctx, cands: &[Candidate], f: impl FnMut(Candidate, &Run) -> bool) {
    let Some(first) = cands.first() else {
        return;
    };
    match first.kind {
        Kind::NamuaCapture => run_kind::<0>(x, cands, f),
        Kind::NamuaTakasa => run_kind::<1>(x, cands, f),
        Kind::NamuaTax => run_kind::<2>(x, cands, f),
        Kind::MtajiCapture => run_kind::<3>(x, cands, f),
        Kind::MtajiTakasa => run_kind::<4>(x, cands, f),
        Kind::Masai => run_kind::<5>(x, cands, f),
    }
}

/// [`run_all`] for candidates of kind `kind_of(K)`.
#[inline(always)]
fn run_kind<const K: u8>(x: &Ctx, cands: &[Candidate], mut f: impl FnMut(Candidate, &Run) -> bool) {
    for &c in cands {
        let mut stopped = None;
        let (main, end) = if c.kind == kind_of(K) {
            fast_kind::<K>(x, c, |e| stopped = Some(*e))
        } else {
            fast(x, c, |e| stopped = Some(*e))
        };
        if !f(c, &Run { main, end, stopped }) {
            return;
        }
    }
}
