//! Mirror half-cycles of one ply with captures (BRD-7.5): is there a mtaji position
//! P = (S, N), South to move, and a legal South move that leads to its mirror image
//! P' = (N, S), North to move? The same move for North then leads back to P: a cycle of two
//! plies, a draw by repetition after four.
//!
//! Conditions (ring indices, each side's own, as `Position::ring` gives them): North's ring
//! changes only by captures, so N' = N with the captured pits K emptied must equal S; South's
//! ring after the move must equal N. So S[k] = 0 and N[k] = a_k > 0 for k in K, N[i] = S[i]
//! elsewhere, and the move must leave South's ring as it was but for a_k more seeds in each
//! pit k of K. Every seed a lap drops into a pit outside K must be lifted again later, and a
//! pit lifted last must get back exactly what it held.
//!
//! The search is a depth-first enumeration of South's move lap by lap with the position left
//! open: a pit's start value is chosen only when the move first needs it (a lap ends there or a
//! capture looks at the pit it faces), a captured amount when the capture happens. Laps are
//! counted (entry laps too) up to a bound, and a branch is cut when more pits still need to be
//! lifted than laps remain. Every move that closes is completed into positions (seeds no lap
//! touched are spread over pits the move never saw, the same on both sides) and checked through
//! `legal_moves`: the legal move must lead to the mirror image, and the line played twice
//! through `Game` must end in a draw by repetition.
//!
//! ```text
//! repetition_mirror VARIANT MAX_LAPS [MAX_PIT]
//! repetition_mirror kiswahili 8
//! repetition_mirror kiswahili 6 32 --clean [ANSWER_LAPS]  # clean capture moves, paired,
//!                                             # and each one's answers up to ANSWER_LAPS
//! repetition_mirror kiswahili 25 32 --quiet   # takasa moves that bring the ring back
//! repetition_mirror kiswahili 12 32 --answer GAINS TAKES  # answers to one clean move
//! repetition_mirror check VARIANT [SAMPLES] [SEED]   # the search's moves against legal_moves
//! ... --no-prune                                # without the cut, to test that it loses nothing
//! ```
//!
//! MAX_PIT bounds the start value chosen for a pit and a captured amount (default 32).

// Pits are addressed by their ring index (BRD-3.1) throughout, as the rules do.
#![allow(clippy::needless_range_loop)]

use bao_rules::{
    legal_moves, DrawReason, Flags, Game, Outcome, Position, Rng, Rules, Setup, Side, Variant,
};

/// What North's front pit j (facing South's 7 − j) is in P.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fate {
    /// Not decided yet: no lap has ended on an occupied South pit 7 − j.
    Open,
    /// Not captured: N[j] = S[j].
    Kept,
    /// Captured by the move, `a` seeds: S[j] = 0, N[j] = a.
    Taken(u8),
}

/// What the search looks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// A capture move from (S, N) to (N, S): N = S but for the captured pits.
    Mirror,
    /// A capture move that leaves the mover's ring as it was but for seeds added to front pits
    /// that started empty, North's ring free: what each move of any two-ply cycle must be
    /// (the opponent's next move can only take those added seeds away again).
    Clean,
    /// A capture move that answers a clean move in a two-ply cycle: it takes exactly the seeds
    /// the other move added (`takes`, by the opponent's ring index) and adds to its own empty
    /// front pits exactly what the other move took (`gains`).
    Answer,
    /// A takasa move that leaves the ring exactly as it was (a one-ring cycle of one move),
    /// with or without a takasia block on the pit where it ends (KIS-8.6).
    Quiet,
}

#[derive(Clone, Copy)]
struct State {
    /// South's start values, -1 where not chosen yet.
    base: [i8; 16],
    lifted: [bool; 16],
    /// Lifted pits: seeds now; others: seeds dropped since the start.
    val: [i16; 16],
    fate: [Fate; 8],
    /// Seeds committed: twice the chosen start values (they are on both sides) plus the
    /// captured amounts.
    used: i32,
    laps: u32,
    d: i32,
    /// The move: its pit and first direction.
    r0: u8,
    d0: i8,
}

impl State {
    fn value(&self, i: usize) -> Option<i32> {
        if self.lifted[i] {
            Some(self.val[i] as i32)
        } else if self.base[i] >= 0 {
            Some(self.base[i] as i32 + self.val[i] as i32)
        } else {
            None
        }
    }

    fn sow(&mut self, from: usize, n: i32) -> usize {
        let mut cur = from as i32;
        for _ in 0..n {
            cur = (cur + self.d).rem_euclid(16);
            self.val[cur as usize] += 1;
        }
        cur as usize
    }

    /// Pits that must still be lifted: they hold more than they must end with.
    fn need(&self, mode: Mode, gains: &[u8; 8]) -> u32 {
        let mut n = 0;
        for i in 0..16 {
            let maybe_taken = i < 8
                && match mode {
                    Mode::Mirror => match self.fate[i] {
                        Fate::Taken(_) => true,
                        Fate::Open => self.base[i] <= 0,
                        Fate::Kept => false,
                    },
                    // Any front pit that starts empty may end with more.
                    Mode::Clean => self.base[i] <= 0,
                    Mode::Quiet | Mode::Answer => false,
                };
            let target = match (i < 8).then(|| self.fate[i]) {
                Some(Fate::Taken(a)) if mode == Mode::Mirror => Some(a as i32),
                _ if maybe_taken => None,
                _ if i < 8 => Some(self.base[i].max(0) as i32 + gains[i] as i32),
                _ => Some(self.base[i].max(0) as i32),
            };
            let now = if self.lifted[i] {
                self.val[i] as i32
            } else {
                self.base[i].max(0) as i32 + self.val[i] as i32
            };
            if let Some(t) = target {
                if now > t {
                    n += 1;
                }
            }
        }
        n
    }
}

struct Search {
    mode: Mode,
    rules: Rules,
    max_laps: u32,
    max_pit: i32,
    nodes: u64,
    closed: u64,
    checked: u64,
    found: Vec<(Position, String)>,
    /// Check mode: the position is given (South's ring, North's ring) and every choice is
    /// forced by it; each move that ends is recorded with the rings it leaves.
    forced: Option<([u8; 16], [u8; 16])>,
    results: Vec<([u8; 16], [u8; 16])>,
    /// Clean moves found.
    clean: Vec<CleanMove>,
    /// Answer mode: the seeds each own front pit must gain, and the seeds to take from each of
    /// the opponent's front pits (all zero otherwise).
    gains: [u8; 8],
    takes: [u8; 8],
    /// Cut branches by the pits still to lift (off only to test that the cut loses nothing).
    prune: bool,
}

/// A clean move: the mover's start values (-1: any), the seeds each of his front pits gains,
/// the seeds taken from each of the opponent's front pits, and the move in words.
type CleanMove = ([i8; 16], [u8; 8], [u8; 8], String);

impl Search {
    /// A search with these settings and nothing found yet.
    fn new(
        mode: Mode,
        rules: Rules,
        (max_laps, max_pit): (u32, i32),
        (gains, takes): ([u8; 8], [u8; 8]),
        prune: bool,
    ) -> Search {
        Search {
            mode,
            rules,
            max_laps,
            max_pit,
            nodes: 0,
            closed: 0,
            checked: 0,
            found: Vec::new(),
            forced: None,
            results: Vec::new(),
            clean: Vec::new(),
            gains,
            takes,
            prune,
        }
    }

    /// A search with the same rules, bound on pit values and nothing found yet.
    fn clone_settings(&self) -> Search {
        let bounds = (self.max_laps, self.max_pit);
        Search::new(
            self.mode,
            self.rules,
            bounds,
            (self.gains, self.takes),
            self.prune,
        )
    }

    /// Every move of the mover: each pit, both directions, each start value.
    fn run(&mut self) {
        for r in 0..16 {
            for d in [1, -1] {
                // KIS-5.2: a capture move lifts 2 to 15 seeds; a takasa move any pile of 2 or
                // more.
                let most = if self.mode == Mode::Quiet {
                    self.max_pit
                } else {
                    15.min(self.max_pit)
                };
                for n in 2..=most {
                    self.start(r, d, n);
                }
            }
            eprintln!(
                "from ring index {r}: {} nodes, {} moves closed, {} positions checked, {} found",
                self.nodes,
                self.closed,
                self.checked,
                self.found.len()
            );
        }
    }

    /// South's move from ring index r in direction d, r holding n seeds.
    fn start(&mut self, r: usize, d: i32, n: i32) {
        let mut st = State {
            base: [-1; 16],
            lifted: [false; 16],
            val: [0; 16],
            fate: [Fate::Open; 8],
            used: if self.mode == Mode::Mirror { 2 * n } else { n },
            laps: 1,
            d,
            r0: r as u8,
            d0: d as i8,
        };
        if let Some((s, north)) = self.forced {
            for i in 0..16 {
                st.base[i] = s[i] as i8;
            }
            st.used = 0;
            for j in 0..8 {
                // Only K pits (S empty, N not) stay open: the rest are kept.
                if !(s[j] == 0 && north[j] > 0) {
                    st.fate[j] = Fate::Kept;
                }
            }
        }
        st.base[r] = n as i8;
        if r < 8 {
            st.fate[r] = Fate::Kept;
        }
        st.lifted[r] = true;
        let end = st.sow(r, n);
        self.lap_end(st, end, true, false);
    }

    fn lap_end(&mut self, st: State, h: usize, first: bool, entry: bool) {
        self.nodes += 1;
        if st.laps > self.max_laps
            || (self.prune
                && self.forced.is_none()
                && st.need(self.mode, &self.gains) > self.max_laps - st.laps)
        {
            return;
        }
        if st.value(h).is_none() {
            // The start value of h is needed now.
            // In a mirror, South's seeds are North's too.
            let weight = if self.mode == Mode::Mirror { 2 } else { 1 };
            let most = ((64 - st.used) / weight).min(self.max_pit);
            for b in 0..=most {
                if h < 8 && self.gains[h] > 0 && b > 0 {
                    // A pit that gains starts empty.
                    break;
                }
                let mut s = st;
                s.base[h] = b as i8;
                s.used += weight * b;
                if self.mode == Mode::Mirror && h < 8 && b > 0 {
                    match s.fate[h] {
                        Fate::Taken(_) => continue,
                        Fate::Open => s.fate[h] = Fate::Kept,
                        Fate::Kept => {}
                    }
                }
                self.lap_end(s, h, first, entry);
            }
            return;
        }
        if entry {
            // Bao hamna (KIS-6.6): North's front row empty after a capture. Pits not chosen
            // yet may hold seeds, so only a front row known to be empty ends it.
            let empty = (0..8).all(|j| match st.fate[j] {
                Fate::Taken(_) => true,
                Fate::Kept if matches!(self.mode, Mode::Clean | Mode::Answer) => true,
                _ => self.mode == Mode::Mirror && st.base[j] == 0,
            });
            if empty {
                return;
            }
        }
        let v = st.value(h).unwrap();
        if v == 1 {
            if !first || self.mode == Mode::Quiet {
                self.close(st);
            }
            return;
        }
        if self.mode == Mode::Quiet {
            // A takasa move captures nothing (KIS-3.3): every lap relays, unless a takasia
            // block names h (a front pit): then the move ends there (KIS-8.6).
            if h < 8 {
                self.close(st);
            }
            self.relay(st, h, v, false);
            return;
        }
        if self.mode == Mode::Answer && h < 8 {
            let j = 7 - h;
            if let (Fate::Open, a @ 1..) = (st.fate[j], self.takes[j]) {
                let mut s = st;
                s.fate[j] = Fate::Taken(a);
                s.used += a as i32;
                self.capture(s, h, a as i32);
                return;
            }
            // Empty (kept empty, or taken already): the lap relays.
            let mut s = st;
            if s.fate[j] == Fate::Open {
                s.fate[j] = Fate::Kept;
            }
            self.relay(s, h, v, first);
            return;
        }
        if self.mode == Mode::Clean && h < 8 {
            let j = 7 - h;
            if let Fate::Open = st.fate[j] {
                // North's pit is empty (the lap relays) or holds a seeds (captured).
                let mut s = st;
                s.fate[j] = Fate::Kept;
                self.relay(s, h, v, first);
                for a in 1..=(64 - st.used).min(self.max_pit) {
                    let mut s = st;
                    s.fate[j] = Fate::Taken(a as u8);
                    s.used += a;
                    self.capture(s, h, a);
                }
                return;
            }
            // Empty now (kept empty, or taken already): the lap relays.
            self.relay(st, h, v, first);
            return;
        }
        if h < 8 {
            let j = 7 - h;
            match st.fate[j] {
                // Taken already: North's pit is empty now, so the lap relays.
                Fate::Taken(_) => {}
                Fate::Kept => {
                    if st.base[j] > 0 {
                        // North's pit holds S[j] seeds: a capture of a pit that must stay.
                        return;
                    }
                    if st.base[j] < 0 {
                        // Empty it must be, or the lap captures it.
                        let mut s = st;
                        s.base[j] = 0;
                        self.relay(s, h, v, first);
                        return;
                    }
                }
                Fate::Open => {
                    if st.base[j] > 0 {
                        return;
                    }
                    // Either North's pit is empty (kept, S[j] = 0) or it holds a seeds that
                    // this capture takes.
                    let mut s = st;
                    s.base[j] = 0;
                    s.fate[j] = Fate::Kept;
                    let (least, most) = match self.forced {
                        Some((_, n)) if n[j] > 0 => (n[j] as i32, n[j] as i32),
                        Some(_) => (1, 0),
                        None => (1, (64 - st.used).min(self.max_pit)),
                    };
                    if self.forced.is_none() || least > most {
                        self.relay(s, h, v, first);
                    }
                    for a in least..=most {
                        let mut s = st;
                        s.base[j] = 0;
                        s.fate[j] = Fate::Taken(a as u8);
                        s.used += a;
                        self.capture(s, h, a);
                    }
                    return;
                }
            }
        }
        self.relay(st, h, v, first);
    }

    fn relay(&mut self, mut st: State, h: usize, v: i32, first: bool) {
        if first {
            // A first lap that does not capture: not a capture move (KIS-5.2).
            return;
        }
        st.lifted[h] = true;
        st.val[h] = 0;
        st.laps += 1;
        let end = st.sow(h, v);
        self.lap_end(st, end, false, false);
    }

    /// Capture from South's front pit c: entry and direction by KIS-6.5 (mtaji: central pits
    /// keep the direction), the first seed into the kichwa.
    fn capture(&mut self, mut st: State, c: usize, a: i32) {
        if c <= 1 {
            st.d = 1;
        } else if c >= 6 {
            st.d = -1;
        }
        let kichwa = if st.d == 1 { 0 } else { 7 };
        let from = (kichwa - st.d).rem_euclid(16) as usize;
        st.laps += 1;
        let end = st.sow(from, a);
        self.lap_end(st, end, false, true);
    }

    /// The move has ended: does South's ring come back with exactly the captured seeds in
    /// the captured pits? If so, complete the position and check it through the rules.
    fn close(&mut self, st: State) {
        if let Some((_, n)) = self.forced {
            let mut south = [0u8; 16];
            let mut north = n;
            for i in 0..16 {
                south[i] = st.value(i).expect("every start value is given") as u8;
                if i < 8 {
                    if let Fate::Taken(_) = st.fate[i] {
                        north[i] = 0;
                    }
                }
            }
            self.results.push((south, north));
            return;
        }
        if self.mode == Mode::Answer {
            for i in 0..16 {
                let gain = if i < 8 { self.gains[i] as i32 } else { 0 };
                let now = if st.lifted[i] {
                    st.val[i] as i32
                } else {
                    st.base[i].max(0) as i32 + st.val[i] as i32
                };
                if now != st.base[i].max(0) as i32 + gain {
                    return;
                }
            }
            if (0..8).any(|j| self.takes[j] > 0 && st.fate[j] == Fate::Open) {
                return;
            }
            self.closed += 1;
            println!(
                "ANSWER closes: start values {:?}, from ring index {} direction {:+}, {} laps",
                st.base, st.r0, st.d0, st.laps
            );
            return;
        }
        if self.mode != Mode::Mirror {
            for i in 0..16 {
                let gains = self.mode == Mode::Clean && i < 8 && st.base[i] <= 0;
                let now = st.base[i].max(0) as i32 + st.val[i] as i32;
                let now = if st.lifted[i] { st.val[i] as i32 } else { now };
                if now != st.base[i].max(0) as i32 && !(gains && now > 0) {
                    return;
                }
            }
            self.closed += 1;
            let ring: Vec<String> = (0..16)
                .map(|i| {
                    if st.base[i] < 0 {
                        "?".to_string()
                    } else {
                        st.base[i].to_string()
                    }
                })
                .collect();
            let mut gains = [0u8; 8];
            let mut caps = [0u8; 8];
            for i in 0..8 {
                let now = if st.lifted[i] {
                    st.val[i] as i32
                } else {
                    st.base[i].max(0) as i32 + st.val[i] as i32
                };
                gains[i] = (now - st.base[i].max(0) as i32) as u8;
                if let Fate::Taken(a) = st.fate[i] {
                    caps[i] = a;
                }
            }
            let mv = format!(
                "from ring index {} direction {:+}, {} laps",
                st.r0, st.d0, st.laps
            );
            println!(
                "CLOSES {:?}: ring {} ({mv}), gains {gains:?}, takes {caps:?}",
                self.mode,
                ring.join(","),
            );
            self.clean.push((st.base, gains, caps, mv));
            return;
        }
        let mut free = Vec::new();
        for i in 0..16 {
            let target = match (i < 8).then(|| st.fate[i]) {
                Some(Fate::Taken(a)) => a as i32,
                _ => st.base[i].max(0) as i32,
            };
            if st.base[i] < 0 {
                if st.val[i] != 0 {
                    return;
                }
                free.push(i);
                continue;
            }
            let now = st.value(i).unwrap();
            if now != target {
                return;
            }
        }
        self.closed += 1;
        let rest = 64 - st.used;
        if rest < 0 || rest % 2 != 0 || (rest > 0 && free.is_empty()) {
            return;
        }
        // Spread the rest over the free pits, a few ways.
        let mut fills: Vec<Vec<i32>> = Vec::new();
        for &f in &free {
            let mut fill = vec![0; 16];
            fill[f] = rest / 2;
            fills.push(fill);
        }
        if !free.is_empty() {
            let mut fill = vec![0; 16];
            for k in 0..rest / 2 {
                fill[free[k as usize % free.len()]] += 1;
            }
            fills.push(fill);
        }
        if free.is_empty() {
            fills.push(vec![0; 16]);
        }
        for fill in fills {
            let mut s = [0u8; 16];
            let mut n = [0u8; 16];
            for i in 0..16 {
                let b = if st.base[i] >= 0 {
                    st.base[i] as i32
                } else {
                    fill[i]
                };
                s[i] = b as u8;
                n[i] = match (i < 8).then(|| st.fate[i]) {
                    Some(Fate::Taken(a)) => a,
                    _ => b as u8,
                };
            }
            self.check(s, n);
        }
    }

    fn check(&mut self, s: [u8; 16], n: [u8; 16]) {
        self.checked += 1;
        let setup = |board: [[u8; 16]; 2], side: Side| Setup {
            variant: self.rules.variant,
            board,
            hands: [0, 0],
            side,
            flags: Flags::default(),
            ply: 0,
        };
        let Ok(p) = setup([s, n], Side::South).validate(&self.rules) else {
            return;
        };
        let Ok(mirror) = setup([n, s], Side::North).validate(&self.rules) else {
            return;
        };
        for m in legal_moves(&p, &self.rules).iter() {
            if m.is_never_ending() || m.outcome(&self.rules) != Outcome::Ongoing {
                continue;
            }
            if !m.next.same_as(&mirror) {
                continue;
            }
            let south = m.mv.to_string();
            let north = {
                let mut c = south.chars();
                let first = c.next().unwrap().to_ascii_lowercase();
                format!("{first}{}", c.as_str())
            };
            let mut game = Game::new(p, self.rules);
            for t in [&south, &north, &south, &north] {
                game.play_text(t).expect("the mirrored line replays");
            }
            assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
            println!("FOUND {p} : {south} {north} {south} {north}");
            self.found.push((p, south));
        }
    }
}

/// A random mtaji position of the mirror shape: S at random with the pits of K empty, N the
/// same but for a_k seeds in each pit k of K (K: some front pits, at random).
fn random_shape(rng: &mut Rng) -> ([u8; 16], [u8; 16]) {
    loop {
        let mut s = [0u8; 16];
        let mut n = [0u8; 16];
        let k_mask = rng.below(256);
        let mut left = 64i32;
        // The captured seeds first, then S (counted twice).
        for k in 0..8 {
            if k_mask >> k & 1 == 1 && left > 0 {
                let a = 1 + rng.below(12.min(left as usize)) as i32;
                n[k] = a as u8;
                left -= a;
            }
        }
        if left % 2 != 0 {
            continue;
        }
        let mut pits: Vec<usize> = (0..16)
            .filter(|&i| i >= 8 || k_mask >> i & 1 == 0)
            .collect();
        if pits.is_empty() {
            continue;
        }
        // Favour a few pits, so that piles of several seeds occur.
        pits.truncate(4 + rng.below(pits.len().saturating_sub(3)));
        for _ in 0..left / 2 {
            let i = pits[rng.below(pits.len())];
            s[i] += 1;
        }
        for i in 0..16 {
            if i >= 8 || k_mask >> i & 1 == 0 {
                n[i] = s[i];
            }
        }
        return (s, n);
    }
}

/// Check mode: on random positions of the mirror shape, the moves the search plays (every
/// choice forced by the position) must leave exactly the rings `legal_moves` gives for the
/// capture moves that take only pits of K.
fn check(rules: Rules, samples: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    let (mut positions, mut moves) = (0u64, 0usize);
    for _ in 0..samples {
        let (s, n) = random_shape(&mut rng);
        let Ok(p) = (Setup {
            variant: rules.variant,
            board: [s, n],
            hands: [0, 0],
            side: Side::South,
            flags: Flags::default(),
            ply: 0,
        })
        .validate(&rules) else {
            continue;
        };
        let lm = legal_moves(&p, &rules);
        if lm.iter().all(|m| m.captured_pits() == 0) {
            continue;
        }
        let fronts = |r: &[u8; 16]| r[..8].iter().any(|&x| x > 0);
        let mut real: Vec<([u8; 16], [u8; 16])> = lm
            .iter()
            .filter(|m| !m.is_never_ending())
            .map(|m| (*m.next.ring(Side::South), *m.next.ring(Side::North)))
            .filter(|(s2, n2)| {
                fronts(s2)
                    && fronts(n2)
                    && (0..16).all(|i| n2[i] == n[i] || (n2[i] == 0 && s[i] == 0 && i < 8))
            })
            .collect();
        let mut search = Search {
            forced: Some((s, n)),
            ..Search::new(Mode::Mirror, rules, (300, 64), ([0; 8], [0; 8]), true)
        };
        for r in 0..16 {
            for d in [1, -1] {
                if (2..=15).contains(&s[r]) {
                    search.start(r, d, s[r] as i32);
                }
            }
        }
        let mut model: Vec<([u8; 16], [u8; 16])> = search
            .results
            .into_iter()
            .filter(|(s2, n2)| fronts(s2) && fronts(n2))
            .collect();
        real.sort_unstable();
        real.dedup();
        model.sort_unstable();
        model.dedup();
        assert_eq!(real, model, "{p}");
        positions += 1;
        moves += real.len();
    }
    println!("check: {positions} positions with a capture move, {moves} results agree");
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.len() < 2 {
        eprintln!("usage: repetition_mirror VARIANT MAX_LAPS [MAX_PIT]");
        std::process::exit(2);
    }
    if argv[0] == "check" {
        let variant = Variant::from_id(&argv[1]).expect("a variant");
        let samples = argv.get(2).map_or(1000, |s| s.parse().expect("SAMPLES"));
        let seed = argv.get(3).map_or(1, |s| s.parse().expect("SEED"));
        check(Rules::new(variant), samples, seed);
        return;
    }
    let flags: Vec<&String> = argv.iter().filter(|a| a.starts_with("--")).collect();
    let mode = match flags
        .iter()
        .find(|a| a.as_str() != "--no-prune")
        .map(|s| s.as_str())
    {
        None => Mode::Mirror,
        Some("--clean") => Mode::Clean,
        Some("--quiet") => Mode::Quiet,
        Some("--answer") => Mode::Answer,
        Some(other) => panic!("unknown flag {other}"),
    };
    let argv: Vec<&String> = argv.iter().filter(|a| !a.starts_with("--")).collect();
    // --answer GAINS TAKES: eight numbers each, by front pit index (A1..A8 / the opponent's
    // ring index), after the other arguments.
    let eight = |text: &str| -> [u8; 8] {
        let v: Vec<u8> = text
            .split(',')
            .map(|x| x.parse().expect("a number"))
            .collect();
        v.try_into().expect("eight numbers")
    };
    let (gains, takes) = if mode == Mode::Answer {
        (eight(argv[argv.len() - 2]), eight(argv[argv.len() - 1]))
    } else {
        ([0; 8], [0; 8])
    };
    let argv: Vec<&String> = if mode == Mode::Answer {
        argv[..argv.len() - 2].to_vec()
    } else {
        argv
    };
    let variant = Variant::from_id(argv[0]).expect("a variant");
    let max_laps: u32 = argv[1].parse().expect("MAX_LAPS");
    let max_pit: i32 = argv.get(2).map_or(32, |s| s.parse().expect("MAX_PIT"));
    let prune = !flags.iter().any(|f| f.as_str() == "--no-prune");
    let mut search = Search::new(
        mode,
        Rules::new(variant),
        (max_laps, max_pit),
        (gains, takes),
        prune,
    );
    search.run();
    if mode == Mode::Clean {
        // A two-ply cycle is two clean moves, each taking what the other gains; a mirror
        // half-cycle is a clean move that gains what it takes, pit for pit.
        let mut pairs = 0;
        for (i, a) in search.clean.iter().enumerate() {
            for b in &search.clean[i..] {
                if a.1 == b.2 && a.2 == b.1 {
                    pairs += 1;
                    println!("PAIR {} | {}", a.3, b.3);
                }
            }
        }
        println!(
            "{} clean moves, {pairs} pairs that could form a two-ply cycle",
            search.clean.len()
        );
        // Each clean move's possible answers, searched further (ANSWER_LAPS, the fourth
        // argument): captures and gains fixed, so the search prunes much harder.
        if let Some(answer_laps) = argv.get(3).map(|s| s.parse::<u32>().expect("ANSWER_LAPS")) {
            let mut patterns: Vec<([u8; 8], [u8; 8])> =
                search.clean.iter().map(|c| (c.1, c.2)).collect();
            patterns.sort_unstable();
            patterns.dedup();
            let (mut nodes, mut answers) = (0, 0);
            for (gained, took) in &patterns {
                let mut answer = Search {
                    mode: Mode::Answer,
                    max_laps: answer_laps,
                    nodes: 0,
                    closed: 0,
                    clean: Vec::new(),
                    gains: *took,
                    takes: *gained,
                    ..search.clone_settings()
                };
                answer.run();
                nodes += answer.nodes;
                answers += answer.closed;
            }
            println!(
                "answers of up to {answer_laps} laps to the {} clean move patterns: {answers} ({nodes} nodes)",
                patterns.len()
            );
        }
    }
    println!(
        "{} {mode:?} max laps {max_laps} max pit {max_pit}: {} nodes, {} moves that close, {} positions checked, {} mirror half-cycles",
        variant.id(),
        search.nodes,
        search.closed,
        search.checked,
        search.found.len()
    );
}
