//! Move execution (KIS-6, KIM-7, BRD-5, BRD-6): one sowing core for all three games.
//!
//! [`Exec`] runs a move lap by lap and pauses at every relay and at the house choice point,
//! so that one driver can detect never-ending moves exactly (Brent's cycle finding over
//! relay states, BRD-6.2) and split a move in two at a choice point (KIS-7.5).

use crate::event::{Event, EventSink, NoEvents, StopReason};
use crate::movegen::{Candidate, Kind};
use crate::options::{FrontRowEmpty, HouseLostAt, NeverEnding};
use crate::position::{front_empty, Position};
use crate::{Dir, Letter, Pit, Rules, Side, Variant};

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
}

enum Step {
    Relay,
    ChoicePoint,
    Ended(End),
}

/// The relay state of BRD-6.1: both rings, the pit to lift, the direction, the house flags.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RelayState {
    rings: [[u8; 16]; 2],
    meta: u8,
}

/// The state of a move in progress.
#[derive(Clone)]
pub(crate) struct Exec {
    pub rings: [[u8; 16]; 2],
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
    lap: u32,
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
}

impl Exec {
    /// KIS-13 `execute`, up to the first action: stage-based house loss and the hand seed.
    fn new<S: EventSink>(pos: &Position, rules: &Rules, c: Candidate, sink: &mut S) -> Exec {
        let side = pos.side;
        let p = side.index();
        let masai = pos.variant == Variant::Kimasai;
        let mut rings = pos.rings;
        let mut hands = pos.hands;
        let mut owns = pos.flags.house;
        let phase2 = pos.hands == [0, 0];
        let r = c.pit.index();
        let (namua, capture) = match c.kind {
            Kind::NamuaCapture => (true, true),
            Kind::NamuaTakasa | Kind::NamuaTax => (true, false),
            Kind::MtajiCapture => (false, true),
            Kind::MtajiTakasa => (false, false),
            Kind::Masai => (false, phase2),
        };
        if c.kind == Kind::MtajiCapture && rules.house_lost_at == HouseLostAt::FirstMtajiCapture {
            for s in Side::BOTH {
                if owns[s.index()] {
                    owns[s.index()] = false;
                    sink.event(Event::HouseLost(s));
                }
            }
        }
        let from_house = !masai && r == 4 && owns[p];
        let place = if masai {
            !phase2 && hands[p] > 0 && !pos.flags.nointro
        } else {
            namua
        };
        if place {
            hands[p] -= 1;
            rings[p][r] += 1;
            sink.event(Event::Place(c.pit.name(side)));
        }
        let action = match c.kind {
            Kind::NamuaCapture => Action::Capture,
            Kind::NamuaTax => Action::Tax,
            _ => Action::Lift,
        };
        let d = if masai {
            Dir::Cw
        } else {
            c.letter.dir_from(c.pit)
        };
        Exec {
            rings,
            hands,
            owns,
            p,
            cur: r as u8,
            d,
            action,
            capture,
            namua,
            masai,
            kind: c.kind,
            letter: c.letter,
            block: pos.flags.block.map(|b| b.index() as u8),
            from_house,
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
    #[inline]
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
                    n = self.rings[o][t as usize];
                    self.rings[o][t as usize] = 0;
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
                    self.rings[p][self.cur as usize] -= 2;
                    sink.event(Event::Tax(Pit::from_index(self.cur).name(side)));
                }
                Action::Lift => {
                    let c = self.cur as usize;
                    n = self.rings[p][c];
                    self.rings[p][c] = 0;
                    sink.event(Event::Lift(Pit::from_index(self.cur).name(side), n));
                    if !self.masai && c == 4 && self.owns[p] {
                        self.owns[p] = false;
                        sink.event(Event::HouseLost(side));
                    }
                }
            }
            self.sow(n, sink);
            self.lap += 1;
            let h = self.cur as usize;
            if self.front_illegal && front_empty(&self.rings[p]) {
                return Step::Ended(End::FrontEmptied);
            }
            // KIS-6.3 / KIM-7.1, first rule that fits.
            if was_capture && front_empty(&self.rings[o]) {
                return Step::Ended(End::Stop(StopReason::FrontRow));
            }
            if self.rings[p][h] == 1 {
                return Step::Ended(End::Stop(StopReason::Empty));
            }
            if self.capture && h < 8 && self.rings[o][7 - h] > 0 {
                if self.lap == 1 {
                    self.first_lap_capture = true;
                }
                self.action = Action::Capture;
                continue;
            }
            self.action = Action::Lift;
            if !self.masai {
                let house = h == 4 && self.owns[p] && self.rings[p][4] >= self.min;
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
        let ring = &mut self.rings[self.p];
        let mut c = self.cur;
        if S::ENABLED {
            let side = Side::from_index(self.p);
            for _ in 0..n {
                c = (c + off) & 15;
                ring[c as usize] += 1;
                sink.event(Event::Sow(Pit::from_index(c).name(side)));
            }
        } else {
            let full = n >> 4;
            if full > 0 {
                for x in ring.iter_mut() {
                    *x += full;
                }
            }
            for _ in 0..(n & 15) {
                c = (c + off) & 15;
                ring[c as usize] += 1;
            }
        }
        self.cur = c;
    }
}

/// What to do at the house choice point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Choice {
    /// Stop there (the move without `+`).
    Stop,
    /// Continue (the `+` move).
    Safari,
    /// Both: return the stopped move beside the continued one.
    Both,
}

/// A finished run.
#[derive(Clone)]
pub(crate) struct Done {
    pub ex: Exec,
    pub end: End,
}

/// The result of executing one candidate.
pub(crate) struct Outcome {
    /// The move as run to its end (with `Choice::Both`: the `+` move when a choice point was
    /// reached, otherwise the only move).
    pub main: Done,
    /// With `Choice::Both`, the move that stopped at the choice point.
    pub stopped: Option<Done>,
}

enum Driven {
    Done(Done, Option<Done>),
    /// A relay state repeated; `lambda` is the cycle length.
    Cycle { lambda: u32 },
}

/// Runs an executor to its end, finding repeated relay states with Brent's method.
/// `stop_at`: end the move (never-ending) when the relay with this index is reached.
#[inline]
fn drive<S: EventSink>(mut ex: Exec, choice: Choice, stop_at: Option<u32>, sink: &mut S) -> Driven {
    let mut stopped = None;
    let mut tortoise: Option<RelayState> = None;
    let mut power: u32 = 1;
    let mut since: u32 = 0;
    let mut index: u32 = 0;
    loop {
        match ex.next(sink) {
            Step::Ended(end) => {
                if let End::Stop(r) = end {
                    sink.event(Event::Stop(r));
                }
                return Driven::Done(Done { ex, end }, stopped);
            }
            Step::ChoicePoint => match choice {
                Choice::Stop => {
                    sink.event(Event::Stop(StopReason::House));
                    return Driven::Done(
                        Done {
                            ex,
                            end: End::Stop(StopReason::House),
                        },
                        None,
                    );
                }
                Choice::Both => {
                    stopped = Some(Done {
                        ex: ex.clone(),
                        end: End::Stop(StopReason::House),
                    });
                }
                Choice::Safari => sink.event(Event::Safari),
            },
            Step::Relay => {}
        }
        // A relay (or a safari, which relays): BRD-6.1 state, before the lift.
        if stop_at == Some(index) {
            sink.event(Event::Stop(StopReason::NeverEnding));
            return Driven::Done(
                Done {
                    ex,
                    end: End::Stop(StopReason::NeverEnding),
                },
                stopped,
            );
        }
        if stop_at.is_none() {
            let st = ex.relay_state();
            match tortoise {
                None => tortoise = Some(st),
                Some(t) => {
                    since += 1;
                    if t == st {
                        return Driven::Cycle { lambda: since };
                    }
                    if since == power {
                        tortoise = Some(st);
                        power <<= 1;
                        since = 0;
                    }
                }
            }
        }
        index += 1;
    }
}

/// Advances `ex` to its next relay state; `None` if the move ends first.
fn next_relay(ex: &mut Exec, choice: Choice) -> Option<RelayState> {
    loop {
        match ex.next(&mut NoEvents) {
            Step::Ended(_) => return None,
            Step::ChoicePoint if choice == Choice::Stop => return None,
            Step::ChoicePoint | Step::Relay => return Some(ex.relay_state()),
        }
    }
}

/// The index of the relay at which a never-ending move stops (BRD-6.4): the first index
/// whose state occurred before, namely μ + λ.
fn first_repeat(start: &Exec, choice: Choice, lambda: u32) -> u32 {
    let mut a = start.clone();
    let mut b = start.clone();
    let mut sb = None;
    for _ in 0..=lambda {
        sb = next_relay(&mut b, choice);
    }
    let mut mu = 0;
    loop {
        let sa = next_relay(&mut a, choice);
        if sa.is_some() && sa == sb {
            return mu + lambda;
        }
        sb = next_relay(&mut b, choice);
        mu += 1;
    }
}

/// Executes a candidate without events (search, perft, legal-move generation).
pub(crate) fn run(pos: &Position, rules: &Rules, c: Candidate, choice: Choice) -> Outcome {
    let ex = Exec::new(pos, rules, c, &mut NoEvents);
    match drive(ex.clone(), choice, None, &mut NoEvents) {
        Driven::Done(main, stopped) => Outcome { main, stopped },
        Driven::Cycle { lambda } => {
            if rules.never_ending == NeverEnding::Illegal {
                // The board does not matter: the move is removed (BRD-7.1 step 3).
                return Outcome {
                    main: Done {
                        ex,
                        end: End::Stop(StopReason::NeverEnding),
                    },
                    stopped: None,
                };
            }
            // The plus branch (if any) shares the states before the choice point, so the
            // same index finds the stop of the continued move.
            let cont = if choice == Choice::Both { Choice::Safari } else { choice };
            let at = first_repeat(&ex, cont, lambda);
            let stopped = if choice == Choice::Both {
                match drive(ex.clone(), Choice::Stop, None, &mut NoEvents) {
                    Driven::Done(d, _) if d.ex.choice_point => Some(d),
                    _ => None,
                }
            } else {
                None
            };
            match drive(ex, cont, Some(at), &mut NoEvents) {
                Driven::Done(main, _) => Outcome { main, stopped },
                Driven::Cycle { .. } => unreachable!("a run with stop_at never looks for cycles"),
            }
        }
    }
}

/// Executes one move (`safari` selects the `+` move) and reports its events.
pub(crate) fn run_with_events<S: EventSink>(
    pos: &Position,
    rules: &Rules,
    c: Candidate,
    safari: bool,
    sink: &mut S,
) -> Done {
    let choice = if safari { Choice::Safari } else { Choice::Stop };
    // First find out, silently, whether and where the move stops as never-ending.
    let probe = Exec::new(pos, rules, c, &mut NoEvents);
    let stop_at = match drive(probe.clone(), choice, None, &mut NoEvents) {
        Driven::Done(..) => None,
        Driven::Cycle { lambda } => Some(first_repeat(&probe, choice, lambda)),
    };
    let ex = Exec::new(pos, rules, c, sink);
    match drive(ex, choice, stop_at.or(Some(u32::MAX)), sink) {
        Driven::Done(d, _) => d,
        Driven::Cycle { .. } => unreachable!("a run with stop_at never looks for cycles"),
    }
}
