//! Every rule option of options.md (OPT-2), each shown to change behaviour exactly as the spec
//! says. Positions are built by hand; each expected value is worked out in the comment beside
//! it from the rule text (ring indices per BRD-3.1: A1=0 … A8=7, B8=8 … B1=15; Ak faces a(9-k)).

mod common;
use bao_rules::{
    legal_moves, perft, status, DrawReason, Game, Outcome, Position, Side, Variant, WinReason,
};
use common::*;

const KIS: Variant = Variant::Kiswahili;
const KETE: Variant = Variant::Kete;
const MASAI: Variant = Variant::Kimasai;
const S: Side = Side::South;
const N: Side = Side::North;

// ---------------------------------------------------------------------------------------------
// house_lost_at (KIS-7.2, KIS-6.9, CLI-5.2)

/// Mtaji, both houses owned. South's only capture is A1R: 2 seeds into A2, A3; A3 (held 1) now
/// holds 2 and faces a6 (1 seed), so South captures it. A3 is central and a mtaji capture keeps
/// d=+1, so the seed enters at A1, which was just emptied: it holds 1 and the move ends.
fn mtaji_capture_position(r: &bao_rules::Rules) -> Position {
    let back: Vec<(String, u8)> = (1..=8)
        .flat_map(|k| [(format!("B{k}"), 3u8), (format!("b{k}"), 3u8)])
        .collect();
    let mut pits: Vec<(&str, u8)> = vec![("A1", 2), ("A3", 1), ("A5", 6), ("a6", 1), ("a5", 6)];
    pits.extend(back.iter().map(|(n, c)| (n.as_str(), *c)));
    build(r, S, [0, 0], &pits, "house:S,house:N")
}

#[test]
fn kis_7_2_house_lost_at_default_keeps_houses_in_mtaji_capture() {
    let r = rules(KIS, "-");
    let p = mtaji_capture_position(&r);
    let m = mv(&p, &r, "A1R");
    assert!(m.next.owns_house(S) && m.next.owns_house(N));
    assert_eq!(
        events(&p, &r, "A1R"),
        [
            "lift A1 2",
            "sow A2",
            "sow A3",
            "capture a6 1",
            "enter A1",
            "sow A1",
            "stop empty"
        ]
    );
}

#[test]
fn kis_7_2_house_lost_at_first_mtaji_capture_both_houses_go_before_the_move() {
    // "when a player starts a mtaji capture move, both players lose their houses before the
    // move begins"; CLI-5.2 item 1: house-lost S, then house-lost N, before the first lift.
    let r = rules(KIS, "house_lost_at=first_mtaji_capture");
    let p = mtaji_capture_position(&r);
    let m = mv(&p, &r, "A1R");
    assert!(!m.next.owns_house(S) && !m.next.owns_house(N));
    assert_eq!(m.next.to_string().split(' ').nth(4), Some("-"));
    assert_eq!(
        events(&p, &r, "A1R"),
        [
            "house-lost S",
            "house-lost N",
            "lift A1 2",
            "sow A2",
            "sow A3",
            "capture a6 1",
            "enter A1",
            "sow A1",
            "stop empty"
        ]
    );
    // The board is the same as under the default: only the flags differ.
    let d = rules(KIS, "-");
    let md = mv(&mtaji_capture_position(&d), &d, "A1R");
    assert_eq!(m.next.ring(S), md.next.ring(S));
    assert_eq!(m.next.ring(N), md.next.ring(N));
}

#[test]
fn kis_7_2_house_lost_at_first_mtaji_capture_not_on_takasa_or_namua() {
    let r = rules(KIS, "house_lost_at=first_mtaji_capture");
    // Namua capture (kis-04 position): the houses stay.
    let p = pos(
        &r,
        "kiswahili 0,0,0,0,0,0,0,0/1,0,1,8,3,2,0,0/0,0,0,0,7,0,0,0/0,0,0,0,0,0,0,0 S 21/21 house:S,house:N 0",
    );
    for m in legal_moves(&p, &r).iter() {
        assert!(m.next.owns_house(S) && m.next.owns_house(N), "{}", m.mv);
    }
}

/// South's last hand seed: A7L* puts it into A7 (3), sows A6, A5, A4; A4 was empty, so the move
/// ends (the kis-01 move A7L* with one seed in hand).
fn last_seed_position(r: &bao_rules::Rules, flags: &str) -> Position {
    build(
        r,
        S,
        [1, 43],
        &[
            ("A5", 6),
            ("A6", 2),
            ("A7", 2),
            ("a5", 6),
            ("a6", 2),
            ("a7", 2),
        ],
        flags,
    )
}

#[test]
fn kis_6_9_house_lost_at_end_of_namua_after_last_hand_seed() {
    let d = rules(KIS, "-");
    let md = mv(&last_seed_position(&d, "house:S,house:N"), &d, "A7L*");
    assert_eq!(
        md.next.to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,1,7,3,0,0/0,0,0,0,0,0,0,0 N 0/43 house:S,house:N 1"
    );
    let r = rules(KIS, "house_lost_at=end_of_namua");
    let p = last_seed_position(&r, "house:S,house:N");
    let m = mv(&p, &r, "A7L*");
    // South's hand is now empty, so he loses his house; North (43 in hand) keeps his.
    assert_eq!(
        m.next.to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,1,7,3,0,0/0,0,0,0,0,0,0,0 N 0/43 house:N 1"
    );
    // CLI-5.2 item 5: the after-move house-lost comes after the stop.
    assert_eq!(
        events(&p, &r, "A7L*"),
        [
            "place A7",
            "lift A7 3",
            "sow A6",
            "sow A5",
            "sow A4",
            "stop empty",
            "house-lost S"
        ]
    );
}

#[test]
fn opt_3_house_lost_at_end_of_namua_removes_kete_duty() {
    // OPT-3: in kete the duty needs the kuu, so it goes with it (KET-4.2).
    let r = rules(KETE, "house_lost_at=end_of_namua");
    let p = last_seed_position(&r, "house:S,house:N,duty:S,duty:N");
    let m = mv(&p, &r, "A7L*");
    assert_eq!(m.next.to_string().split(' ').nth(4), Some("house:N,duty:N"));
}

// ---------------------------------------------------------------------------------------------
// house_functional_min (KIS-4.4, KIS-7.3)

#[test]
fn kis_4_4_house_functional_min_5_bars_a_five_seed_house() {
    // South owns A5 with 5 seeds and has A6 with 2; nothing faces them (a4, a3 empty), so namua
    // takasa. At the default 6 the house is not functional: an ordinary pit, both may be chosen.
    let pits = [("A5", 5), ("A6", 2), ("a5", 6), ("a6", 2), ("a7", 2)];
    let d = rules(KIS, "-");
    let p = build(&d, S, [10, 37], &pits, "house:S,house:N");
    assert_eq!(names(&p, &d), ["A5L*", "A5R*", "A6L*", "A6R*"]);
    // Choosing the non-functional house lifts all 6 seeds and destroys it (KIS-4.4, KIS-7.2):
    // A4, A3, A2, A1, B1, B2; B2 was empty.
    let m = mv(&p, &d, "A5L*");
    assert_eq!(
        m.next.to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/1,1,1,1,0,2,0,0/1,1,0,0,0,0,0,0 N 9/37 house:N 1"
    );
    // With the threshold at 5 the house is functional and barred (it is not the only pit in F).
    let r = rules(KIS, "house_functional_min=5");
    let p = build(&r, S, [10, 37], &pits, "house:S,house:N");
    assert_eq!(names(&p, &r), ["A6L*", "A6R*"]);
}

#[test]
fn kis_7_4_house_functional_min_changes_the_namua_house_stop() {
    // South: A2 (2) and his owned house A5 (5); nothing faces them (a7, a4 empty). A2R* puts
    // the hand seed in (3) and sows A3, A4, A5: the lap ends in the house, which now holds 6.
    //   house_functional_min=6: 6 >= 6, the namua takasa stops in the house (KIS-7.4).
    //   house_functional_min=7: 6 < 7, the lap relays: lift A5 (6), the house is lost, and
    //   the seeds go to A6, A7, A8, B8, B7, B6 (B6 empty: end).
    let pits = [("A2", 2), ("A5", 5), ("a5", 6), ("a6", 2), ("a8", 2)];
    let d = rules(KIS, "-");
    let p = build(&d, S, [10, 37], &pits, "house:S,house:N");
    assert_eq!(
        events(&p, &d, "A2R*"),
        [
            "place A2",
            "lift A2 3",
            "sow A3",
            "sow A4",
            "sow A5",
            "stop house"
        ]
    );
    let r = rules(KIS, "house_functional_min=7");
    let p = build(&r, S, [10, 37], &pits, "house:S,house:N");
    // Relay: 6 seeds from A5 into A6, A7, A8, B8, B7, B6; B6 was empty.
    assert_eq!(
        events(&p, &r, "A2R*"),
        [
            "place A2",
            "lift A2 3",
            "sow A3",
            "sow A4",
            "sow A5",
            "lift A5 6",
            "house-lost S",
            "sow A6",
            "sow A7",
            "sow A8",
            "sow B8",
            "sow B7",
            "sow B6",
            "stop empty"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// lone_house_tax (KIS-4.5, KET-3)

fn lone_house(r: &bao_rules::Rules) -> Position {
    // South's only front pit is his owned house with 6 seeds; a4 (facing A5) is empty.
    build(
        r,
        S,
        [20, 28],
        &[("A5", 6), ("a5", 6), ("a6", 2), ("a7", 2)],
        "house:S,house:N",
    )
}

#[test]
fn kis_4_5_lone_house_tax_functional_taxes_six() {
    // Default: 6 >= house_functional_min, so the tax: 7 after the hand seed, two lifted into
    // A6, A7 (A7 empty: end); the house keeps 5 and stays owned.
    let r = rules(KIS, "-");
    let p = lone_house(&r);
    let m = mv(&p, &r, "A5R*");
    assert!(m.mv.is_tax());
    assert_eq!(
        m.next.to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,5,1,1,0/0,0,0,0,0,0,0,0 N 19/28 house:S,house:N 1"
    );
    assert_eq!(
        events(&p, &r, "A5R*"),
        ["place A5", "tax A5 2", "sow A6", "sow A7", "stop empty"]
    );
}

#[test]
fn ket_3_lone_house_tax_keep_min_sows_six_in_full() {
    // keep_min taxes only from min+1 = 7: the 7 seeds (with the hand seed) are all sown,
    // A6, A7, A8, B8, B7, B6, B5 (B5 empty), and the house is destroyed.
    let r = rules(KIS, "lone_house_tax=keep_min");
    let p = lone_house(&r);
    let m = mv(&p, &r, "A5R*");
    assert!(!m.mv.is_tax());
    assert_eq!(
        m.next.to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,0,1,1,1/0,0,0,0,1,1,1,1 N 19/28 house:N 1"
    );
    assert_eq!(
        events(&p, &r, "A5R*")[..3],
        ["place A5", "lift A5 7", "house-lost S"]
    );
}

#[test]
fn ket_3_kete_lone_house_tax_functional_taxes_the_kuu_of_six() {
    // Kete's default is keep_min (fixture ket-02 destroys a kuu of six); with functional the
    // same kuu is taxed as in kiswahili.
    let d = rules(KETE, "-");
    let pd = lone_house(&d);
    assert!(!mv(&pd, &d, "A5L*").mv.is_tax());
    let r = rules(KETE, "lone_house_tax=functional");
    let p = lone_house(&r);
    let m = mv(&p, &r, "A5L*");
    assert!(m.mv.is_tax());
    // Tax to the left: A4, A3 (A3 empty: end). The house keeps 5.
    assert_eq!(
        m.next.to_string(),
        "kete 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,1,1,5,0,0,0/0,0,0,0,0,0,0,0 N 19/28 house:S,house:N 1"
    );
}

// ---------------------------------------------------------------------------------------------
// namua_singletons (KIS-4.6)

#[test]
fn kis_4_6_namua_singletons_owned_house_allows_singletons() {
    // South owns a 3-seed house (not functional), A1 holds 1, A6 holds 2; nothing faces them.
    let pits = [
        ("A1", 1),
        ("A5", 3),
        ("A6", 2),
        ("a5", 6),
        ("a6", 2),
        ("a7", 2),
    ];
    // functional_house (default): no functional house, so r needs 2 seeds: A1 is barred.
    let d = rules(KIS, "-");
    let p = build(&d, S, [20, 28], &pits, "house:S,house:N");
    assert_eq!(names(&p, &d), ["A5L*", "A5R*", "A6L*", "A6R*"]);
    // owned_house (Donkers 2001): he owns his house, so singletons are allowed.
    let r = rules(KIS, "namua_singletons=owned_house");
    let p = build(&r, S, [20, 28], &pits, "house:S,house:N");
    assert_eq!(
        names(&p, &r),
        ["A1L*", "A1R*", "A5L*", "A5R*", "A6L*", "A6R*"]
    );
    // Without the house the restriction applies again under owned_house.
    let p = build(&r, S, [20, 28], &pits, "house:N");
    assert_eq!(names(&p, &r), ["A5L*", "A5R*", "A6L*", "A6R*"]);
}

// ---------------------------------------------------------------------------------------------
// mtaji_house_stop (KIS-7.6, KIS-6.3 rule 4, NOT-1.3)

/// Mtaji. South's only capture is B1L: 2 seeds into A1, A2; A2 (held 1) holds 2 and faces a7
/// (5), captured. A2 is a kimbi: enter A1, d=+1: A1, A2, A3, A4, A5. The owned house now holds
/// 6 and a4 is empty: the lap ends in the house with 6 >= 6 seeds.
fn mtaji_house_position(r: &bao_rules::Rules) -> Position {
    let mut pits: Vec<(String, u8)> = vec![
        ("B1".into(), 2),
        ("A2".into(), 1),
        ("A5".into(), 5),
        ("a7".into(), 5),
        ("a1".into(), 4),
        ("a2".into(), 4),
        ("a3".into(), 4),
        ("a8".into(), 7),
    ];
    pits.extend((1..=8).map(|k| (format!("b{k}"), 4)));
    let pits: Vec<(&str, u8)> = pits.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    build(r, S, [0, 0], &pits, "house:S")
}

const MTAJI_SAFARI: &str =
    "kiswahili 4,4,4,4,4,4,4,4/7,0,0,0,0,4,4,4/2,3,1,1,0,1,1,1/0,0,0,0,0,1,1,1 N 0/0 - 1";

#[test]
fn kis_7_6_mtaji_house_stop_false_safari_is_compulsory() {
    // Default: no choice in mtaji; the lap relays: lift A5 (6), house lost, A6, A7, A8, B8, B7,
    // B6 (B6 empty): one move, written without '+'.
    let r = rules(KIS, "-");
    let p = mtaji_house_position(&r);
    assert_eq!(names(&p, &r), ["B1L"]);
    let m = mv(&p, &r, "B1L");
    assert_eq!(m.next.to_string(), MTAJI_SAFARI);
    let ev = events(&p, &r, "B1L");
    assert!(!ev.contains(&"safari".to_string()));
    assert_eq!(ev[9..12], ["sow A5", "lift A5 6", "house-lost S"]);
}

#[test]
fn kis_7_6_mtaji_house_stop_true_gives_two_moves() {
    let r = rules(KIS, "mtaji_house_stop=true");
    let p = mtaji_house_position(&r);
    // The choice point makes two moves: B1L stops in the house, B1L+ plays it.
    assert_eq!(names(&p, &r), ["B1L", "B1L+"]);
    let stop = mv(&p, &r, "B1L");
    assert_eq!(
        stop.next.to_string(),
        "kiswahili 4,4,4,4,4,4,4,4/7,0,0,0,0,4,4,4/2,3,1,1,6,0,0,0/0,0,0,0,0,0,0,0 N 0/0 house:S 1"
    );
    assert_eq!(
        events(&p, &r, "B1L"),
        [
            "lift B1 2",
            "sow A1",
            "sow A2",
            "capture a7 5",
            "enter A1",
            "sow A1",
            "sow A2",
            "sow A3",
            "sow A4",
            "sow A5",
            "stop house"
        ]
    );
    let plus = mv(&p, &r, "B1L+");
    assert!(plus.mv.is_safari());
    assert_eq!(plus.next.to_string(), MTAJI_SAFARI);
    let ev = events(&p, &r, "B1L+");
    assert_eq!(ev[9..13], ["sow A5", "safari", "lift A5 6", "house-lost S"]);
}

// ---------------------------------------------------------------------------------------------
// takasia, takasia_excludes_singletons, takasia_house_protection (KIS-8)

/// K.I.B.A. E30 (KIS-14.3, fixture kis-25): South's A7L* blocks a4.
const E30: &str =
    "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0";

#[test]
fn kis_8_1_takasia_false_never_blocks() {
    let d = rules(KIS, "-");
    let m = mv(&pos(&d, E30), &d, "A7L*");
    assert_eq!(m.next.block().map(|s| s.to_string()), Some("a4".into()));
    let r = rules(KIS, "takasia=false");
    let m = mv(&pos(&r, E30), &r, "A7L*");
    // A7's 2 seeds go to A6, A5; no flag at all.
    assert_eq!(
        m.next.to_string(),
        "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 N 0/0 - 1"
    );
    let ev = events(&pos(&r, E30), &r, "A7L*");
    assert!(!ev.iter().any(|e| e.starts_with("block")));
}

/// South (mtaji, no capture) must play A1, his only front pit with 2 seeds; as a lone kichwa only
/// towards the centre: A1R* into A2, A3 (A3 empty: end). Afterwards B1 (3 seeds, L: B1→A1→A2→A3)
/// ends in A3 (1 seed) facing a6: South's single threat. North has no capture move (singletons
/// and a 29-seed pit, KIS-5.7). Target a6 holds one seed; North also has a1, so a6 is not his
/// only front pit. The 28/29-seed pits are ballast: never a capture (KIS-5.2 rule 1).
fn singleton_target(r: &bao_rules::Rules) -> Position {
    build(
        r,
        S,
        [0, 0],
        &[
            ("A1", 2),
            ("B1", 3),
            ("B8", 28),
            ("a1", 1),
            ("a6", 1),
            ("b8", 29),
        ],
        "-",
    )
}

#[test]
fn kis_8_3_takasia_excludes_singletons() {
    let d = rules(KIS, "-");
    let p = singleton_target(&d);
    assert_eq!(names(&p, &d), ["A1R*"]);
    let m = mv(&p, &d, "A1R*");
    assert_eq!(
        m.next.to_string(),
        "kiswahili 29,0,0,0,0,0,0,0/0,0,1,0,0,0,0,1/0,1,1,0,0,0,0,0/3,0,0,0,0,0,0,28 N 0/0 block:a6 1"
    );
    assert_eq!(
        events(&p, &d, "A1R*").last().map(String::as_str),
        Some("block a6")
    );
    let r = rules(KIS, "takasia_excludes_singletons=true");
    let m = mv(&singleton_target(&r), &r, "A1R*");
    assert_eq!(m.next.block(), None);
    assert_eq!(m.next.to_string().split(' ').nth(4), Some("-"));
}

#[test]
fn kis_8_6_lap_of_29_ending_in_the_blocked_pit_stops() {
    // Continuing the default line: North can only play b8 (29 seeds, KIS-5.4 back row). b8L*
    // goes +1: b7..b1 (7), a1..b8 (16), a1..a6 (6) = 29 seeds, ending in a6 (1 + 2 = 3 seeds),
    // the blocked pit: the move ends there (KIS-8.6). Every pit got one seed, b7..b1 and a1..a6
    // two.
    let d = rules(KIS, "-");
    let mut g = Game::new(singleton_target(&d), d);
    g.play_text("A1R*").unwrap();
    // No front pit of North holds 2 seeds (KIS-5.4): only b8 can be played.
    assert!(g
        .legal_moves()
        .iter()
        .all(|m| m.mv.to_string().starts_with("b8")));
    let m = g.play_text("b8L*").unwrap();
    assert_eq!(
        m.next.to_string(),
        "kiswahili 1,2,2,2,2,2,2,2/1,1,3,2,2,2,2,3/0,1,1,0,0,0,0,0/3,0,0,0,0,0,0,28 S 0/0 - 2"
    );
}

#[test]
fn kis_8_8_blocker_must_capture_sets_must_after_a_move_under_block() {
    // The same line under first_capture: North's move was made under block:a6, so South (who
    // blocked) gets must:a6 (KIS-6.9 step 4). South can then take a6 with B1L only.
    let r = rules(KIS, "blocker_must_capture=first_capture");
    let mut g = Game::new(singleton_target(&r), r);
    g.play_text("A1R*").unwrap();
    let p = *g.position();
    assert_eq!(
        events(&p, &r, "b8L*")[30..],
        ["stop block", "must a6"],
        "29 sows after the lift, then the stop and the after-move must"
    );
    let m = g.play_text("b8L*").unwrap();
    assert_eq!(m.next.must().map(|s| s.to_string()), Some("a6".into()));
    assert!(m.next.to_string().contains(" must:a6 "));
}

/// Like `singleton_target`, but the single target is North's owned house a5 (3 seeds, below
/// the threshold): South's A2R* fills A3, A4; then B1L (4 seeds: A1, A2, A3, A4) ends in A4
/// facing a5. North has no capture move: a5 (3) ends in a2 or a8, both empty; a1 (2) in a3
/// (empty) or the back row. a1 holds 2, so a5 is not North's only front pit with more than one
/// seed (KIS-8.3 third exclusion).
fn house_target(r: &bao_rules::Rules) -> Position {
    build(
        r,
        S,
        [0, 0],
        &[
            ("A2", 2),
            ("B1", 4),
            ("B8", 26),
            ("a5", 3),
            ("a1", 2),
            ("b8", 27),
        ],
        "house:N",
    )
}

#[test]
fn kis_7_7_takasia_house_protection_owned_protects_the_house() {
    let d = rules(KIS, "-");
    let m = mv(&house_target(&d), &d, "A2R*");
    assert_eq!(
        m.next.to_string(),
        "kiswahili 27,0,0,0,0,0,0,0/0,0,0,3,0,0,0,2/0,0,1,1,0,0,0,0/4,0,0,0,0,0,0,26 N 0/0 house:N 1"
    );
}

#[test]
fn kis_7_7_takasia_house_protection_functional_blocks_a_small_house() {
    let r = rules(KIS, "takasia_house_protection=functional");
    let m = mv(&house_target(&r), &r, "A2R*");
    assert_eq!(
        m.next.to_string(),
        "kiswahili 27,0,0,0,0,0,0,0/0,0,0,3,0,0,0,2/0,0,1,1,0,0,0,0/4,0,0,0,0,0,0,26 N 0/0 house:N,block:a5 1"
    );
}

// ---------------------------------------------------------------------------------------------
// takasia_house_first_lap_exception (KIS-8.7)

/// South moves under block:A6 and plays his owned house A5 (17 seeds: never a capture). A5R*
/// sows A6…B1, A1…A5 (16 seeds, one each) and the 17th into A6 again: the first lap ends in the
/// blocked A6 with 1 + 2 = 3 seeds. North's a3L (2 seeds into a2, a1) is a capture move after
/// either outcome (a1 faces A8, occupied), so no takasia follows.
const FIRST_LAP: &str =
    "kiswahili 20,23,0,0,0,0,0,0/0,0,0,0,0,2,0,1/0,0,0,0,17,1,0,0/0,0,0,0,0,0,0,0 S 0/0 house:S,block:A6 0";

#[test]
fn kis_8_7_first_lap_exception_on_relays_through_the_block() {
    // Default: the first lap from the owned house does not stop in t. Ring after lap 1:
    // all 1 except A6 = 3. Relays (each lap of 2 or 3 seeds, +1): A6(3)→A7,A8,B8; B8(2)→B7,B6;
    // B6→B5,B4; B4→B3,B2; B2→B1,A1; A1→A2,A3; A3→A4,A5; A5(2)→A6,A7 (A6 was emptied: 1, not
    // the last pit); A7(3)→A8,B8,B7; B7(3)→B6,B5,B4; B4 was emptied: 1, end.
    let r = rules(KIS, "-");
    let p = pos(&r, FIRST_LAP);
    let m = mv(&p, &r, "A5R*");
    assert_eq!(
        m.next.to_string(),
        "kiswahili 20,23,0,0,0,0,0,0/0,0,0,0,0,2,0,1/0,2,0,2,0,1,0,3/2,0,2,1,3,1,0,1 N 0/0 - 1"
    );
    let ev = events(&p, &r, "A5R*");
    assert_eq!(ev.iter().filter(|e| e.starts_with("lift")).count(), 11);
    assert_eq!(ev.last().map(String::as_str), Some("stop empty"));
}

#[test]
fn kis_8_7_first_lap_exception_off() {
    // Donkers 2001: no exception; the first lap stops in the blocked A6 (KIS-8.6).
    let r = rules(KIS, "takasia_house_first_lap_exception=false");
    let p = pos(&r, FIRST_LAP);
    let m = mv(&p, &r, "A5R*");
    assert_eq!(
        m.next.to_string(),
        "kiswahili 20,23,0,0,0,0,0,0/0,0,0,0,0,2,0,1/1,1,1,1,1,3,1,1/1,1,1,1,1,1,1,1 N 0/0 - 1"
    );
    let ev = events(&p, &r, "A5R*");
    assert_eq!(ev[..2], ["lift A5 17", "house-lost S"]);
    assert_eq!(ev.len(), 2 + 17 + 1);
    assert_eq!(ev.last().map(String::as_str), Some("stop block"));
}

// ---------------------------------------------------------------------------------------------
// blocker_must_capture (KIS-8.8, KET-5, OPT-1.2)

/// South (mtaji) has three capture moves:
/// * B1L (4 seeds: A1..A4): A4 faces a5 (2): first capture a5 = t. (Then a7 via A2, and a relay.)
/// * B2L (3 seeds: B1, A1, A2): A2 faces a7 (4): first capture a7; the 4 seeds enter at A1
///   (kimbi) and end in A4 (now 2) facing a5: a later capture of t.
/// * B7R (2 seeds: B8, A8): A8 faces a1 (1): captures a1 only; the seed enters at A8 (3), a1 is
///   then empty, A8 relays (-1) into A7, A6, A5: A5 empty, end. Never t.
fn must_board() -> Vec<(&'static str, u8)> {
    vec![
        ("B1", 4),
        ("B2", 3),
        ("B7", 2),
        ("A2", 1),
        ("A4", 1),
        ("A8", 1),
        ("a5", 2),
        ("a7", 4),
        ("a1", 1),
        ("b8", 20),
        ("b7", 25),
    ]
}

#[test]
fn kis_8_8_blocker_must_capture_first_capture_keeps_only_first_captures_of_t() {
    let r = rules(KIS, "blocker_must_capture=first_capture");
    let p = build(&r, S, [0, 0], &must_board(), "must:a5");
    assert_eq!(names(&p, &r), ["B1L"]);
    // B1L: A1..A4 (A4 = 2) capture a5 (2) → A1, A2 (A2 = 3, faces a7) capture a7 (4) → A1..A4
    // (A4 = 3, a5 empty) relay A4 → A5, A6, A7 (A7 empty): end.
    assert_eq!(
        mv(&p, &r, "B1L").next.to_string(),
        "kiswahili 20,25,0,0,0,0,0,0/0,0,0,0,0,0,0,1/3,4,2,0,1,1,1,1/0,3,0,0,0,0,2,0 N 0/0 - 1"
    );
    // Kete has first_capture by default (KET-5).
    let k = rules(KETE, "-");
    let p = build(&k, S, [0, 0], &must_board(), "must:a5");
    assert_eq!(names(&p, &k), ["B1L"]);
}

#[test]
fn kis_8_8_blocker_must_capture_any_capture_keeps_captures_of_t_anywhere() {
    let r = rules(KIS, "blocker_must_capture=any_capture");
    let p = build(&r, S, [0, 0], &must_board(), "must:a5");
    assert_eq!(names(&p, &r), ["B1L", "B2L"]);
    let b2 = mv(&p, &r, "B2L");
    assert_eq!(
        b2.first_capture().map(|p| p.name(N).to_string()),
        Some("a7".into())
    );
    // B2L: a7 first, then a5 (2 seeds into A1, A2; A2 = 4, a7 empty): relay A2 → A3..A6.
    assert_eq!(
        b2.next.to_string(),
        "kiswahili 20,25,0,0,0,0,0,0/0,0,0,0,0,0,0,1/3,0,2,3,1,1,0,1/5,0,0,0,0,0,2,0 N 0/0 - 1"
    );
}

#[test]
fn kis_8_8_blocker_must_capture_off_and_no_effect_cases() {
    // Without the flag all three captures are legal.
    let r = rules(KIS, "blocker_must_capture=first_capture");
    let p = build(&r, S, [0, 0], &must_board(), "-");
    assert_eq!(names(&p, &r), ["B1L", "B2L", "B7R"]);
    // A must flag on a pit no move captures has no effect.
    let p = build(&r, S, [0, 0], &must_board(), "must:a2");
    assert_eq!(names(&p, &r), ["B1L", "B2L", "B7R"]);
    // Under off (the kiswahili default) a must flag is not allowed at all (OPT-1.2, NOT-4.2).
    let off = rules(KIS, "-");
    let t = text(KIS, S, [0, 0], &must_board(), "must:a5", 0);
    let e = Position::parse(&t, &off).unwrap_err();
    assert_eq!(e.kind.as_str(), "flags");
    let off = rules(KETE, "blocker_must_capture=off");
    let t = text(KETE, S, [0, 0], &must_board(), "must:a5", 0);
    assert_eq!(
        Position::parse(&t, &off).unwrap_err().kind.as_str(),
        "flags"
    );
    // And a move made under block sets no must flag under off.
    let d = rules(KIS, "-");
    let mut g = Game::new(singleton_target(&d), d);
    g.play_text("A1R*").unwrap();
    let m = g.play_text("b8L*").unwrap();
    assert_eq!(m.next.must(), None);
}

// ---------------------------------------------------------------------------------------------
// first_takasa_from_kuu (KET-4)

fn kuu_duty_board() -> Vec<(&'static str, u8)> {
    // Mtaji, no capture: A1 (2) ends in A3 (empty) or the back row; A5 (6) in the back row.
    vec![
        ("A1", 2),
        ("A5", 6),
        ("B8", 20),
        ("a1", 1),
        ("b8", 20),
        ("b7", 15),
    ]
}

#[test]
fn ket_4_first_takasa_from_kuu_true_only_kuu_moves() {
    let r = rules(KETE, "-");
    let p = build(&r, S, [0, 0], &kuu_duty_board(), "house:S,duty:S");
    assert_eq!(names(&p, &r), ["A5L*", "A5R*"]);
    // The kuu is lifted (destroyed), and the duty ends with it (KET-4.2).
    let m = mv(&p, &r, "A5R*");
    assert!(!m.next.owns_house(S));
    assert!(!m.next.flags().duty[0]);
}

#[test]
fn ket_4_first_takasa_from_kuu_false_front_row_first_as_in_kiswahili() {
    let r = rules(KETE, "first_takasa_from_kuu=false");
    let p = build(&r, S, [0, 0], &kuu_duty_board(), "house:S");
    assert_eq!(names(&p, &r), ["A1L*", "A1R*", "A5L*", "A5R*"]);
    // The start position has no duty flags (NOT-3.5), and duty flags are refused (NOT-4.2).
    assert_eq!(
        Position::start(&r).to_string(),
        "kete 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0"
    );
    let t = text(KETE, S, [0, 0], &kuu_duty_board(), "house:S,duty:S", 0);
    assert_eq!(Position::parse(&t, &r).unwrap_err().kind.as_str(), "flags");
}

// ---------------------------------------------------------------------------------------------
// front_row_empty (BRD-7.1 step 3, BRD-7.2, KIM-8.2)

#[test]
fn kim_8_2_front_row_empty_end_of_move_loses_illegal_removes() {
    // Kimasai phase 2. South: A8 (2) → B8, B7 (B7 empty): his front row is empty, he loses
    // (result N). B1 (1) → A1 (empty): an ordinary move. North keeps a1 → a2 as a legal move.
    let pits = [
        ("A8", 2),
        ("B1", 1),
        ("a1", 1),
        ("b8", 15),
        ("b7", 15),
        ("b6", 15),
        ("b5", 15),
    ];
    let d = rules(MASAI, "-");
    let p = build(&d, S, [0, 0], &pits, "-");
    let ls = legal_moves(&p, &d);
    let got: Vec<(String, String, String)> = ls
        .iter()
        .map(|m| {
            (
                m.mv.to_string(),
                m.next.to_string(),
                m.outcome(&d).token().to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "A8".to_string(),
                "kimasai 15,15,15,15,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/1,0,0,0,0,0,1,1 N 0/0 - 1"
                    .to_string(),
                "N".to_string()
            ),
            (
                "B1".to_string(),
                "kimasai 15,15,15,15,0,0,0,0/0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0 N 0/0 - 1"
                    .to_string(),
                "-".to_string()
            )
        ]
    );
    let r = rules(MASAI, "front_row_empty=illegal");
    let p = build(&r, S, [0, 0], &pits, "-");
    assert_eq!(names(&p, &r), ["B1"]);
}

#[test]
fn brd_7_1_front_row_empty_illegal_checks_every_lap_not_only_the_end() {
    // A8 (2) → B8, B7: B7 (6) now holds 7, relay: B6, B5, B4, B3, B2, B1, A1 (A1 empty, end).
    // At the end of the move A1 holds a cow, so under the default A8 is an ordinary move; but
    // after its first lap South's front row was empty, so under `illegal` it is removed.
    let pits = [
        ("A8", 2),
        ("B7", 6),
        ("a1", 1),
        ("b8", 14),
        ("b7", 14),
        ("b6", 14),
        ("b5", 13),
    ];
    let d = rules(MASAI, "-");
    let p = build(&d, S, [0, 0], &pits, "-");
    assert_eq!(names(&p, &d), ["A8", "B7"]);
    let m = mv(&p, &d, "A8");
    assert_eq!(
        m.next.to_string(),
        "kimasai 14,14,14,13,0,0,0,0/0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0/1,1,1,1,1,1,0,1 N 0/0 - 1"
    );
    assert_eq!(m.outcome(&d), Outcome::Ongoing);
    let r = rules(MASAI, "front_row_empty=illegal");
    let p = build(&r, S, [0, 0], &pits, "-");
    assert_eq!(names(&p, &r), ["B7"]);
}

// ---------------------------------------------------------------------------------------------
// never_ending (BRD-6.3, BRD-6.4, BRD-7.4, OPT-3)

/// Fixture kis-32: A7R* is never-ending. A namua takasa without houses is pure sowing in
/// South's ring, direction +1. Its first lap (hand seed: A7 = 3) sows A8, B8, B7; B7 (2) now
/// holds 3. The relay state after that first lap is the first state to recur (it recurs after
/// the 97th lap: an independent 20-line simulation of BRD-5.2/5.6/6.1 in the test notes), so by
/// BRD-6.4 the move stops with the board as it was after the first lap:
/// South A 1,0,2,1,0,1,0,2 and B 2,0,1,2,0,1,3,1, hand 12.
const KIS32: &str =
    "kiswahili 2,1,2,3,2,4,0,3/0,2,0,0,3,0,0,0/1,0,2,1,0,1,2,1/2,0,1,2,0,1,2,0 S 13/13 - 0";
const KIS32_STOP: &str =
    "kiswahili 2,1,2,3,2,4,0,3/0,2,0,0,3,0,0,0/1,0,2,1,0,1,0,2/2,0,1,2,0,1,3,1 N 12/13 - 1";

#[test]
fn brd_6_3_never_ending_illegal_removes_the_move() {
    let r = rules(KIS, "-");
    assert_eq!(names(&pos(&r, KIS32), &r), ["A3L*", "A3R*", "A7L*"]);
}

#[test]
fn brd_6_4_never_ending_draw_stop_position_and_events() {
    let r = rules(KIS, "never_ending=draw");
    let p = pos(&r, KIS32);
    assert_eq!(names(&p, &r), ["A3L*", "A3R*", "A7L*", "A7R*"]);
    let m = mv(&p, &r, "A7R*");
    assert!(m.is_never_ending());
    assert_eq!(m.next.to_string(), KIS32_STOP);
    assert_eq!(m.outcome(&r), Outcome::Draw(DrawReason::NeverEnding));
    let ev = events(&p, &r, "A7R*");
    assert_eq!(
        ev[..6],
        [
            "place A7",
            "lift A7 3",
            "sow A8",
            "sow B8",
            "sow B7",
            "lift B7 3"
        ]
    );
    // 97 laps, then the stop before the 98th lift, then the result event.
    assert_eq!(ev.iter().filter(|e| e.starts_with("lift")).count(), 97);
    assert_eq!(
        ev[ev.len() - 2..],
        ["stop never_ending", "draw never_ending"]
    );
    // The other moves are unaffected by the option.
    let d = rules(KIS, "-");
    for name in ["A3L*", "A3R*", "A7L*"] {
        assert_eq!(mv(&p, &r, name).next, mv(&pos(&d, KIS32), &d, name).next);
    }
}

#[test]
fn brd_6_3_never_ending_mover_loses() {
    let r = rules(KIS, "never_ending=mover_loses");
    let p = pos(&r, KIS32);
    let m = mv(&p, &r, "A7R*");
    assert_eq!(m.next.to_string(), KIS32_STOP);
    assert_eq!(m.outcome(&r), Outcome::Win(N, WinReason::NeverEnding));
    let ev = events(&p, &r, "A7R*");
    assert_eq!(
        ev[ev.len() - 2..],
        ["stop never_ending", "win N never_ending"]
    );
    // The game is over after it (Game applies the move result).
    let mut g = Game::new(p, r);
    g.play_text("A7R*").unwrap();
    assert_eq!(g.outcome().token(), "N");
    assert!(g.legal_moves().is_empty());
}

#[test]
fn cli_4_perft_counts_a_never_ending_move_but_does_not_extend_it() {
    // perft(P, 1) counts moves; at depth 2 a move whose result is not '-' adds 0.
    let d = rules(KIS, "-");
    let r = rules(KIS, "never_ending=draw");
    let p = pos(&r, KIS32);
    assert_eq!(perft(&p, &r, 1), perft(&pos(&d, KIS32), &d, 1) + 1);
    // Depth 2 follows CLI-4 literally: the drawn A7R* adds 0, the others their depth-1 counts.
    let by_def: u64 = legal_moves(&p, &r)
        .iter()
        .map(|m| {
            if m.outcome(&r).is_over() {
                0
            } else {
                perft(&m.next, &r, 1)
            }
        })
        .sum();
    assert_eq!(perft(&p, &r, 2), by_def);
}

// ---------------------------------------------------------------------------------------------
// repetition (BRD-7.5)

/// The kimasai staircase cycle (tests/data/kimasai-staircase.txt; tests/repetition.rs goes
/// through it ply by ply): no move of it captures, and the position recurs after 64 plies.
#[path = "data/staircase.rs"]
mod staircase;

#[test]
fn brd_7_5_repetition_threefold_draw_ends_the_game_and_none_plays_on() {
    let round = staircase::round();
    for (opts, after_two_rounds) in [
        ("-", Outcome::Draw(DrawReason::Repetition)),
        (
            "repetition=threefold_draw",
            Outcome::Draw(DrawReason::Repetition),
        ),
        ("repetition=none", Outcome::Ongoing),
    ] {
        let r = rules(MASAI, opts);
        let mut game = Game::new(pos(&r, staircase::start()), r);
        for (i, m) in round.iter().chain(&round).enumerate() {
            assert_eq!(
                game.outcome(),
                Outcome::Ongoing,
                "{opts}: before ply {}",
                i + 1
            );
            game.play_text(m).unwrap();
        }
        // Third occurrence of the first position (plies 0, 64 and 128).
        assert!(game.position().same_as(&pos(&r, staircase::start())));
        assert_eq!(game.outcome(), after_two_rounds, "{opts}");
        // The rule needs history: the position on its own is not drawn (BRD-7.3).
        assert_eq!(status(game.position(), &r), Outcome::Ongoing);
    }
}

// ---------------------------------------------------------------------------------------------
// max_plies (BRD-7.3 step 4, BRD-7.6)

#[test]
fn brd_7_6_max_plies_draws_at_the_cap() {
    let r = rules(KIS, "max_plies=1");
    let start = Position::start(&r);
    assert_eq!(status(&start, &r), Outcome::Ongoing); // ply 0 < 1
    for m in legal_moves(&start, &r).iter() {
        assert_eq!(
            m.outcome(&r),
            Outcome::Draw(DrawReason::MaxPlies),
            "{}",
            m.mv
        );
    }
    let ev = events(&start, &r, "A6L*");
    assert_eq!(ev.last().map(String::as_str), Some("draw max_plies"));
    // perft: depth 1 = 4 moves (counted), depth 2 = 0 (none is extended).
    assert_eq!(perft(&start, &r, 1), 4);
    assert_eq!(perft(&start, &r, 2), 0);
    let r2 = rules(KIS, "max_plies=2");
    assert_eq!(perft(&start, &r2, 2), 14); // fixture perft-kiswahili depth 2
    assert_eq!(perft(&start, &r2, 3), 0);
    // A position already at the cap is over: no moves are listed by `bao moves`.
    let p = pos(&r2, "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 2");
    assert_eq!(status(&p, &r2), Outcome::Draw(DrawReason::MaxPlies));
}

#[test]
fn brd_7_3_a_win_takes_precedence_over_max_plies() {
    // Fixture tr-08 (bao hamna by A1L+) at ply 1; with max_plies=2 the move reaches the cap,
    // but North's empty front row (step 2) comes before the cap (step 4).
    let t = "kiswahili 0,0,0,0,0,0,0,0/1,2,2,16,0,0,2,0/2,0,0,0,14,0,0,1/0,0,0,0,0,0,0,0 S 12/12 house:S,house:N 1";
    let r = rules(KIS, "max_plies=2");
    let m = mv(&pos(&r, t), &r, "A1L+");
    assert_eq!(m.outcome(&r), Outcome::Win(S, WinReason::FrontRow));
}

// ---------------------------------------------------------------------------------------------
// intro_pits, no_intro, capture_compulsory (KIM-5, KIM-6)

#[test]
fn kim_5_2_intro_pits_front_only() {
    // Phase 1 (reserves 27/27), no nointro. South's occupied pits: A1 and B8.
    // A1: cow in (2), A2, A3 (A3 empty: end). B8: cow in (2), B7, B6 (end).
    let pits = [
        ("A1", 1),
        ("B8", 1),
        ("a1", 1),
        ("a2", 1),
        ("a3", 1),
        ("a4", 1),
        ("a5", 1),
        ("a6", 1),
        ("a7", 1),
        ("a8", 1),
    ];
    let d = rules(MASAI, "-");
    let p = build(&d, S, [27, 27], &pits, "-");
    assert_eq!(names(&p, &d), ["A1", "B8"]);
    let r = rules(MASAI, "intro_pits=front_only");
    let p = build(&r, S, [27, 27], &pits, "-");
    assert_eq!(names(&p, &r), ["A1"]);
    // In phase 2 every occupied pit may be played again (KIM-6.1).
    let pits2 = [
        ("A1", 1),
        ("B8", 1),
        ("a1", 1),
        ("b8", 16),
        ("b7", 16),
        ("b6", 16),
        ("b5", 13),
    ];
    let p = build(&r, S, [0, 0], &pits2, "-");
    assert_eq!(names(&p, &r), ["A1", "B8"]);
}

const MASAI_AFTER_A1: &str =
    "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/0,0,2,0,2,0,2,0/0,0,0,0,0,0,1,1 N 24/24";

#[test]
fn kim_5_1_no_intro_game_first_move_default() {
    // KIM-11.1: A1 without a cow: A2 (2) → A3, A4 → A5, A6 → A7, A8 → B8, B7 (end).
    let r = rules(MASAI, "-");
    let m = mv(&Position::start(&r), &r, "A1");
    assert_eq!(m.next.to_string(), format!("{MASAI_AFTER_A1} - 1"));
    // North's first move adds a cow: a1 (2) → a2, a3 → a4, a5 → a6, a7 → a8, b8 (end).
    let n = mv(&m.next, &r, "a1");
    assert_eq!(
        n.next.to_string(),
        "kimasai 1,0,0,0,0,0,0,0/2,0,2,0,2,0,2,0/0,0,2,0,2,0,2,0/0,0,0,0,0,0,1,1 S 24/23 - 2"
    );
}

#[test]
fn kim_5_1_no_intro_each_first_move() {
    let r = rules(MASAI, "no_intro=each_first_move");
    let m = mv(&Position::start(&r), &r, "A1");
    assert_eq!(m.next.to_string(), format!("{MASAI_AFTER_A1} nointro 1"));
    // North's opening move also adds no cow: the mirror of South's.
    let n = mv(&m.next, &r, "a1");
    assert_eq!(
        n.next.to_string(),
        "kimasai 1,1,0,0,0,0,0,0/0,2,0,2,0,2,0,0/0,0,2,0,2,0,2,0/0,0,0,0,0,0,1,1 S 24/24 - 2"
    );
    assert_eq!(events(&m.next, &r, "a1")[0], "lift a1 1");
}

#[test]
fn kim_5_1_no_intro_never() {
    let r = rules(MASAI, "no_intro=never");
    let start = Position::start(&r);
    assert_eq!(
        start.to_string(),
        "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24/24 - 0"
    );
    // A1 with a cow: A1 (2) → A2, A3 (2) → A4, A5 (2) → A6, A7 (2) → A8, B8 (empty: end).
    let m = mv(&start, &r, "A1");
    assert_eq!(
        m.next.to_string(),
        "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/0,2,0,2,0,2,0,2/0,0,0,0,0,0,0,1 N 23/24 - 1"
    );
    assert_eq!(events(&start, &r, "A1")[0], "place A1");
    // nointro is refused under never (NOT-4.2).
    let t =
        "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24/24 nointro 0";
    assert_eq!(Position::parse(t, &r).unwrap_err().kind.as_str(), "flags");
}

#[test]
fn kim_6_2_capture_compulsory_true_keeps_first_lap_captures() {
    // Phase 2. A1 (1) → A2 (now 2) facing a7 (1): capture, the cow enters A2 itself (3); a7 is
    // empty, relay A2 → A3, A4, A5 (A5 empty: end). A2 → A3 (empty): end. B8 → B7: end.
    let pits = [
        ("A1", 1),
        ("A2", 1),
        ("B8", 1),
        ("a7", 1),
        ("a1", 1),
        ("b8", 15),
        ("b7", 15),
        ("b6", 15),
        ("b5", 14),
    ];
    let d = rules(MASAI, "-");
    let p = build(&d, S, [0, 0], &pits, "-");
    assert_eq!(names(&p, &d), ["A1", "A2", "B8"]);
    assert_eq!(
        mv(&p, &d, "A1").next.to_string(),
        "kimasai 15,15,15,14,0,0,0,0/0,0,0,0,0,0,0,1/0,0,1,1,1,0,0,0/0,0,0,0,0,0,0,1 N 0/0 - 1"
    );
    let r = rules(MASAI, "capture_compulsory=true");
    let p = build(&r, S, [0, 0], &pits, "-");
    assert_eq!(names(&p, &r), ["A1"]);
}
