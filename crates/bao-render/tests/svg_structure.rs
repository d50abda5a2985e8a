//! The board SVG is well-formed XML and follows the structure the web front-end relies on
//! (docs/api.md "Board SVG"): every pit and hand is there with its seed count.

use bao_render::{svg, LastMove, SvgOptions};
use bao_rules::{Game, Pit, Position, Rng, Rules, Side, Square, Variant};

fn pit_squares() -> Vec<Square> {
    let mut v = Vec::new();
    for side in Side::BOTH {
        for i in 0..16 {
            v.push(Square {
                side,
                pit: Pit::new(i).unwrap(),
            });
        }
    }
    v
}

/// Parses the document and checks every pit group and hand against the position.
fn check(pos: &Position, opts: &SvgOptions) {
    let text = svg(pos, opts);
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("bad XML: {e}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert!(root
        .attribute("class")
        .unwrap()
        .split(' ')
        .any(|c| c == "bao-board"));
    assert_eq!(
        root.attribute("data-position"),
        Some(pos.to_string().as_str())
    );
    assert!(root.attribute("viewBox").is_some());

    for sq in pit_squares() {
        let id = format!("pit-{sq}");
        let g = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(id.as_str()))
            .unwrap_or_else(|| panic!("no {id}"));
        let classes: Vec<&str> = g.attribute("class").unwrap().split(' ').collect();
        assert!(classes.contains(&"pit"));
        assert!(classes.contains(&if sq.pit.is_front() { "front" } else { "back" }));
        assert_eq!(g.attribute("data-pit"), Some(sq.to_string().as_str()));
        assert_eq!(
            g.attribute("data-side").unwrap(),
            sq.side.letter().to_string()
        );
        let n = pos.seeds(sq.side, sq.pit).to_string();
        assert_eq!(g.attribute("data-seeds"), Some(n.as_str()), "{id}");
        let count = g
            .descendants()
            .find(|c| c.attribute("class") == Some("count"))
            .unwrap();
        assert_eq!(count.text(), Some(n.as_str()), "{id} count text");
        if opts.show_names {
            let name = g
                .descendants()
                .find(|c| c.attribute("class") == Some("name"))
                .unwrap();
            assert_eq!(name.text(), Some(sq.to_string().as_str()));
        }
        assert!(g
            .descendants()
            .any(|c| c.attribute("class") == Some("hole")));
        // KIS-7.1 / BRD-2.4: the house is marked in the bao variants only.
        let is_house = pos.variant().is_bao() && sq.pit.is_house();
        assert_eq!(classes.contains(&"house"), is_house, "{id}");
        assert_eq!(
            classes.contains(&"owned"),
            is_house && pos.owns_house(sq.side),
            "{id}"
        );
        assert_eq!(
            classes.contains(&"blocked"),
            pos.block() == Some(sq),
            "{id}"
        );
        assert_eq!(
            classes.contains(&"last-move"),
            opts.last_move.as_ref().is_some_and(|l| l.pit == sq)
        );
    }
    for side in Side::BOTH {
        let id = format!("hand-{}", side.letter());
        let g = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(id.as_str()))
            .unwrap_or_else(|| panic!("no {id}"));
        assert!(g
            .attribute("class")
            .unwrap()
            .split(' ')
            .any(|c| c == "hand"));
        let n = pos.hand(side).to_string();
        assert_eq!(g.attribute("data-seeds"), Some(n.as_str()));
        let count = g
            .descendants()
            .find(|c| c.attribute("class") == Some("count"))
            .unwrap();
        assert_eq!(count.text(), Some(n.as_str()));
    }
    // Ids are unique.
    let mut ids: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    let total = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), total, "duplicate ids");
}

#[test]
fn start_positions_of_every_variant() {
    for v in Variant::ALL {
        let pos = Position::start(&Rules::new(v));
        check(&pos, &SvgOptions::default());
    }
}

#[test]
fn north_rows_on_top_in_diagram_order() {
    // BRD-2.2: b8 is top-left, B8 bottom-right: compare the y and x of the pit texts.
    let pos = Position::start(&Rules::new(Variant::Kiswahili));
    let text = svg(&pos, &SvgOptions::default());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let xy = |id: &str| -> (f64, f64) {
        let g = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap();
        let t = g
            .descendants()
            .find(|c| c.attribute("class") == Some("count"))
            .unwrap();
        (
            t.attribute("x").unwrap().parse().unwrap(),
            t.attribute("y").unwrap().parse().unwrap(),
        )
    };
    let (b8x, b8y) = xy("pit-b8");
    let (a8x, a8y) = xy("pit-a8");
    let (a1x, a1y) = xy("pit-A1");
    let (bb8x, bb8y) = xy("pit-B8");
    assert!(b8y < a8y && a8y < a1y && a1y < bb8y);
    assert_eq!(b8x, a8x);
    assert_eq!(a8x, a1x); // A1 faces a8 (BRD-2.3)
    assert!(a1x < bb8x);
}

#[test]
fn random_positions_of_every_variant_with_options() {
    let mut rng = Rng::new(7);
    for v in Variant::ALL {
        let rules = Rules::new(v);
        for g in 0..12 {
            let mut game = Game::new(Position::start(&rules), rules);
            let mut last = None;
            let plies = 5 + g * 7;
            for _ in 0..plies {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                last = Some(m.mv);
                game.play(&m);
            }
            let pos = *game.position();
            let opts = SvgOptions {
                last_move: last.map(LastMove::from),
                flipped: g % 2 == 1,
                show_names: g % 3 != 0,
                show_caption: g % 4 != 0,
                size: if g % 5 == 0 { None } else { Some(400) },
                ..SvgOptions::default()
            };
            check(&pos, &opts);
        }
    }
}

#[test]
fn blocked_pit_is_marked() {
    // KIS-8.4: find a reachable position with a takasia block by random play.
    let rules = Rules::new(Variant::Kiswahili);
    let mut rng = Rng::new(11);
    let mut found = None;
    'outer: for _ in 0..400 {
        let mut game = Game::new(Position::start(&rules), rules);
        while !game.outcome().is_over() {
            let moves = game.legal_moves();
            let m = moves.as_slice()[rng.below(moves.len())];
            game.play(&m);
            if game.position().block().is_some() {
                found = Some(*game.position());
                break 'outer;
            }
        }
    }
    let pos = found.expect("random play reaches a takasia block");
    let text = svg(&pos, &SvgOptions::default());
    let id = format!(r#"id="pit-{}""#, pos.block().unwrap());
    let g = text.split("<g ").find(|g| g.contains(&id)).unwrap();
    assert!(g.contains(" blocked"), "{g}");
    check(&pos, &SvgOptions::default());
}

#[test]
fn hostile_title_is_escaped() {
    let pos = Position::start(&Rules::new(Variant::Kete));
    let opts = SvgOptions {
        title: Some("<script>&\"\u{0}</script>".into()),
        last_move: LastMove::parse("a5R+", Side::North),
        ..SvgOptions::default()
    };
    let text = svg(&pos, &opts);
    assert!(!text.contains("<script>"));
    check(&pos, &opts);
}

#[test]
fn a_hand_count_follows_its_label_on_one_line_in_both_languages() {
    // The count is the tspan after the label's in one text element: laid out after the label
    // by the browser, so Swahili's longer "Mkono wa Kaskazini" can never run into the number,
    // whatever the font or the size the board is drawn at.
    for variant in [Variant::Kiswahili, Variant::Kimasai] {
        for lang in [bao_render::Lang::En, bao_render::Lang::Sw] {
            let pos = Position::start(&Rules::new(variant));
            let opts = SvgOptions {
                lang,
                ..SvgOptions::default()
            };
            let text = svg(&pos, &opts);
            let doc = roxmltree::Document::parse(&text).unwrap();
            for side in Side::BOTH {
                let id = format!("hand-{}", side.letter());
                let g = doc
                    .descendants()
                    .find(|n| n.attribute("id") == Some(id.as_str()))
                    .unwrap();
                let line: Vec<_> = g.children().filter(|n| n.has_tag_name("text")).collect();
                assert_eq!(line.len(), 1, "{variant:?} {lang:?} {id}: one line of text");
                let parts: Vec<_> = line[0].children().filter(|n| n.is_element()).collect();
                let classes: Vec<_> = parts.iter().map(|n| n.attribute("class")).collect();
                assert_eq!(
                    classes,
                    [Some("label"), Some("count")],
                    "{variant:?} {lang:?} {id}"
                );
                assert!(parts.iter().all(|n| n.has_tag_name("tspan")));
                // Neither part is placed on its own (no x): the count follows the label.
                assert!(parts.iter().all(|n| n.attribute("x").is_none()));
                assert!(parts[1]
                    .attribute("dx")
                    .is_some_and(|d| d.parse::<f64>().unwrap() > 0.0));
                assert_eq!(parts[1].text(), Some(pos.hand(side).to_string().as_str()));
            }
        }
    }
}
