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

/// The front pits (bit e for ring index e) where a mtaji capture's first lap may end
/// (KIS-5.2): e holds seeds and faces an occupied opponent pit. No bit, no capture move.
#[inline]
fn capture_ends(h: &[u8; 16], o: &[u8; 16]) -> u8 {
    let mut ends = 0u8;
    for e in 0..8 {
        ends |= ((h[e] > 0 && o[7 - e] > 0) as u8) << e;
    }
    ends
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
    let front_count = (0..8).filter(|&r| h[r] > 0).count();
    if pos.hands[p] > 0 {
        // KIS-4: namua.
        let mut any_capture = false;
        for r in 0..8u8 {
            if h[r as usize] > 0 && o[7 - r as usize] > 0 {
                any_capture = true;
                // KIS-4.2: kimbi force the entry kichwa.
                if r >= 6 {
                    out.push(r, Letter::R, Kind::NamuaCapture);
                } else {
                    out.push(r, Letter::L, Kind::NamuaCapture);
                    if r >= 2 {
                        out.push(r, Letter::R, Kind::NamuaCapture);
                    }
                }
            }
        }
        if any_capture {
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
        for r in ORDER {
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
