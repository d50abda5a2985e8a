//! Evaluation from Bao features, per variant, in centi-seeds (100 = one seed), from the
//! point of view of the side to move.
//!
//! Every feature is measured, not guessed: capture threats come from the legal moves of
//! each side, executed by the rules crate. The threats of the side not to move are found
//! by handing it the move in an otherwise equal position (a "null move").
//!
//! Each weight has a value for the first stage (namua / nemo / kimasai phase 1) and one for
//! the second (mtaji / phase 2); the evaluation blends them by the seeds still in hand.

use bao_rules::{legal_moves_within, LegalMove, Position, Rules, Side, Variant};
use std::fmt;

/// The features, in the order of [`Weights::values`].
pub const FEATURES: [&str; 14] = [
    "material",    // seeds on the board, own minus opponent's
    "hand",        // seeds in hand
    "front_seeds", // seeds in the front row (exposed, but the only attackers)
    "front_pits",  // occupied front pits
    "back_pits",   // occupied back pits
    "threat_move", // best capture gain of the side to move (it will realise it)
    "threat_opp",  // best capture gain of the other side, if it were to move
    "mobility",    // legal moves
    "captures",    // legal moves that capture
    "house",       // owns the house (nyumba, kuu)
    "house_seeds", // seeds in an owned house
    "tempo",       // being the side to move
    "blocked",     // the side to move is under takasia / hizi zetu (block flag)
    "duty",        // kete: still owes the first takata from the kuu
];

/// Number of features.
pub const N: usize = FEATURES.len();

/// Weights for one variant: `[first stage, second stage]` per feature.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights {
    /// `values[f] = [namua, mtaji]` in centi-seeds per unit of feature f.
    pub values: [[i32; 2]; N],
}

impl Weights {
    /// The tuned default weights of a variant (tuned by self-play with `bao tune`, see [`crate::tune`]).
    pub fn for_variant(v: Variant) -> Weights {
        match v {
            Variant::Kiswahili => KISWAHILI,
            Variant::Kete => KETE,
            Variant::Kimasai => KIMASAI,
        }
    }

    /// Only material: the evaluation of a pure seed counter.
    pub fn material_only() -> Weights {
        let mut w = Weights {
            values: [[0, 0]; N],
        };
        w.values[0] = [100, 100];
        w.values[1] = [100, 100];
        w
    }

    /// Whether the threats of the side not to move are needed (they cost a move generation).
    pub fn needs_opponent_moves(&self) -> bool {
        let v = &self.values;
        v[6] != [0, 0] || v[7] != [0, 0] || v[8] != [0, 0]
    }

    /// Parses the text written by [`Display`](fmt::Display): lines `name namua mtaji`;
    /// `#` starts a comment. Unnamed features keep the values of `base`.
    pub fn parse(text: &str, base: Weights) -> Result<Weights, String> {
        let mut w = base;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            let bad = || {
                format!(
                    "line {}: expected 'feature namua mtaji', found '{line}'",
                    n + 1
                )
            };
            if parts.len() != 3 {
                return Err(bad());
            }
            let f = FEATURES
                .iter()
                .position(|&f| f == parts[0])
                .ok_or_else(|| format!("line {}: unknown feature '{}'", n + 1, parts[0]))?;
            let a: i32 = parts[1].parse().map_err(|_| bad())?;
            let b: i32 = parts[2].parse().map_err(|_| bad())?;
            w.values[f] = [a, b];
        }
        Ok(w)
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in FEATURES.iter().enumerate() {
            writeln!(f, "{name} {} {}", self.values[i][0], self.values[i][1])?;
        }
        Ok(())
    }
}

const fn w(v: [[i32; 2]; N]) -> Weights {
    Weights { values: v }
}

// Order: material hand front_seeds front_pits back_pits threat_move threat_opp mobility
// captures house house_seeds tempo blocked duty.

// bao tune --variant kiswahili --rules - --iterations 600 --games 16 --nodes 3000 --step 20 --rate 12 --seed 1
const KISWAHILI: Weights = w([
    [100, 100],
    [100, 100],
    [-95, -62],
    [49, 44],
    [-20, 53],
    [65, 71],
    [4, 26],
    [-14, 47],
    [9, 41],
    [163, 87],
    [29, -8],
    [20, 74],
    [-29, -67],
    [0, 0],
]);

// bao tune --variant kete --rules - --iterations 400 --games 32 --nodes 3000 --step 15 --rate 8 --seed 2
const KETE: Weights = w([
    [100, 100],
    [100, 100],
    [-72, -66],
    [33, 65],
    [44, 43],
    [49, 72],
    [-9, 27],
    [-28, 51],
    [-57, 35],
    [191, 69],
    [26, 16],
    [45, 67],
    [-25, -68],
    [-18, -53],
]);

// bao tune --variant kimasai --rules - --iterations 600 --games 16 --nodes 3000 --step 20 --rate 12 --seed 1
const KIMASAI: Weights = w([
    [100, 100],
    [100, 100],
    [-91, -47],
    [17, 46],
    [-109, 53],
    [15, 102],
    [-61, 24],
    [63, 56],
    [6, 28],
    [0, 0],
    [0, 0],
    [24, 42],
    [0, 0],
    [0, 0],
]);

/// The raw feature values of one side, before weighting.
#[derive(Clone, Copy, Default, Debug)]
struct SideFeatures {
    board: i32,
    front_seeds: i32,
    front_pits: i32,
    back_pits: i32,
    house: i32,
    house_seeds: i32,
}

fn side_features(pos: &Position, side: Side) -> SideFeatures {
    let ring = pos.ring(side);
    let mut f = SideFeatures::default();
    for (i, &c) in ring.iter().enumerate() {
        let c = c as i32;
        f.board += c;
        if i < 8 {
            f.front_seeds += c;
            f.front_pits += (c > 0) as i32;
        } else {
            f.back_pits += (c > 0) as i32;
        }
    }
    if pos.variant().is_bao() && pos.owns_house(side) {
        f.house = 1;
        f.house_seeds = ring[4] as i32;
    }
    f
}

/// Seeds on `side`'s board.
#[inline]
pub fn board_seeds(pos: &Position, side: Side) -> i32 {
    pos.ring(side).iter().map(|&c| c as i32).sum()
}

/// Seeds the mover of `pos` takes from the opponent's board with move `m` (measured).
#[inline]
pub fn gain(pos: &Position, m: &LegalMove) -> i32 {
    let opp = pos.side().other();
    board_seeds(pos, opp) - board_seeds(&m.next, opp)
}

/// The same position with the other side to move, as if the side to move passed. The
/// one-move flags (block, must, nointro) are dropped. `None` if that is not a valid position.
pub fn null_move(pos: &Position, rules: &Rules) -> Option<Position> {
    let mut s = pos.setup();
    s.side = s.side.other();
    s.flags.block = None;
    s.flags.must = None;
    s.flags.nointro = false;
    s.validate(rules).ok()
}

/// What the evaluation learned about the moves of both sides.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveFeatures {
    /// Best capture gain.
    pub best_gain: i32,
    /// Number of legal moves.
    pub mobility: i32,
    /// Number of capturing moves.
    pub captures: i32,
}

/// Measures a move list of `pos`.
pub fn move_features(pos: &Position, moves: &[LegalMove]) -> MoveFeatures {
    let opp = pos.side().other();
    let before = board_seeds(pos, opp);
    let mut f = MoveFeatures {
        mobility: moves.len() as i32,
        ..Default::default()
    };
    for m in moves {
        let g = before - board_seeds(&m.next, opp);
        if g > 0 {
            f.captures += 1;
            f.best_gain = f.best_gain.max(g);
        }
    }
    f
}

/// The lap budget of the engine's move generation (see [`legal_moves_within`]). Ordinary
/// moves take a handful of laps, and a never-ending move is usually found within a few
/// dozen; the rare moves that need more are left unexplored rather than followed for up to
/// a second each.
pub const LAP_BUDGET: u64 = 1_000;

/// The opponent's move features: its legal moves in `pos` as if it were to move (none if
/// that is no valid position, or if a move outruns the lap budget).
pub fn opponent_features(pos: &Position, rules: &Rules) -> MoveFeatures {
    null_move(pos, rules)
        .and_then(|p| {
            let ms = legal_moves_within(&p, rules, LAP_BUDGET).ok()?;
            Some(move_features(&p, ms.as_slice()))
        })
        .unwrap_or_default()
}

/// The evaluation of `pos` for the side to move, given its legal moves `moves`
/// (non-empty: positions without moves are lost and never evaluated).
pub fn evaluate(pos: &Position, rules: &Rules, moves: &[LegalMove], w: &Weights) -> i32 {
    let opp_moves = if w.needs_opponent_moves() {
        opponent_features(pos, rules)
    } else {
        MoveFeatures::default()
    };
    evaluate_with(pos, moves, opp_moves, w)
}

/// [`evaluate`] with the opponent's move features already measured.
pub fn evaluate_with(pos: &Position, moves: &[LegalMove], opp: MoveFeatures, w: &Weights) -> i32 {
    let x = pos.side();
    let y = x.other();
    let fx = side_features(pos, x);
    let fy = side_features(pos, y);
    let mx = move_features(pos, moves);
    let hx = pos.hand(x) as i32;
    let hy = pos.hand(y) as i32;
    let start_hands = if pos.variant() == Variant::Kimasai {
        48
    } else {
        44
    };
    // Phase: 1 at the start of the first stage, 0 once both hands are empty.
    let h = (hx + hy).min(start_hands);
    let feats: [i32; N] = [
        fx.board - fy.board,
        hx - hy,
        fx.front_seeds - fy.front_seeds,
        fx.front_pits - fy.front_pits,
        fx.back_pits - fy.back_pits,
        mx.best_gain,
        -opp.best_gain,
        mx.mobility - opp.mobility,
        mx.captures - opp.captures,
        fx.house - fy.house,
        fx.house_seeds - fy.house_seeds,
        1,
        pos.flags().block.is_some() as i32,
        pos.flags().duty[x.index()] as i32 - pos.flags().duty[y.index()] as i32,
    ];
    let (mut a, mut b) = (0i64, 0i64);
    for (wv, f) in w.values.iter().zip(feats) {
        a += (wv[0] * f) as i64;
        b += (wv[1] * f) as i64;
    }
    let score = (a * h as i64 + b * (start_hands - h) as i64) / start_hands as i64;
    score.clamp(-20_000, 20_000) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::legal_moves;

    #[test]
    fn start_positions_are_nearly_level_and_weights_round_trip() {
        for v in Variant::ALL {
            let rules = Rules::new(v);
            let start = Position::start(&rules);
            let moves = legal_moves(&start, &rules);
            let e = evaluate(&start, &rules, moves.as_slice(), &Weights::for_variant(v));
            // Symmetric start: only the tempo and the move features of the side to move
            // differ, so the score stays within a couple of seeds.
            assert!(e.abs() < 300, "{v}: {e}");
            let w = Weights::for_variant(v);
            assert_eq!(
                Weights::parse(&w.to_string(), Weights::material_only()).unwrap(),
                w
            );
        }
        assert!(Weights::parse("material 1", Weights::material_only()).is_err());
        assert!(Weights::parse("nonsense 1 2", Weights::material_only()).is_err());
    }

    #[test]
    fn gain_counts_the_seeds_taken() {
        // KIS-14.1 (fixture kis-06): A8R captures a1 (6) then a6 (4).
        let rules = Rules::new(Variant::Kiswahili);
        let pos = Position::parse(
            "kiswahili 0,0,0,0,0,0,0,0/0,3,4,8,0,2,5,6/0,2,1,0,8,0,3,4/0,0,0,0,0,0,0,0 S 9/9 house:S,house:N 0",
            &rules,
        )
        .unwrap();
        let moves = legal_moves(&pos, &rules);
        let m = moves.find("A8R").unwrap();
        assert_eq!(gain(&pos, m), 10);
    }
}
