//! Candidate moves: the move-choice rules KIS-4, KIS-5, KET-4, KIM-5 and KIM-6 (BRD-7.1 step 1).

use crate::options::{IntroPits, LoneHouseTax};
use crate::position::Position;
use crate::{Letter, NamuaSingletons, Pit, Rules, Side, Variant};

/// The kind of a move, fixed before it is executed (KIS-3.1, KIS-13).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Kind {
    /// Namua capture (`ncap`).
    NamuaCapture,
    /// Namua takasa (`ntak`).
    NamuaTakasa,
    /// Namua takasa that taxes the lone house (`ntax`).
    NamuaTax,
    /// Mtaji capture (`mcap`).
    MtajiCapture,
    /// Mtaji takasa (`mtak`).
    MtajiTakasa,
    /// Any kimasai move.
    Masai,
}

impl Kind {
    pub(crate) fn is_takasa(self) -> bool {
        matches!(self, Kind::NamuaTakasa | Kind::NamuaTax | Kind::MtajiTakasa)
    }
}

/// A candidate: start pit, letter (ignored in kimasai), kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Candidate {
    pub pit: Pit,
    pub letter: Letter,
    pub kind: Kind,
}

/// At most 16 pits × 2 letters.
pub(crate) struct Candidates {
    items: [Candidate; 32],
    len: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            items: [Candidate {
                pit: Pit::HOUSE,
                letter: Letter::L,
                kind: Kind::Masai,
            }; 32],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, pit: u8, letter: Letter, kind: Kind) {
        self.items[self.len] = Candidate {
            pit: Pit::from_index(pit),
            letter,
            kind,
        };
        self.len += 1;
    }
    pub(crate) fn as_slice(&self) -> &[Candidate] {
        &self.items[..self.len]
    }
}

/// Ring indices in canonical move order (NOT-1.5): A1…A8, then B1…B8.
const ORDER: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8];

/// Bit i set when byte i of `x` is not zero: eight pits tested at once.
#[inline(always)]
pub(crate) fn occupied8(x: u64) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte: set when the byte is not zero (no carry crosses bytes).
    let t = (((x & LOW7) + LOW7) | x) & HIGH;
    // Gather the eight flags (bits 8i+7) into the top byte, byte i to bit i.
    ((t >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The front row of a ring as one word, pit i in byte i.
#[inline(always)]
pub(crate) fn front_word(ring: &[u8; 16]) -> u64 {
    u128::from_le_bytes(*ring) as u64
}

/// Bit r set when front pit r of `h` and the opponent pit facing it (`o[7 - r]`) both hold
/// seeds: the pits a namua capture may start from (KIS-4.1), and the pits where a mtaji
/// capture's first lap may end (KIS-5.2).
#[inline(always)]
pub(crate) fn facing_occupied(h: &[u8; 16], o: &[u8; 16]) -> u8 {
    // Byte reversal puts o[7 - r] in byte r.
    occupied8(front_word(h)) & occupied8(front_word(o).swap_bytes())
}

/// The front pits (bit e for ring index e) where a mtaji capture's first lap may end
/// (KIS-5.2): e holds seeds and faces an occupied opponent pit. No bit, no capture move.
#[inline]
fn capture_ends(h: &[u8; 16], o: &[u8; 16]) -> u8 {
    facing_occupied(h, o)
}

/// Bit i set when pit i holds 2 to 15 seeds: the pits a mtaji capture may start from
/// (KIS-5.2), found for the whole ring at once.
#[inline(always)]
fn sowable(h: &[u8; 16]) -> u16 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const HIGH_NIBBLE: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    let half = |x: u64| {
        // High bit of each byte: at least 2 seeds (no carry crosses bytes) ...
        let two = (((x & LOW7) + 0x7e7e_7e7e_7e7e_7e7e) | x) & HIGH;
        // ... and at least 16.
        let y = x & HIGH_NIBBLE;
        let sixteen = (((y & LOW7) + LOW7) | y) & HIGH;
        let t = two & !sixteen;
        ((t >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
    };
    let r = u128::from_le_bytes(*h);
    half(r as u64) | half((r >> 64) as u64) << 8
}

/// The pits of a ring that hold 2 to 15 seeds, in canonical order (NOT-1.5: A1…A8, then
/// B1…B8): the only pits a mtaji capture may start from (KIS-5.2).
struct SowablePits {
    front: u8,
    back: u8,
}

impl SowablePits {
    #[inline(always)]
    fn new(h: &[u8; 16]) -> SowablePits {
        let s = sowable(h);
        SowablePits {
            front: s as u8,
            back: (s >> 8) as u8,
        }
    }
}

impl Iterator for SowablePits {
    type Item = u8;
    /// Front pits in ascending ring order, then back pits in descending ring order.
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.front != 0 {
            let r = self.front.trailing_zeros() as u8;
            self.front &= self.front - 1;
            Some(r)
        } else if self.back != 0 {
            let b = 7 - self.back.leading_zeros() as u8;
            self.back &= !(1 << b);
            Some(8 + b)
        } else {
            None
        }
    }
}

/// KIS-5.2: the last pit of the first lap if (r, letter) is a mtaji capture move, given the
/// pits of [`capture_ends`].
#[inline]
fn capture_end(h: &[u8; 16], ends: u8, r: u8, letter: Letter) -> Option<u8> {
    let n = h[r as usize];
    if !(2..=15).contains(&n) {
        return None;
    }
    let d = letter.dir_from(Pit::from_index(r)).offset();
    let e = (r as u32 + n as u32 * d as u32) as u8 & 15;
    (e < 8 && ends & (1 << e) != 0).then_some(e)
}

/// Whether `side` has a mtaji capture move (KIS-5.2), from the rules alone.
pub(crate) fn has_capture(rings: &[[u8; 16]; 2], side: Side) -> bool {
    capture_targets(rings, side) != 0
}

/// The opponent front pits (bit `t` for ring index t) that `side`'s mtaji capture moves
/// would take first (KIS-8.2 targets).
pub(crate) fn capture_targets(rings: &[[u8; 16]; 2], side: Side) -> u8 {
    let h = &rings[side.index()];
    let o = &rings[side.other().index()];
    let ends = capture_ends(h, o);
    let mut t = 0u8;
    if ends == 0 {
        return t;
    }
    for r in 0..16u8 {
        for l in Letter::BOTH {
            if let Some(e) = capture_end(h, ends, r, l) {
                t |= 1 << (7 - e);
            }
        }
    }
    t
}

/// KIS-4.2: the letters of a namua capture from front pit r; kimbi force the entry kichwa.
#[inline(always)]
pub(crate) fn namua_capture_letters(r: u8) -> &'static [Letter] {
    match r {
        0 | 1 => &[Letter::L],
        6 | 7 => &[Letter::R],
        _ => &Letter::BOTH,
    }
}

/// The front pits (bit r for ring index r) of the namua capture moves of `pos` when its
/// candidates are namua captures (KIS-4.1), `None` when they are of another kind. With
/// [`namua_capture_letters`], the same moves as [`candidates`] in the same order.
#[inline]
pub(crate) fn namua_captures(pos: &Position) -> Option<u8> {
    let p = pos.side.index();
    if !pos.variant.is_bao() || pos.hands[p] == 0 {
        return None;
    }
    let caps = facing_occupied(&pos.rings[p], &pos.rings[1 - p]);
    (caps != 0).then_some(caps)
}

/// The candidate moves of the side to move (BRD-7.1 step 1), in canonical order.
pub(crate) fn candidates(pos: &Position, rules: &Rules) -> Candidates {
    let mut out = Candidates::new();
    let p = pos.side.index();
    let h = &pos.rings[p];
    let o = &pos.rings[1 - p];
    if pos.variant == Variant::Kimasai {
        // KIM-5, KIM-6: any occupied pit; phase 1 may be limited to the front row.
        let phase2 = pos.hands == [0, 0];
        let back_ok = phase2 || rules.intro_pits == IntroPits::Any;
        for r in ORDER {
            if h[r as usize] > 0 && (r < 8 || back_ok) {
                out.push(r, Letter::R, Kind::Masai);
            }
        }
        return out;
    }
    let owns = pos.flags.house[p];
    let min = rules.min();
    let front_count = occupied8(front_word(h)).count_ones();
    if pos.hands[p] > 0 {
        // KIS-4: namua.
        let mut caps = facing_occupied(h, o);
        if caps != 0 {
            while caps != 0 {
                let r = caps.trailing_zeros() as u8;
                caps &= caps - 1;
                for &l in namua_capture_letters(r) {
                    out.push(r, l, Kind::NamuaCapture);
                }
            }
            return out;
        }
        let functional = owns && h[4] >= min;
        if front_count == 1 && h[4] > 0 {
            // KIS-4.5: the lone house, taxed or sown in full.
            let thr = match rules.lone_house_tax {
                LoneHouseTax::Functional => min as u16,
                LoneHouseTax::KeepMin => min as u16 + 1,
            };
            let kind = if owns && h[4] as u16 >= thr {
                Kind::NamuaTax
            } else {
                Kind::NamuaTakasa
            };
            out.push(4, Letter::L, kind);
            out.push(4, Letter::R, kind);
            return out;
        }
        // KIS-4.6: singletons only with a functional (or, by option, owned) house.
        let sing_ok = match rules.namua_singletons {
            NamuaSingletons::FunctionalHouse => functional,
            NamuaSingletons::OwnedHouse => owns,
        };
        let allowed = |r: usize| h[r] > 0 && !(functional && r == 4);
        let need_two = !sing_ok && (0..8).any(|r| allowed(r) && h[r] >= 2);
        for r in 0..8u8 {
            let ri = r as usize;
            if !allowed(ri) || (need_two && h[ri] < 2) {
                continue;
            }
            for l in Letter::BOTH {
                // KIS-4.7: a lone kichwa is sown towards the centre.
                if front_count == 1 && ((r == 0 && l == Letter::L) || (r == 7 && l == Letter::R)) {
                    continue;
                }
                out.push(r, l, Kind::NamuaTakasa);
            }
        }
        return out;
    }
    // KIS-5: mtaji. Captures are compulsory (KIS-5.3).
    let ends = capture_ends(h, o);
    if ends != 0 {
        for r in SowablePits::new(h) {
            for l in Letter::BOTH {
                if capture_end(h, ends, r, l).is_some() {
                    out.push(r, l, Kind::MtajiCapture);
                }
            }
        }
        if out.len > 0 {
            return out;
        }
    }
    // KIS-5.4: front row first; a blocked pit does not count (KIS-8.5).
    let block = pos.flags.block.map(|b| b.index());
    let front_ok = |r: usize| h[r] >= 2 && Some(r) != block;
    let use_front = (0..8).any(front_ok);
    // KET-4: the first mtaji takata starts from the kuu, if it is among the playable pits.
    let duty = pos.flags.duty[p] && owns && front_ok(4) && use_front;
    for r in ORDER {
        let ri = r as usize;
        let playable = if use_front {
            r < 8 && front_ok(ri)
        } else {
            r >= 8 && h[ri] >= 2
        };
        if !playable || (duty && r != 4) {
            continue;
        }
        for l in Letter::BOTH {
            // KIS-5.5: lone kichwa towards the centre.
            let lone = front_count == 1 && h[ri] > 0 && r < 8;
            if lone && ((r == 0 && l == Letter::L) || (r == 7 && l == Letter::R)) {
                continue;
            }
            out.push(r, l, Kind::MtajiTakasa);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// `occupied8` and `facing_occupied` against the pit-by-pit definitions, on random rings
    /// with every count a pit can hold (0 to 64 seeds) and many empty pits.
    #[test]
    fn word_tests_match_pit_tests() {
        let mut rng = Rng::new(7);
        for _ in 0..20_000 {
            let mut h = [0u8; 16];
            let mut o = [0u8; 16];
            for i in 0..16 {
                if rng.below(2) == 0 {
                    h[i] = rng.below(65) as u8;
                }
                if rng.below(2) == 0 {
                    o[i] = rng.below(65) as u8;
                }
            }
            let mut occ = 0u8;
            let mut facing = 0u8;
            for r in 0..8 {
                occ |= ((h[r] > 0) as u8) << r;
                facing |= ((h[r] > 0 && o[7 - r] > 0) as u8) << r;
            }
            assert_eq!(occupied8(front_word(&h)), occ, "{h:?}");
            assert_eq!(facing_occupied(&h, &o), facing, "{h:?} {o:?}");
            let want = (0..16).fold(0u16, |m, i| m | (((2..=15).contains(&h[i])) as u16) << i);
            assert_eq!(sowable(&h), want, "{h:?}");
            // The capture moves in canonical order, pit by pit.
            let ends = capture_ends(&h, &o);
            let mut slow = Vec::new();
            for r in ORDER {
                for l in Letter::BOTH {
                    if let Some(e) = capture_end(&h, ends, r, l) {
                        slow.push((r, l, e));
                    }
                }
            }
            let mut fast = Vec::new();
            for r in SowablePits::new(&h) {
                for l in Letter::BOTH {
                    if let Some(e) = capture_end(&h, ends, r, l) {
                        fast.push((r, l, e));
                    }
                }
            }
            assert_eq!(fast, slow, "{h:?} {o:?}");
        }
        // Every count a byte can hold.
        for b in 0..=255u8 {
            let mut h = [0u8; 16];
            h[b as usize % 16] = b;
            h[(b as usize + 5) % 16] = b.wrapping_mul(7);
            let want = (0..16).fold(0u16, |m, i| m | (((2..=15).contains(&h[i])) as u16) << i);
            assert_eq!(sowable(&h), want, "{h:?}");
        }
        // Bytes with the high bit set, which no position holds, are still seen as occupied.
        assert_eq!(occupied8(0x80ff_0001_0000_7f00), 0b1101_0010);
    }
}
