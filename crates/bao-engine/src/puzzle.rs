//! Puzzles: positions from real games with one best line that the engine or the rules prove
//! (docs/api.md, "Puzzles"), and the miner that finds them in self-play games between levels.
//!
//! Three goals, each with its own proof:
//! * [`Goal::Win`]: the side to move wins the game by force (BRD-7.2, BRD-7.3: the
//!   opponent's front row emptied or no legal move left) within the proof depth, and at each
//!   of its turns in the line exactly one move wins within that depth. The proof is the
//!   search's: [`Searcher::analyse`] at the stored depth scores every move, and a win score
//!   is a forced win (the defender's moves are searched in full width; quiescence never
//!   gives the defender a loss it could avoid by a quiet move).
//! * [`Goal::Seeds`]: after the best move and any reply, the mover holds at least `n` more
//!   seeds (board and hand) than now, and every other move guarantees at least
//!   [`MineConfig::seeds_margin`] seeds less. Proven by the rules crate alone: every move
//!   and every reply is played.
//! * [`Goal::SaveHouse`] (kiswahili, kete: KIS-7, KET-1): the mover owns a functional
//!   nyumba (KIS-7.3) and exactly one move keeps it against every reply; some other move
//!   leaves it to a capture (KIS-7.2). Proven by the rules crate alone, two plies deep.
//!
//! The line of a puzzle alternates the solver's moves and the opponent's answers, starting
//! and ending with a solver move. An answer is the opponent's most stubborn reply: the
//! longest loss for [`Goal::Win`], the reply that keeps most seeds for the others.
//!
//! Everything here is deterministic: the same configuration gives the same puzzles.

use crate::level::Level;
use crate::search::{Limits, Score, Searcher, WIN_BOUND};
use crate::Weights;
use bao_rules::{legal_moves, status, LegalMove, Move, Outcome, Pit, Position, Rules, Side};

/// What the solver must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)
)]
pub enum Goal {
    /// Win the game by force.
    Win,
    /// Win at least `n` seeds that the opponent's reply cannot take back.
    Seeds {
        /// Seeds won after the solver's move and the opponent's reply.
        n: u32,
    },
    /// Keep the nyumba (house) against every reply.
    SaveHouse,
}

impl Goal {
    /// The goal's kind: `win`, `seeds` or `save_house`.
    pub fn kind(&self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Seeds { .. } => "seeds",
            Goal::SaveHouse => "save_house",
        }
    }
}

/// A puzzle: a position, a goal, the solution line and the depth it was proven at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position; the side to move is the solver.
    pub position: Position,
    /// What the solver must achieve.
    pub goal: Goal,
    /// The solution: solver and opponent moves alternating, solver first and last.
    pub moves: Vec<Move>,
    /// The proof depth in plies: the depth of [`Searcher::analyse`] for [`Goal::Win`], 2 for
    /// the others (the solver's move and every reply).
    pub depth: u32,
}

/// A value below every real seed gain: the move loses or draws the game.
const LOST: i32 = i32::MIN / 2;

/// The seeds a side holds, on its board and in its hand (captures move seeds between the
/// players; none leave the game).
pub fn seeds_of(pos: &Position, side: Side) -> i32 {
    pos.ring(side).iter().map(|&c| c as i32).sum::<i32>() + pos.hand(side) as i32
}

/// The seeds the mover of `pos` is sure to win with `m` against every reply, with the reply
/// that leaves him the fewest (first in canonical order). [`LOST`] when the move or some
/// reply ends the game otherwise than by his win; `None` when the move wins at once.
fn seed_value(pos: &Position, m: &LegalMove, rules: &Rules) -> Option<(i32, Option<Move>)> {
    let me = pos.side();
    match m.outcome(rules) {
        Outcome::Ongoing => {}
        Outcome::Win(s, _) if s == me => return None,
        _ => return Some((LOST, None)),
    }
    let before = seeds_of(pos, me);
    let mut worst: Option<(i32, Move)> = None;
    for r in &legal_moves(&m.next, rules) {
        let v = match r.outcome(rules) {
            Outcome::Ongoing => seeds_of(&r.next, me) - before,
            // A reply that loses at once is no reply the opponent makes.
            Outcome::Win(s, _) if s == me => continue,
            // A win or a draw for the opponent: the seeds are worth nothing.
            _ => LOST,
        };
        if worst.is_none_or(|(w, _)| v < w) {
            worst = Some((v, r.mv));
        }
    }
    Some(match worst {
        Some((v, r)) => (v, Some(r)),
        // Every reply loses at once: the move wins in two plies, which is a win puzzle.
        None => return None,
    })
}

/// A [`Goal::Seeds`] puzzle in `pos`, if its best move wins at least `min` seeds against every
/// reply and every other move guarantees at least `margin` seeds less.
pub fn find_seeds(pos: &Position, rules: &Rules, min: u32, margin: u32) -> Option<Puzzle> {
    let moves = legal_moves(pos, rules);
    if moves.len() < 3 {
        return None;
    }
    let mut scored = Vec::with_capacity(moves.len());
    for m in &moves {
        scored.push((m.mv, seed_value(pos, m, rules)?));
    }
    let (best_i, &(best_mv, (best, reply))) = scored
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1 .0.cmp(&b.1 .1 .0).then(b.0.cmp(&a.0)))?;
    let second = scored
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != best_i)
        .map(|(_, s)| s.1 .0)
        .max()?;
    if best < min as i32 || best - second < margin as i32 {
        return None;
    }
    Some(Puzzle {
        position: *pos,
        goal: Goal::Seeds { n: best as u32 },
        moves: vec![best_mv, reply?],
        depth: 2,
    })
}

/// The nyumba's pit, A5 (BRD-2.4).
fn house_pit() -> Pit {
    Pit::front(5)
}

/// A [`Goal::SaveHouse`] puzzle in `pos` (kiswahili and kete): see the module documentation.
pub fn find_save_house(pos: &Position, rules: &Rules) -> Option<Puzzle> {
    let me = pos.side();
    if !rules.variant.is_bao()
        || !pos.owns_house(me)
        || pos.seeds(me, house_pit()) < rules.house_functional_min
    {
        return None;
    }
    let moves = legal_moves(pos, rules);
    if moves.len() < 3 {
        return None;
    }
    let mut keepers = Vec::new();
    let mut threatened = false;
    for m in &moves {
        match m.outcome(rules) {
            Outcome::Ongoing => {}
            // A move that wins at once makes the house no matter.
            Outcome::Win(s, _) if s == me => return None,
            _ => continue,
        }
        if !m.next.owns_house(me) {
            continue;
        }
        let mut kept = true;
        let mut answer: Option<(i32, Move)> = None;
        for r in &legal_moves(&m.next, rules) {
            match r.outcome(rules) {
                Outcome::Ongoing if r.next.owns_house(me) => {
                    let v = seeds_of(&r.next, me);
                    if answer.is_none_or(|(w, _)| v < w) {
                        answer = Some((v, r.mv));
                    }
                }
                // A reply that loses at once is no reply the opponent makes.
                Outcome::Win(s, _) if s == me => {}
                // The house captured, or the game won or drawn by the reply.
                _ => {
                    kept = false;
                    break;
                }
            }
        }
        if kept {
            keepers.push((m.mv, answer?.1));
        } else {
            threatened = true;
        }
    }
    if keepers.len() != 1 || !threatened {
        return None;
    }
    let (mv, reply) = keepers[0];
    Some(Puzzle {
        position: *pos,
        goal: Goal::SaveHouse,
        moves: vec![mv, reply],
        depth: 2,
    })
}

/// A searcher for proofs: the variant's weights, a small table cleared before each use so
/// that a proof does not depend on what was searched before it, and no late move
/// reductions, so that every move is searched to the proof depth.
pub fn proof_searcher(rules: &Rules) -> Searcher {
    let mut s = Searcher::new(*rules, Weights::for_variant(rules.variant), 16);
    s.reductions = false;
    s
}

/// Every move of `pos` scored by [`Searcher::analyse`] at `depth`, from a cleared table.
fn analyse_fresh(s: &mut Searcher, pos: &Position, depth: u32) -> Vec<(LegalMove, i32)> {
    s.clear();
    s.set_history(&[]);
    s.analyse(pos, Limits::depth(depth)).0
}

/// The winning line from `pos` at proof depth `depth`, if the side to move wins by force and
/// at each of its turns exactly one move wins within `depth`. The opponent's answers are its
/// longest losses (first in canonical order among equals).
pub fn win_line(s: &mut Searcher, pos: &Position, depth: u32) -> Option<Vec<Move>> {
    let rules = *s.rules();
    let solver = pos.side();
    let mut line = Vec::new();
    let mut p = *pos;
    // A forced win ends within `depth` plies plus the search's extensions; the bound only
    // stops a line that would never end.
    for _ in 0..64 {
        let scored = analyse_fresh(s, &p, depth);
        let wins: Vec<&(LegalMove, i32)> = scored.iter().filter(|x| x.1 >= WIN_BOUND).collect();
        if wins.len() != 1 {
            return None;
        }
        let m = wins[0].0;
        line.push(m.mv);
        match m.outcome(&rules) {
            Outcome::Win(w, _) if w == solver => return Some(line),
            Outcome::Ongoing => {}
            _ => return None,
        }
        let replies = analyse_fresh(s, &m.next, depth);
        // Every reply loses; the most stubborn is the one with the highest score.
        let (r, v) = replies
            .iter()
            .enumerate()
            .max_by(|a, b| a.1 .1.cmp(&b.1 .1).then(b.0.cmp(&a.0)))
            .map(|(_, x)| *x)?;
        if v > -WIN_BOUND {
            return None;
        }
        line.push(r.mv);
        if r.outcome(&rules) != Outcome::Ongoing {
            return None;
        }
        p = r.next;
    }
    None
}

/// A [`Goal::Win`] puzzle in `pos`: a forced win in at most `max_plies` plies found at
/// `depth`, with a unique winning move at each of the solver's turns.
pub fn find_win(s: &mut Searcher, pos: &Position, depth: u32, max_plies: u32) -> Option<Puzzle> {
    s.clear();
    s.set_history(&[]);
    let r = s.search_root(pos, Limits::depth(depth), &mut |_| {});
    match r.score {
        Score::Win(n) if n <= max_plies => {}
        _ => return None,
    }
    let moves = win_line(s, pos, depth)?;
    Some(Puzzle {
        position: *pos,
        goal: Goal::Win,
        moves,
        depth,
    })
}

/// Checks a stored puzzle with the same proofs the miner used: the line is legal, it reaches
/// the goal, and the solver's moves are the only good ones. Returns what is wrong.
pub fn verify(p: &Puzzle, rules: &Rules) -> Result<(), String> {
    let found = match p.goal {
        Goal::Win => {
            let mut s = proof_searcher(rules);
            win_line(&mut s, &p.position, p.depth).map(|moves| Puzzle {
                position: p.position,
                goal: Goal::Win,
                moves,
                depth: p.depth,
            })
        }
        Goal::Seeds { .. } => find_seeds(&p.position, rules, 1, 1),
        Goal::SaveHouse => find_save_house(&p.position, rules),
    };
    match found {
        None => Err(format!("{}: no {} puzzle here", p.position, p.goal.kind())),
        Some(f) if f.moves != p.moves || f.goal != p.goal => Err(format!(
            "{}: the proof gives {:?} {:?}, the puzzle says {:?} {:?}",
            p.position, f.goal, f.moves, p.goal, p.moves
        )),
        Some(_) => Ok(()),
    }
}

/// How to mine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineConfig {
    /// The seed of the games (openings and the levels' noise).
    pub seed: u64,
    /// Most self-play games to play.
    pub games: usize,
    /// Puzzles wanted of each goal: win, seeds, save_house (0 for kimasai).
    pub want: [usize; 3],
    /// Proof depth for win puzzles.
    pub win_depth: u32,
    /// Longest win, in plies (the solver's moves and the replies).
    pub win_max_plies: u32,
    /// Fewest seeds a seeds puzzle wins.
    pub seeds_min: u32,
    /// How many seeds the best move must beat every other by.
    pub seeds_margin: u32,
    /// Candidates gathered per puzzle wanted before [`select`] keeps the best: mining stops
    /// once every goal has `pool * want` (or the games run out).
    pub pool: usize,
    /// Candidates of each goal taken from one self-play game (records' games give all theirs).
    pub per_game: usize,
    /// Also examine, in self-play games, the position after every other legal move of each
    /// played position: more positions per game, for variants whose games are slow to play.
    pub children: bool,
}

impl MineConfig {
    /// Defaults that mine a variant in a few minutes of one core.
    pub fn for_rules(rules: &Rules, seed: u64) -> MineConfig {
        let bao = rules.variant.is_bao();
        MineConfig {
            seed,
            games: 400,
            want: if bao { [20, 20, 15] } else { [25, 30, 0] },
            win_depth: if bao { 5 } else { 4 },
            win_max_plies: 7,
            seeds_min: 4,
            seeds_margin: 3,
            pool: 3,
            per_game: 1,
            children: false,
        }
    }
}

/// A mined puzzle and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mined {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Where it was found: `game G ply P (levels S-N)` for self-play, the game's
    /// [`SourceGame::label`] and the ply for a records file.
    pub source: String,
}

/// A game to mine besides self-play, such as one record of a records file (NOT-6): every
/// position of it is examined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceGame {
    /// Where the game is from, such as `games.txt record 3`.
    pub label: String,
    /// Its positions in order, each before a move (the final position may be left out: a
    /// finished game has no puzzle).
    pub positions: Vec<Position>,
}

/// Progress of [`mine`], reported after each game.
#[derive(Clone, Copy, Debug)]
pub struct MineProgress {
    /// Games examined (records' games first, then self-play).
    pub games: usize,
    /// Positions examined.
    pub positions: usize,
    /// Candidates found so far of each goal (win, seeds, save_house).
    pub found: [usize; 3],
}

fn goal_index(g: &Goal) -> usize {
    match g {
        Goal::Win => 0,
        Goal::Seeds { .. } => 1,
        Goal::SaveHouse => 2,
    }
}

/// Whether a found puzzle is **trivial**, so that it is never mined:
/// * the solution's first move is the only legal move (nothing to find); or
/// * the solver has a single move to find (a win in one move, or a seeds or save-the-house
///   puzzle) and it is the obvious capture: it takes strictly more seeds at once than every
///   other legal move, the move a player who only counts seeds makes anyway.
///
/// ```
/// use bao_engine::puzzle::{find_seeds, is_trivial};
/// use bao_rules::{Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let pos = Position::start(&rules);
/// // The start has no seeds puzzle; a puzzle that is found is never trivial to the miner.
/// assert!(find_seeds(&pos, &rules, 4, 3).is_none_or(|p| !is_trivial(&p, &rules)));
/// ```
pub fn is_trivial(p: &Puzzle, rules: &Rules) -> bool {
    let moves = legal_moves(&p.position, rules);
    if moves.len() < 2 {
        return true;
    }
    if p.moves.len() > 2 {
        return false;
    }
    let gain = |m: &LegalMove| crate::eval::gain(&p.position, m);
    let Some(sol) = moves.iter().find(|m| m.mv == p.moves[0]) else {
        return false;
    };
    let g = gain(sol);
    g > 0 && moves.iter().all(|m| m.mv == sol.mv || gain(m) < g)
}

/// The untrivial puzzles of `pos` of the goals `wanted` (win, seeds, save_house), cheapest
/// proofs first.
fn candidates(
    pos: &Position,
    rules: &Rules,
    cfg: &MineConfig,
    proof: &mut Searcher,
    wanted: [bool; 3],
) -> Vec<Puzzle> {
    let mut out = Vec::new();
    if legal_moves(pos, rules).len() < 2 {
        return out;
    }
    if wanted[1] {
        out.extend(find_seeds(pos, rules, cfg.seeds_min, cfg.seeds_margin));
    }
    if wanted[2] {
        out.extend(find_save_house(pos, rules));
    }
    if wanted[0] {
        out.extend(find_win(proof, pos, cfg.win_depth, cfg.win_max_plies));
    }
    out.retain(|p| !is_trivial(p, rules));
    out
}

/// Mines every position of the `records` games, then self-play games between levels 2 to
/// 5 after short random openings (at most `cfg.per_game` candidates of each goal from
/// each; with `cfg.children` also the positions one other move away), and keeps the best `cfg.want` of each goal once there are `cfg.pool` times as
/// many candidates (or `cfg.games` self-play games are played): see [`select`]. A position
/// seen before is skipped. Calls `progress` after each game.
pub fn mine(
    rules: &Rules,
    cfg: &MineConfig,
    records: &[SourceGame],
    progress: &mut dyn FnMut(MineProgress),
) -> Vec<Mined> {
    let mut pool: Vec<Mined> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut found = [0usize; 3];
    let mut positions = 0;
    let mut proof = proof_searcher(rules);
    let full = |found: &[usize; 3]| (0..3).all(|k| found[k] >= cfg.pool * cfg.want[k]);
    let mut games = 0;
    let self_play_games = (0..cfg.games).map(|g| {
        let levels = [2 + (g % 4) as u8, 2 + ((g / 4) % 4) as u8];
        let seed = cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g as u64;
        (
            format!("game {g}"),
            format!(" (levels {}-{})", levels[0], levels[1]),
            None,
            (levels, seed, g),
        )
    });
    let record_games = records.iter().map(|r| {
        (
            r.label.clone(),
            String::new(),
            Some(&r.positions),
            ([0, 0], 0, 0),
        )
    });
    for (label, suffix, given, (levels, seed, g)) in record_games.chain(self_play_games) {
        if full(&found) {
            break;
        }
        let played;
        let (game, limit) = match given {
            Some(p) => (p, usize::MAX),
            None => {
                played = self_play(rules, levels, seed, g);
                (&played, cfg.per_game)
            }
        };
        // Each position, with the move that led to it from a played one when it was not played.
        let mut examined: Vec<(Position, Option<Move>)> = Vec::with_capacity(game.len());
        for pos in game {
            examined.push((*pos, None));
            if cfg.children && given.is_none() {
                for m in &legal_moves(pos, rules) {
                    if m.outcome(rules) == Outcome::Ongoing {
                        examined.push((m.next, Some(m.mv)));
                    }
                }
            }
        }
        let mut taken = [0usize; 3];
        for (pos, after) in &examined {
            // The same board at another ply is the same puzzle.
            if !seen.insert(pos.with_ply(0).to_string()) {
                continue;
            }
            positions += 1;
            let wanted =
                std::array::from_fn(|k| taken[k] < limit && found[k] < cfg.pool * cfg.want[k]);
            for p in candidates(pos, rules, cfg, &mut proof, wanted) {
                let k = goal_index(&p.goal);
                found[k] += 1;
                taken[k] += 1;
                pool.push(Mined {
                    puzzle: p,
                    source: match after {
                        None => format!("{label} ply {}{suffix}", pos.ply()),
                        Some(m) => format!("{label} ply {} after {m}{suffix}", pos.ply() - 1),
                    },
                });
            }
        }
        games += 1;
        progress(MineProgress {
            games,
            positions,
            found,
        });
    }
    select(pool, rules, cfg.want)
}

/// Whether the move that captures most at once is not the solution (a trap for the greedy).
fn greedy_misses(p: &Puzzle, rules: &Rules) -> bool {
    let moves = legal_moves(&p.position, rules);
    let gain = |m: &LegalMove| crate::eval::gain(&p.position, m);
    let best = moves.iter().map(gain).max();
    moves
        .iter()
        .find(|m| Some(gain(m)) == best)
        .is_some_and(|m| m.mv != p.moves[0])
}

/// The best `want` of each goal from the pool: for wins, lines of every length taken in turn,
/// with a quarter kept for wins in one move (easy ones to start with); for seeds, the traps for a greedy
/// player first, then the most seeds; for the house, the traps first. The result is ordered
/// by the length of the line, then as found, so that the easy ones come first.
pub fn select(pool: Vec<Mined>, rules: &Rules, want: [usize; 3]) -> Vec<Mined> {
    let mut out: Vec<(usize, Mined)> = Vec::new();
    for k in 0..3 {
        let mut of: Vec<(usize, Mined)> = pool
            .iter()
            .cloned()
            .enumerate()
            .filter(|(_, m)| goal_index(&m.puzzle.goal) == k)
            .collect();
        if k == 0 {
            let easy = want[0] / 4;
            let (ones, long): (Vec<_>, Vec<_>) =
                of.into_iter().partition(|(_, m)| m.puzzle.moves.len() == 1);
            // Longer lines in turn by length, so that every length is represented.
            let mut lengths: Vec<usize> = long.iter().map(|(_, m)| m.puzzle.moves.len()).collect();
            lengths.sort_unstable();
            lengths.dedup();
            let mut groups: Vec<std::collections::VecDeque<(usize, Mined)>> = lengths
                .iter()
                .map(|&n| {
                    long.iter()
                        .filter(|(_, m)| m.puzzle.moves.len() == n)
                        .cloned()
                        .collect()
                })
                .collect();
            let mut long = Vec::new();
            let goal = want[0] - easy.min(ones.len());
            while long.len() < goal && groups.iter().any(|g| !g.is_empty()) {
                for g in groups.iter_mut().rev() {
                    if long.len() < goal {
                        long.extend(g.pop_front());
                    }
                }
            }
            let fill = want[0] - long.len();
            long.extend(ones.into_iter().take(fill));
            of = long;
        } else {
            of.sort_by_key(|(i, m)| {
                let n = match m.puzzle.goal {
                    Goal::Seeds { n } => n,
                    _ => 0,
                };
                (!greedy_misses(&m.puzzle, rules), std::cmp::Reverse(n), *i)
            });
            of.truncate(want[k]);
        }
        out.extend(of);
    }
    out.sort_by_key(|(i, m)| (m.puzzle.moves.len(), *i));
    out.into_iter().map(|(_, m)| m).collect()
}

/// The positions of one game between `levels` (South, North) after a random opening of four
/// plies, up to the last position before the end (at most 300 plies).
fn self_play(rules: &Rules, levels: [u8; 2], seed: u64, index: usize) -> Vec<Position> {
    let mut pos = Position::start(rules);
    for m in crate::arena::opening(rules, seed, index, 4) {
        pos = m.next;
    }
    let players = levels.map(Level::get);
    let mut searchers = players.map(|l| l.searcher(rules));
    let mut positions = Vec::new();
    while positions.len() < 300 && status(&pos, rules) == Outcome::Ongoing {
        positions.push(pos);
        let k = pos.side().index();
        let Some(m) = players[k].choose(&mut searchers[k], &pos, &[], seed ^ pos.ply() as u64)
        else {
            break;
        };
        pos = m.next;
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::{find_move, Variant};

    /// A puzzle of `pos` (kiswahili) with the line `line`.
    fn puzzle(pos: &str, goal: Goal, line: &[&str]) -> Puzzle {
        let rules = Rules::new(Variant::Kiswahili);
        let position = Position::parse(pos, &rules).unwrap();
        let mut p = position;
        let moves = line
            .iter()
            .map(|m| {
                let lm = find_move(&p, &rules, m).unwrap();
                p = lm.next;
                lm.mv
            })
            .collect();
        Puzzle {
            position,
            goal,
            moves,
            depth: 2,
        }
    }

    #[test]
    fn the_only_move_and_the_obvious_capture_are_trivial() {
        let rules = Rules::new(Variant::Kiswahili);
        // A3R is South's only legal move (and wins at once).
        let only =
            "kiswahili 7,7,7,7,7,7,7,8/0,1,0,0,2,0,0,0/0,1,2,0,1,0,0,0/0,0,0,0,0,0,0,0 S 0/0 - 40";
        assert!(is_trivial(&puzzle(only, Goal::Win, &["A3R"]), &rules));
        // A6R takes a1's 2 seeds, A3R a4's one: A6R is the obvious capture.
        let two =
            "kiswahili 6,6,7,7,7,7,7,7/0,0,0,1,1,0,0,2/0,0,2,0,1,2,0,1/0,0,0,0,0,0,0,0 S 0/0 - 40";
        let seeds = Goal::Seeds { n: 2 };
        assert!(is_trivial(&puzzle(two, seeds, &["A6R", "b3L"]), &rules));
        assert!(!is_trivial(&puzzle(two, seeds, &["A3R", "b3L"]), &rules));
        // A longer line that starts with it is more than the capture.
        assert!(!is_trivial(
            &puzzle(two, Goal::Win, &["A6R", "b3L", "A3R"]),
            &rules
        ));
        // Two moves that take as much: neither is obvious.
        let tie =
            "kiswahili 6,6,6,6,6,7,7,7/0,1,0,0,2,0,0,3/0,1,2,0,1,2,0,1/0,0,0,0,0,0,0,0 S 0/0 - 40";
        assert!(!is_trivial(&puzzle(tie, seeds, &["A6R", "b1L"]), &rules));
    }

    #[test]
    fn mining_is_deterministic_and_what_it_finds_is_proven() {
        let rules = Rules::new(Variant::Kete);
        let cfg = MineConfig {
            games: 8,
            want: [2, 2, 2],
            ..MineConfig::for_rules(&rules, 5)
        };
        let a = mine(&rules, &cfg, &[], &mut |_| {});
        let b = mine(&rules, &cfg, &[], &mut |_| {});
        assert_eq!(a, b);
        assert!(!a.is_empty(), "eight games give some puzzle");
        for m in &a {
            verify(&m.puzzle, &rules).unwrap();
        }
        // Another first move is refused by the proof.
        let p = &a[0].puzzle;
        let other = legal_moves(&p.position, &rules)
            .iter()
            .map(|m| m.mv)
            .find(|m| *m != p.moves[0])
            .unwrap();
        let mut wrong = p.clone();
        wrong.moves[0] = other;
        assert!(verify(&wrong, &rules).is_err());
    }
}
