//! The event stream of a move (CLI-5.1): traces, animation and records all read it.

use crate::{Side, Square};
use std::fmt;

/// Why a move ended (`stop <reason>`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StopReason {
    /// The last seed fell into an empty pit (BRD-5.5).
    Empty,
    /// The house stopped the move (KIS-7.4), or the mover stopped at a choice point (KIS-7.5).
    House,
    /// A lap ended in the blocked pit (KIS-8.6).
    Block,
    /// A capture emptied the opponent's front row (BRD-7.2).
    FrontRow,
    /// A relay state repeated (BRD-6.4).
    NeverEnding,
}

impl StopReason {
    /// The reason as written in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Empty => "empty",
            StopReason::House => "house",
            StopReason::Block => "block",
            StopReason::FrontRow => "front_row",
            StopReason::NeverEnding => "never_ending",
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// The loser's front row is empty.
    FrontRow,
    /// The loser has no legal move.
    NoMoves,
    /// The loser played a never-ending move (`never_ending=mover_loses`).
    NeverEnding,
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    /// A never-ending move was played (`never_ending=draw`).
    NeverEnding,
    /// The ply cap was reached (`max_plies`).
    MaxPlies,
    /// The same position occurred a third time (BRD-7.5). Never in a move's own events.
    Repetition,
}

impl WinReason {
    /// As written in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            WinReason::FrontRow => "front_row",
            WinReason::NoMoves => "no_moves",
            WinReason::NeverEnding => "never_ending",
        }
    }
}

impl DrawReason {
    /// As written in traces.
    pub fn as_str(self) -> &'static str {
        match self {
            DrawReason::NeverEnding => "never_ending",
            DrawReason::MaxPlies => "max_plies",
            DrawReason::Repetition => "repetition",
        }
    }
}

/// One step of a move, in the order it happens (CLI-5.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Event {
    /// `house-lost S|N`.
    HouseLost(Side),
    /// `place <pit>`: one seed from the hand.
    Place(Square),
    /// `lift <pit> <n>`.
    Lift(Square, u8),
    /// `tax <pit> 2`.
    Tax(Square),
    /// `capture <pit> <n>`: from the opponent.
    Capture(Square, u8),
    /// `enter <pit>`: the entry lap of captured seeds starts here.
    Enter(Square),
    /// `sow <pit>`: one seed dropped.
    Sow(Square),
    /// `safari`: the mover continues at a house choice point.
    Safari,
    /// `stop <reason>`.
    Stop(StopReason),
    /// `must <pit>` (after the move).
    Must(Square),
    /// `block <pit>` (after the move).
    Block(Square),
    /// `win S|N <reason>`.
    Win(Side, WinReason),
    /// `draw <reason>`.
    Draw(DrawReason),
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::HouseLost(s) => write!(f, "house-lost {s}"),
            Event::Place(p) => write!(f, "place {p}"),
            Event::Lift(p, n) => write!(f, "lift {p} {n}"),
            Event::Tax(p) => write!(f, "tax {p} 2"),
            Event::Capture(p, n) => write!(f, "capture {p} {n}"),
            Event::Enter(p) => write!(f, "enter {p}"),
            Event::Sow(p) => write!(f, "sow {p}"),
            Event::Safari => write!(f, "safari"),
            Event::Stop(r) => write!(f, "stop {}", r.as_str()),
            Event::Must(p) => write!(f, "must {p}"),
            Event::Block(p) => write!(f, "block {p}"),
            Event::Win(s, r) => write!(f, "win {s} {}", r.as_str()),
            Event::Draw(r) => write!(f, "draw {}", r.as_str()),
        }
    }
}

/// Receives the events of a move as it is executed.
///
/// Search and perft use [`NoEvents`], which the compiler removes entirely; people's tools
/// collect into a `Vec<Event>`.
pub trait EventSink {
    /// False for sinks that drop everything, so that execution can skip per-seed work.
    const ENABLED: bool = true;
    /// One event.
    fn event(&mut self, e: Event);
}

/// A sink that ignores events.
#[derive(Clone, Copy, Default, Debug)]
pub struct NoEvents;

impl EventSink for NoEvents {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl EventSink for Vec<Event> {
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}
