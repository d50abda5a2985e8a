//! Puzzle themes: what a puzzle's solution line does, read from the rules' own event stream
//! ([`bao_rules::trace`], CLI-5) of each move, never re-decided here.
//!
//! ```
//! use bao_engine::puzzle::{Goal, Puzzle};
//! use bao_engine::theme::{themes, Theme};
//! use bao_rules::{find_move, Position, Rules, Variant};
//! let rules = Rules::new(Variant::Kimasai);
//! // South's A1 sows A2 and A3, which faces a6's two cows: a raid (KIM-7.2).
//! let pos = "kimasai 7,7,7,7,7,7,8,8/0,0,2,0,0,0,0,1/2,0,1,0,0,0,0,0/0,0,0,0,0,0,0,0 S 0/0 - 40";
//! let pos = Position::parse(pos, &rules).unwrap();
//! let mv = find_move(&pos, &rules, "A1").unwrap().mv;
//! let p = Puzzle { position: pos, goal: Goal::Win, moves: vec![mv], depth: 1 };
//! let t = themes(&p, &rules);
//! assert!(t.contains(&Theme::Raid));
//! assert_eq!(Theme::parse("mate_in_1"), Some(Theme::MateIn(1)));
//! assert_eq!(Theme::MateIn(1).to_string(), "mate_in_1");
//! ```

use crate::puzzle::{Goal, Puzzle};
use bao_rules::{
    trace, Event, Outcome, Pit, Position, Rules, Side, StopReason, Variant, WinReason,
};
use std::fmt;

/// The most seeds on the board of the weaker side for [`Theme::Endgame`].
pub const ENDGAME_SEEDS: u32 = 12;

/// The fewest relays (lifts after the first lap) of one move for [`Theme::RelaySowing`].
pub const LONG_RELAY: usize = 3;

/// What a puzzle's solution does. The solver's moves are the line's first, third, fifth...;
/// a theme is about them unless its documentation says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// `capture_chain`: one solver move captures at least twice, each capture's seeds
    /// sown on to the next (KIS-3.3, KIS-6.3 rule 3; kimasai KIM-7.3).
    CaptureChain,
    /// `takasa`: the solver's first move captures nothing although it must find something
    /// (KIS-3.1, KIS-5.4; kete's takata, KET-1). Kiswahili and kete.
    Takasa,
    /// `nyumba_kept`: the goal is to keep the nyumba, or a solver move stops in its own
    /// nyumba instead of playing it (KIS-7.4, KIS-7.5).
    NyumbaKept,
    /// `nyumba_taxed`: a solver move taxes the lone nyumba, two seeds out (KIS-4.5, KET-3).
    NyumbaTaxed,
    /// `nyumba_lost`: a solver move ends a nyumba's ownership: the opponent's captured or
    /// its own played away (KIS-7.2).
    NyumbaLost,
    /// `kichwa_capture`: a solver move captures from a kichwa, A1 or A8, and its seeds
    /// enter at that kichwa (BRD-2.4, KIS-6.5).
    KichwaCapture,
    /// `kimbi_capture`: a solver move captures from A2 or A7, the kimbi pit next to the
    /// kichwa; its seeds enter at the kichwa, turning the sowing round (BRD-2.4, KIS-6.5).
    KimbiCapture,
    /// `relay_sowing`: a solver move relays at least [`LONG_RELAY`] times, lifting the
    /// pit its lap ended in (BRD-5.6, KIS-6.7, KIM-7.1).
    RelaySowing,
    /// `takasia`: a solver move reserves a threatened pit of the opponent, the `block`
    /// flag (KIS-8.1 to KIS-8.4; kete's hizi zetu, KET-5).
    Takasia,
    /// `kuu`: kete, a solver move starts by lifting or taxing its own kuu: the duty's
    /// takata or the lone kuu (KET-3, KET-4).
    Kuu,
    /// `raid`: kimasai, the solver's first move captures cows (KIM-6.2, KIM-7.2).
    Raid,
    /// `endgame`: the mtaji stage (both hands empty, KIS-2.1; kimasai's phase 2, KIM-4)
    /// with at most [`ENDGAME_SEEDS`] seeds on one side's board (BRD-1.2).
    Endgame,
    /// `mate_in_N`: a win puzzle whose last move empties the opponent's front row
    /// (BRD-7.2) at the solver's N-th move.
    MateIn(u8),
}

impl Theme {
    /// The themes without a count, in order; [`Theme::MateIn`] comes after them.
    pub const PLAIN: [Theme; 12] = [
        Theme::CaptureChain,
        Theme::Takasa,
        Theme::NyumbaKept,
        Theme::NyumbaTaxed,
        Theme::NyumbaLost,
        Theme::KichwaCapture,
        Theme::KimbiCapture,
        Theme::RelaySowing,
        Theme::Takasia,
        Theme::Kuu,
        Theme::Raid,
        Theme::Endgame,
    ];

    /// The name as stored and served: `capture_chain`, ..., `mate_in_2`.
    pub fn name(self) -> String {
        match self {
            Theme::MateIn(n) => format!("mate_in_{n}"),
            t => t.plain_name().to_string(),
        }
    }

    fn plain_name(self) -> &'static str {
        match self {
            Theme::CaptureChain => "capture_chain",
            Theme::Takasa => "takasa",
            Theme::NyumbaKept => "nyumba_kept",
            Theme::NyumbaTaxed => "nyumba_taxed",
            Theme::NyumbaLost => "nyumba_lost",
            Theme::KichwaCapture => "kichwa_capture",
            Theme::KimbiCapture => "kimbi_capture",
            Theme::RelaySowing => "relay_sowing",
            Theme::Takasia => "takasia",
            Theme::Kuu => "kuu",
            Theme::Raid => "raid",
            Theme::Endgame => "endgame",
            Theme::MateIn(_) => "mate_in",
        }
    }

    /// Reads a name written by [`Theme::name`].
    pub fn parse(s: &str) -> Option<Theme> {
        if let Some(digits) = s.strip_prefix("mate_in_") {
            return match digits.parse::<u8>() {
                Ok(n) if n >= 1 && n.to_string() == digits => Some(Theme::MateIn(n)),
                _ => None,
            };
        }
        Theme::PLAIN.into_iter().find(|t| t.plain_name() == s)
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Theme {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Theme {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Theme, D::Error> {
        let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        Theme::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown theme '{s}'")))
    }
}

fn board_seeds(pos: &Position, side: Side) -> u32 {
    pos.ring(side).iter().map(|&c| c as u32).sum()
}

/// The themes of a puzzle, in [`Theme`]'s order, each once. The line must be legal (as a
/// mined or checked puzzle's is); an illegal move ends the reading there.
pub fn themes(p: &Puzzle, rules: &Rules) -> Vec<Theme> {
    let solver = p.position.side();
    let mut out = Vec::new();
    let mut add = |t: Theme| {
        if !out.contains(&t) {
            out.push(t);
        }
    };
    let pos = &p.position;
    if p.goal == Goal::SaveHouse {
        add(Theme::NyumbaKept);
    }
    let bao = rules.variant.is_bao();
    if pos.hand(Side::South) == 0
        && pos.hand(Side::North) == 0
        && Side::BOTH
            .iter()
            .any(|&s| board_seeds(pos, s) <= ENDGAME_SEEDS)
    {
        add(Theme::Endgame);
    }
    let mut at = *pos;
    for (i, mv) in p.moves.iter().enumerate() {
        let (events, next, outcome) = trace(&at, rules, mv);
        let mine = i % 2 == 0;
        if mine {
            let captures: Vec<Pit> = events
                .iter()
                .filter_map(|e| match e {
                    // The opponent's pit taken faces the capturing pit (BRD-2.3).
                    Event::Capture(sq, _) => Some(sq.pit.facing()),
                    _ => None,
                })
                .collect();
            let lifts = events
                .iter()
                .filter(|e| matches!(e, Event::Lift(..)))
                .count();
            // A mtaji or kimasai move starts with a lift; a namua move's first lap is a
            // lift too unless it captures first or taxes.
            let first_lap_lift = matches!(
                events
                    .iter()
                    .find(|e| !matches!(e, Event::Place(_) | Event::HouseLost(_))),
                Some(Event::Lift(..))
            );
            let relays = lifts - usize::from(first_lap_lift);
            if captures.len() >= 2 {
                add(Theme::CaptureChain);
            }
            if i == 0 && bao && mv.is_takasa() {
                add(Theme::Takasa);
            }
            if i == 0 && rules.variant == Variant::Kimasai && !captures.is_empty() {
                add(Theme::Raid);
            }
            if bao {
                if captures.iter().any(|c| c.is_kichwa()) {
                    add(Theme::KichwaCapture);
                }
                if captures.iter().any(|c| c.index() == 1 || c.index() == 6) {
                    add(Theme::KimbiCapture);
                }
                for e in &events {
                    match e {
                        Event::Stop(StopReason::House) if next.owns_house(solver) => {
                            add(Theme::NyumbaKept)
                        }
                        Event::Tax(_) => add(Theme::NyumbaTaxed),
                        Event::HouseLost(_) => add(Theme::NyumbaLost),
                        Event::Block(_) => add(Theme::Takasia),
                        _ => {}
                    }
                }
                // The move's first action lifts or taxes the kuu it owns.
                let first = events.iter().find(|e| !matches!(e, Event::Place(_)));
                if rules.variant == Variant::Kete
                    && at.owns_house(solver)
                    && matches!(first, Some(Event::Lift(sq, _) | Event::Tax(sq)) if sq.pit.is_house())
                {
                    add(Theme::Kuu);
                }
            }
            if relays >= LONG_RELAY {
                add(Theme::RelaySowing);
            }
            if i + 1 == p.moves.len() && p.goal == Goal::Win {
                if let Outcome::Win(w, WinReason::FrontRow) = outcome {
                    if w == solver {
                        add(Theme::MateIn((i / 2 + 1) as u8));
                    }
                }
            }
        }
        at = next;
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::find_move;

    /// A position of `variant` with South to move: `spec` names pits and their seeds
    /// (`A3=2 a4=1`); the seeds left of 64 fill the back row of `filler` (BRD-1.2), far
    /// from the moves tried.
    fn build(variant: Variant, flags: &str, hands: [u8; 2], spec: &str, filler: Side) -> Position {
        let mut rings = [[0u8; 16]; 2];
        for tok in spec.split_whitespace() {
            let (name, n) = tok.split_once('=').unwrap();
            let sq = bao_rules::Square::parse(name).unwrap();
            rings[sq.side.index()][sq.pit.index()] = n.parse().unwrap();
        }
        let used: u32 = rings.iter().flatten().map(|&c| c as u32).sum::<u32>()
            + hands.iter().map(|&h| h as u32).sum::<u32>();
        for k in 0..(64 - used) as usize {
            rings[filler.index()][8 + k % 8] += 1;
        }
        let row = |s: usize, idx: &mut dyn Iterator<Item = usize>| {
            idx.map(|i| rings[s][i].to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        // Diagram order (BRD-2.2): b8..b1, a8..a1, A1..A8, B1..B8.
        let text = format!(
            "{} {}/{}/{}/{} S {}/{} {} 40",
            variant.id(),
            row(1, &mut (8..16)),
            row(1, &mut (0..8).rev()),
            row(0, &mut (0..8)),
            row(0, &mut (8..16).rev()),
            hands[0],
            hands[1],
            flags
        );
        Position::parse(&text, &Rules::new(variant)).unwrap()
    }

    fn tagged(goal: Goal, pos: Position, line: &[&str]) -> Vec<Theme> {
        let rules = Rules::new(pos.variant());
        let mut p = pos;
        let mut moves = Vec::new();
        for m in line {
            let lm = find_move(&p, &rules, m).unwrap();
            moves.push(lm.mv);
            p = lm.next;
        }
        let puzzle = Puzzle {
            position: pos,
            goal,
            moves,
            depth: 2,
        };
        themes(&puzzle, &rules)
    }

    /// Asserts that `yes` carries `theme` and `no` does not.
    fn check(theme: Theme, yes: Vec<Theme>, no: Vec<Theme>) {
        assert!(yes.contains(&theme), "{theme} missing from {yes:?}");
        assert!(!no.contains(&theme), "{theme} in the near miss {no:?}");
    }

    const KIS: Variant = Variant::Kiswahili;
    const S: Side = Side::South;
    const N: Side = Side::North;

    #[test]
    fn capture_chain_and_kimbi_capture() {
        // A3R captures a4 from A5, sows A1 A2 and captures a7 from A2 (a kimbi pit).
        let yes = build(KIS, "-", [0, 0], "A3=2 A5=1 a4=2 A2=1 a7=1 a1=1", N);
        // Without a7 the second lap relays from A2: one capture only.
        let no = build(KIS, "-", [0, 0], "A3=2 A5=1 a4=2 A2=1 a1=1", N);
        let (yes, no) = (
            tagged(Goal::Seeds { n: 3 }, yes, &["A3R"]),
            tagged(Goal::Seeds { n: 2 }, no, &["A3R"]),
        );
        check(Theme::CaptureChain, yes.clone(), no.clone());
        check(Theme::KimbiCapture, yes, no);
    }

    #[test]
    fn kichwa_capture_and_kimbi_capture_are_told_apart() {
        // A6R ends in A8 (a kichwa) and captures a1; A5R ends in A7 and captures a2.
        let kichwa = build(KIS, "-", [0, 0], "A6=2 A8=1 a1=2 a5=1", N);
        let kimbi = build(KIS, "-", [0, 0], "A5=2 A7=1 a2=2 a5=1", N);
        let kichwa = tagged(Goal::Seeds { n: 2 }, kichwa, &["A6R"]);
        let kimbi = tagged(Goal::Seeds { n: 2 }, kimbi, &["A5R"]);
        check(Theme::KichwaCapture, kichwa.clone(), kimbi.clone());
        check(Theme::KimbiCapture, kimbi, kichwa);
    }

    #[test]
    fn takasa() {
        let yes = build(KIS, "-", [0, 0], "A3=2 a1=1", N);
        let no = build(KIS, "-", [0, 0], "A6=2 A8=1 a1=2 a5=1", N);
        check(
            Theme::Takasa,
            tagged(Goal::Seeds { n: 0 }, yes, &["A3R*"]),
            tagged(Goal::Seeds { n: 2 }, no, &["A6R"]),
        );
    }

    #[test]
    fn nyumba_kept_taxed_and_lost() {
        // Namua takasa A3R* ends in the functional nyumba and stops there (KIS-7.4); A3L*
        // goes the other way.
        let stop = build(KIS, "house:S", [5, 5], "A3=1 A5=6 a1=1 a2=1", N);
        check(
            Theme::NyumbaKept,
            tagged(Goal::Seeds { n: 0 }, stop, &["A3R*"]),
            tagged(Goal::Seeds { n: 0 }, stop, &["A3L*"]),
        );
        // The save-the-house goal is about keeping it.
        assert!(tagged(Goal::SaveHouse, stop, &["A3L*"]).contains(&Theme::NyumbaKept));
        // The lone nyumba of 8 is taxed (KIS-4.5); of 5 it is sown whole and lost.
        let taxed = build(KIS, "house:S", [5, 5], "A5=8 a1=1", N);
        let sown = build(KIS, "house:S", [5, 5], "A5=5 a1=1", N);
        let (taxed, sown) = (
            tagged(Goal::Seeds { n: 0 }, taxed, &["A5R*"]),
            tagged(Goal::Seeds { n: 0 }, sown, &["A5R*"]),
        );
        check(Theme::NyumbaTaxed, taxed.clone(), sown.clone());
        check(Theme::NyumbaLost, sown, taxed);
        // Capturing North's owned nyumba takes it (KIS-7.2); an unowned a5 is a plain pit.
        let house = build(KIS, "house:N", [0, 0], "A2=2 A4=1 a5=6 a1=1", N);
        let plain = build(KIS, "-", [0, 0], "A2=2 A4=1 a5=6 a1=1", N);
        check(
            Theme::NyumbaLost,
            tagged(Goal::Seeds { n: 6 }, house, &["A2R"]),
            tagged(Goal::Seeds { n: 6 }, plain, &["A2R"]),
        );
    }

    #[test]
    fn relay_sowing() {
        // A1R relays from A3, A5 and A7; without A7 only twice.
        let yes = build(KIS, "-", [0, 0], "A1=2 A3=1 A5=1 A7=1 a1=1", N);
        let no = build(KIS, "-", [0, 0], "A1=2 A3=1 A5=1 a1=1", N);
        check(
            Theme::RelaySowing,
            tagged(Goal::Seeds { n: 0 }, yes, &["A1R*"]),
            tagged(Goal::Seeds { n: 0 }, no, &["A1R*"]),
        );
    }

    #[test]
    fn takasia() {
        // KIS-14.3 (fixture kis-25): A7L* blocks a4, A7R* blocks nothing.
        let rules = Rules::new(KIS);
        let pos = Position::parse(
            "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0",
            &rules,
        )
        .unwrap();
        check(
            Theme::Takasia,
            tagged(Goal::Seeds { n: 0 }, pos, &["A7L*"]),
            tagged(Goal::Seeds { n: 0 }, pos, &["A7R*"]),
        );
    }

    #[test]
    fn kuu() {
        // Kete, the duty's takata from the kuu (KET-4.1); without the duty, A2R* is played.
        let duty = build(Variant::Kete, "house:S,duty:S", [0, 0], "A5=6 A2=2 a1=1", N);
        let free = build(Variant::Kete, "house:S", [0, 0], "A5=6 A2=2 a1=1", N);
        check(
            Theme::Kuu,
            tagged(Goal::Seeds { n: 0 }, duty, &["A5R*"]),
            tagged(Goal::Seeds { n: 0 }, free, &["A2R*"]),
        );
        // The same move in kiswahili is a nyumba's, not a kuu's.
        let kis = build(KIS, "house:S", [0, 0], "A5=6 a1=1", N);
        assert!(!tagged(Goal::Seeds { n: 0 }, kis, &["A5R*"]).contains(&Theme::Kuu));
    }

    #[test]
    fn kimasai_raid() {
        // A1 ends in A3, facing a6's two cows (KIM-7.2); without them it relays.
        let kim = Variant::Kimasai;
        let yes = build(kim, "-", [0, 0], "A1=2 A3=1 a6=2 a1=1", N);
        let no = build(kim, "-", [0, 0], "A1=2 A3=1 a1=1", N);
        check(
            Theme::Raid,
            tagged(Goal::Seeds { n: 2 }, yes, &["A1"]),
            tagged(Goal::Seeds { n: 0 }, no, &["A1"]),
        );
    }

    #[test]
    fn endgame() {
        // South holds 3 seeds in the mtaji stage; the kis-25 position has 20 against 44,
        // and a namua position has hands.
        let few = build(KIS, "-", [0, 0], "A3=2 a1=1", S);
        let yes = tagged(Goal::Seeds { n: 0 }, few, &["A3R*"]);
        let kis25 = Position::parse(
            "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0",
            &Rules::new(KIS),
        )
        .unwrap();
        check(
            Theme::Endgame,
            yes,
            tagged(Goal::Seeds { n: 0 }, kis25, &["A7L*"]),
        );
        let namua = build(KIS, "house:S", [5, 5], "A5=8 a1=1", N);
        assert!(!tagged(Goal::Seeds { n: 0 }, namua, &["A5R*"]).contains(&Theme::Endgame));
    }

    #[test]
    fn mate_in_n_is_a_win_by_the_front_row() {
        // A3R's chain empties North's front row (BRD-7.2).
        let mate = build(KIS, "-", [0, 0], "A3=2 A5=1 a4=2 A2=1 a7=1", N);
        let yes = tagged(Goal::Win, mate, &["A3R"]);
        // North is left with a single seed and no move: a win by BRD-7.3, no mate.
        let blocked = build(KIS, "-", [0, 0], "A3=2 a1=1", S);
        let no = tagged(Goal::Win, blocked, &["A3R*"]);
        check(Theme::MateIn(1), yes, no.clone());
        assert!(no.iter().all(|t| !matches!(t, Theme::MateIn(_))), "{no:?}");
    }

    #[test]
    fn names_read_back() {
        for t in Theme::PLAIN
            .into_iter()
            .chain([Theme::MateIn(1), Theme::MateIn(12)])
        {
            assert_eq!(Theme::parse(&t.name()), Some(t));
        }
        for bad in [
            "",
            "mate_in_0",
            "mate_in_01",
            "mate_in_",
            "Takasa",
            "mate_in_x",
        ] {
            assert_eq!(Theme::parse(bad), None, "{bad}");
        }
    }
}
