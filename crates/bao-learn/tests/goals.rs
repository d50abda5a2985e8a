//! Each goal kind decides what the spec's worked examples say a move does: the positions and
//! moves are the spec's fixtures (docs/spec/fixtures), so a goal is checked against the rules'
//! own account of the move, not against this crate's reading of it.

use bao_learn::{check_step, course, parse_course, Goal, LearnError, PitName, Replies, Step};
use bao_rules::{find_move, Position, Rules, Square, Variant};

/// Whether playing `mv` (typed as a player would) in `pos` reaches `goal`.
fn reaches(pos: &str, mv: &str, goal: &str) -> bool {
    let variant = Position::variant_of(pos).unwrap();
    let rules = Rules::new(variant);
    let p = Position::parse(pos, &rules).unwrap();
    let m = find_move(&p, &rules, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let g: Goal = serde_json::from_str(goal).unwrap_or_else(|e| panic!("{goal}: {e}"));
    g.reached_by(&p, &rules, &m.mv)
}

/// KIS-14.1 (fixtures kis-06, tr-01): a namua capture, a chained capture, then the house
/// choice point, with and without the safari.
const KIS_06: &str = "kiswahili 0,0,0,0,0,0,0,0/0,3,4,8,0,2,5,6/0,2,1,0,8,0,3,4/0,0,0,0,0,0,0,0 S 9/9 house:S,house:N 0";

#[test]
fn capture_goals_count_what_the_trace_captures() {
    // A8R+ takes a1 (6 seeds) and then a6 (4 seeds).
    assert!(reaches(KIS_06, "A8R+", r#"{"kind":"capture"}"#));
    assert!(reaches(KIS_06, "A8R+", r#"{"kind":"capture","pit":"a1"}"#));
    assert!(reaches(KIS_06, "A8R+", r#"{"kind":"capture","pit":"a6"}"#));
    assert!(!reaches(KIS_06, "A8R+", r#"{"kind":"capture","pit":"a2"}"#));
    assert!(reaches(
        KIS_06,
        "A8R+",
        r#"{"kind":"capture","min_seeds":10}"#
    ));
    assert!(!reaches(
        KIS_06,
        "A8R+",
        r#"{"kind":"capture","min_seeds":11}"#
    ));
    assert!(reaches(KIS_06, "A8R+", r#"{"kind":"captures","min":2}"#));
    assert!(!reaches(KIS_06, "A8R+", r#"{"kind":"captures","min":3}"#));
    // A7R takes a2 only.
    assert!(!reaches(KIS_06, "A7R", r#"{"kind":"captures","min":2}"#));
}

#[test]
fn house_goals_follow_the_choice_point() {
    // KIS-7.5: without '+' the move stops in the house and keeps it; with '+' it goes on.
    assert!(reaches(KIS_06, "A8R", r#"{"kind":"keep_house"}"#));
    assert!(reaches(KIS_06, "A8R", r#"{"kind":"last_seed","pit":"A5"}"#));
    assert!(!reaches(KIS_06, "A8R", r#"{"kind":"safari"}"#));
    assert!(reaches(KIS_06, "A8R+", r#"{"kind":"safari"}"#));
    assert!(!reaches(KIS_06, "A8R+", r#"{"kind":"keep_house"}"#));
    // The safari ends in B6 (KIS-14.1).
    assert!(reaches(
        KIS_06,
        "A8R+",
        r#"{"kind":"last_seed","pit":"B6"}"#
    ));
}

#[test]
fn laps_count_entry_laps_and_relays() {
    // A8R+: two entry laps of captured seeds, then the house is lifted: three laps.
    assert!(reaches(KIS_06, "A8R+", r#"{"kind":"relay","min_laps":3}"#));
    assert!(!reaches(KIS_06, "A8R+", r#"{"kind":"relay","min_laps":4}"#));
}

#[test]
fn hand_goals_see_the_hand_seed() {
    assert!(reaches(KIS_06, "A8R", r#"{"kind":"bring_in"}"#));
    assert!(reaches(KIS_06, "A8R", r#"{"kind":"bring_in","pit":"A8"}"#));
    assert!(!reaches(KIS_06, "A8R", r#"{"kind":"bring_in","pit":"A7"}"#));
    assert!(!reaches(KIS_06, "A8R", r#"{"kind":"hand_empty"}"#));
    // Fixture kis-33: one seed left in hand.
    let last =
        "kiswahili 2,2,2,3,4,4,5,3/0,0,0,5,0,6,0,0/3,2,1,0,1,0,5,4/1,0,1,2,0,1,2,3 S 1/1 - 0";
    let rules = Rules::new(Variant::Kiswahili);
    let p = Position::parse(last, &rules).unwrap();
    let any = bao_rules::legal_moves(&p, &rules).as_slice()[0]
        .mv
        .to_string();
    assert!(reaches(last, &any, r#"{"kind":"hand_empty"}"#));
    // Kimasai's reserve cow (KIM-5.2) is a hand seed too; the opening move adds none (KIM-5.1).
    assert!(!reaches("kimasai", "A1", r#"{"kind":"bring_in"}"#));
    let grazing =
        "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 N 24/24 - 1";
    assert!(reaches(grazing, "a1", r#"{"kind":"bring_in","pit":"a1"}"#));
}

#[test]
fn the_tax_keeps_the_house() {
    // KIS-14.2 (fixtures kis-11, tr-02).
    let pos = "kiswahili 0,0,0,0,0,0,0,0/0,1,2,9,0,2,0,0/0,0,0,0,9,0,0,0/0,0,0,0,0,0,0,0 S 20/21 house:S,house:N 0";
    assert!(reaches(pos, "A5R*", r#"{"kind":"tax"}"#));
    assert!(reaches(pos, "A5R*", r#"{"kind":"keep_house"}"#));
    assert!(reaches(pos, "A5R*", r#"{"kind":"last_seed","pit":"A7"}"#));
    // KIS-4.5: an owned lone house of five is sown in full and lost (fixture kis-13).
    let five = "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,5,0,0,0/0,0,0,0,0,0,0,0 S 24/25 house:S,house:N 0";
    assert!(!reaches(five, "A5R*", r#"{"kind":"tax"}"#));
    assert!(!reaches(five, "A5R*", r#"{"kind":"keep_house"}"#));
}

#[test]
fn block_and_threat_goals_follow_takasia() {
    // KIS-14.3 (fixture kis-25): A7L* blocks a4; the threat is B8R.
    let pos =
        "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0";
    assert!(reaches(pos, "A7L*", r#"{"kind":"block","pit":"a4"}"#));
    assert!(reaches(pos, "A7L*", r#"{"kind":"threaten","pit":"a4"}"#));
    assert!(!reaches(pos, "A7L*", r#"{"kind":"threaten","pit":"a5"}"#));
    assert!(!reaches(pos, "A7R*", r#"{"kind":"block","pit":"a4"}"#));
}

#[test]
fn win_and_survive_goals_read_the_outcome() {
    // Fixture kim-06: North's b2 takes South's last front cow.
    let pos =
        "kimasai 3,6,4,3,2,1,12,0/1,11,3,0,4,2,3,1/0,0,0,0,1,0,0,0/0,3,0,1,1,1,1,0 N 0/0 - 85";
    assert!(reaches(pos, "b2", r#"{"kind":"win"}"#));
    assert!(reaches(pos, "b2", r#"{"kind":"survive"}"#));
    assert!(reaches(pos, "b2", r#"{"kind":"capture","pit":"A5"}"#));
    // Fixture kim-05: North's a4 raids A4 and the game goes on.
    let raid = "kimasai 0,1,0,3,5,2,2,7/1,1,1,4,1,0,1,3/0,7,0,1,4,0,5,1/3,0,1,3,2,4,0,1 N 0/0 - 49";
    assert!(reaches(raid, "a4", r#"{"kind":"capture","pit":"A4"}"#));
    assert!(!reaches(raid, "a4", r#"{"kind":"win"}"#));
    // Sowing one's last front cow into the back row loses (KIM-8.2).
    let alone = "kimasai 8,8,8,8,7,7,7,7/0,0,0,0,0,0,1,0/0,0,0,0,0,0,0,1/0,0,0,2,0,0,0,0 S 0/0 - 0";
    assert!(!reaches(alone, "A8", r#"{"kind":"survive"}"#));
    assert!(reaches(alone, "B4", r#"{"kind":"survive"}"#));
}

#[test]
fn all_needs_every_goal() {
    let both = r#"{"kind":"all","goals":[{"kind":"captures","min":2},{"kind":"keep_house"}]}"#;
    assert!(reaches(KIS_06, "A8R", both));
    assert!(!reaches(KIS_06, "A8R+", both));
    assert!(!reaches(KIS_06, "A7R", both));
}

#[test]
fn goals_are_read_strictly() {
    let bad = [
        r#"{"kind":"capture","pit":"C3"}"#,
        r#"{"kind":"capture","pits":"a3"}"#,
        r#"{"kind":"conquer"}"#,
        r#"{"kind":"last_seed"}"#,
    ];
    for g in bad {
        assert!(
            serde_json::from_str::<Goal>(g).is_err(),
            "{g} should be refused"
        );
    }
    let g: Goal = serde_json::from_str(r#"{"kind":"block","pit":"a4"}"#).unwrap();
    assert_eq!(
        g,
        Goal::Block {
            pit: PitName(Square::parse("a4").unwrap())
        }
    );
    assert_eq!(
        serde_json::to_string(&g).unwrap(),
        r#"{"kind":"block","pit":"a4"}"#
    );
}

fn step_with(replies: &str, position: &str) -> Step {
    serde_json::from_str(&format!(
        r#"{{"position":"{position}","text_key":"learn.x","goal":{{"kind":"capture","pit":"a3"}},
            "solutions":["A3R* A1R"],"par":2,"replies":{replies}}}"#
    ))
    .unwrap()
}

/// KET-5 (fixtures ket-06, ket-07): South reserves a3, North answers, South must take a3.
const KET_06: &str =
    "kete 0,6,3,1,0,2,5,6/0,0,0,4,0,3,0,0/5,0,2,6,3,0,0,0/7,2,3,4,0,1,1,0 S 0/0 - 0";

#[test]
fn replies_are_a_script_or_the_engine() {
    let scripted = step_with(r#"["a5L*"]"#, KET_06);
    assert_eq!(scripted.replies, Replies::Scripted(vec!["a5L*".into()]));
    assert!(
        check_step(&scripted, &["A3R*", "a5L*", "A1R"])
            .unwrap()
            .done
    );
    assert!(matches!(
        check_step(&scripted, &["A3R*", "a5R*", "A1R"]),
        Err(LearnError::OffScript { ply: 1, .. })
    ));
    // With the engine any legal reply is taken.
    let engine = step_with(r#""engine""#, KET_06);
    assert_eq!(engine.replies, Replies::Engine);
    let r = check_step(&engine, &["A3R*", "a5R*"]).unwrap();
    assert!(!r.done);
    assert_eq!(r.moves, 1);
    assert!(serde_json::from_str::<Replies>(r#""computer""#).is_err());
    // Two learner moves against a par of two: three stars; a third move would cost one.
    let r = check_step(&scripted, &["A3R*", "a5L*", "A1R"]).unwrap();
    assert_eq!((r.moves, r.stars), (2, 3));
}

#[test]
fn plies_after_the_end_of_the_game_are_refused() {
    let pos =
        "kimasai 3,6,4,3,2,1,12,0/1,11,3,0,4,2,3,1/0,0,0,0,1,0,0,0/0,3,0,1,1,1,1,0 N 0/0 - 85";
    let s: Step = serde_json::from_str(&format!(
        r#"{{"position":"{pos}","text_key":"learn.x","goal":{{"kind":"captures","min":9}},
            "solutions":["b2"],"par":1,"replies":"engine"}}"#
    ))
    .unwrap();
    assert!(matches!(
        check_step(&s, &["b2", "A1"]),
        Err(LearnError::GameOver { ply: 1 })
    ));
}

#[test]
fn courses_survive_a_round_trip_through_json() {
    for v in Variant::ALL {
        let c = course(v);
        let again = parse_course(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(c, again, "{}", v.id());
    }
}
