//! Zobrist keys of a full position: board, hands, side to move and every flag (NOT-3.4).
//!
//! Computed from the public accessors of [`Position`], so the rules crate stays free to
//! change its internals. A full key costs 32 table look-ups, far less than one move.

use bao_rules::{Position, Side};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Pit counts run 0..=64 (64 seeds in all, BRD-1.2).
const COUNTS: usize = 65;
const PIT_KEYS: usize = 2 * 16 * COUNTS;
const HAND_KEYS: usize = 2 * COUNTS;
/// side, house×2, duty×2, nointro, block×16, must×16, variant×3.
const MISC_KEYS: usize = 1 + 2 + 2 + 1 + 16 + 16 + 3;
const TOTAL: usize = PIT_KEYS + HAND_KEYS + MISC_KEYS;

const fn make_keys() -> [u64; TOTAL] {
    let mut k = [0u64; TOTAL];
    let mut i = 0;
    let mut s = 0x0BA0_5EED_u64;
    while i < TOTAL {
        s = splitmix(s);
        k[i] = s;
        i += 1;
    }
    k
}

static KEYS: [u64; TOTAL] = make_keys();

const HAND0: usize = PIT_KEYS;
const SIDE: usize = PIT_KEYS + HAND_KEYS;
const HOUSE: usize = SIDE + 1;
const DUTY: usize = HOUSE + 2;
const NOINTRO: usize = DUTY + 2;
const BLOCK: usize = NOINTRO + 1;
const MUST: usize = BLOCK + 16;
const VARIANT: usize = MUST + 16;

/// The Zobrist key of `pos`: equal for positions that are the same for repetition
/// (NOT-3.6, everything but the ply counter).
pub fn key(pos: &Position) -> u64 {
    let mut h = KEYS[VARIANT + pos.variant().index()];
    for side in Side::BOTH {
        let s = side.index();
        let ring = pos.ring(side);
        let base = s * 16 * COUNTS;
        for (i, &c) in ring.iter().enumerate() {
            if c != 0 {
                h ^= KEYS[base + i * COUNTS + (c as usize).min(64)];
            }
        }
        h ^= KEYS[HAND0 + s * COUNTS + (pos.hand(side) as usize).min(64)];
    }
    if pos.side() == Side::North {
        h ^= KEYS[SIDE];
    }
    let f = pos.flags();
    for s in 0..2 {
        if f.house[s] {
            h ^= KEYS[HOUSE + s];
        }
        if f.duty[s] {
            h ^= KEYS[DUTY + s];
        }
    }
    if f.nointro {
        h ^= KEYS[NOINTRO];
    }
    if let Some(p) = f.block {
        h ^= KEYS[BLOCK + p.index()];
    }
    if let Some(p) = f.must {
        h ^= KEYS[MUST + p.index()];
    }
    h
}

/// A key that also depends on the ply, for rules with a ply cap (BRD-7.6), where the
/// same board can be worth a draw at one ply and a win at another.
pub fn key_with_ply(pos: &Position, with_ply: bool) -> u64 {
    let k = key(pos);
    if with_ply {
        k ^ splitmix(pos.ply() as u64 ^ 0x05EE_D0F9_11E5)
    } else {
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::{legal_moves, Rules, Variant};

    #[test]
    fn keys_differ_by_side_flags_and_hands_but_not_ply() {
        for v in Variant::ALL {
            let rules = Rules::new(v);
            let start = Position::start(&rules);
            assert_eq!(key(&start), key(&start.with_ply(17)));
            let moves = legal_moves(&start, &rules);
            let mut keys: Vec<u64> = moves.iter().map(|m| key(&m.next)).collect();
            keys.push(key(&start));
            let n = keys.len();
            keys.sort_unstable();
            keys.dedup();
            // Distinct positions (the moves lead to different boards) get distinct keys.
            assert_eq!(keys.len(), n, "{v}");
            // Flipping only the side to move changes the key.
            let mut s = start.setup();
            s.side = s.side.other();
            s.flags.nointro = false;
            let flipped = s.validate(&rules).unwrap();
            assert_ne!(key(&flipped), key(&start));
        }
    }
}
