//! The terminal game driven by key presses through ratatui's TestBackend: whole games
//! against the computer, typed and chosen moves, illegal input, hints, undo, matches,
//! records saved and replayed.

use bao_rules::{
    legal_moves, parse_records, Game, LegalMove, Position, RecordResult, Rng, Rules, Side, Variant,
};
use bao_tui::{key, ui, App, Effect, Mode, PlayConfig, Player, Question, Replay};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(110, 32)).unwrap();
    t.draw(|f| ui::render(app, f)).unwrap();
    buffer_text(&t)
}

fn buffer_text(t: &Terminal<TestBackend>) -> String {
    let buf = t.backend().buffer();
    let mut s = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

fn press(app: &mut App, code: KeyCode) -> Effect {
    app.handle_key(key(code))
}

fn type_text(app: &mut App, text: &str) {
    press(app, KeyCode::Char(':'));
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
}

/// Moves the cursor to the start pit of `m` with the arrow keys, presses Enter and answers
/// the questions (direction or kichwa, stop or safari) with keys.
fn play_with_arrows(app: &mut App, m: &LegalMove) {
    let target = m.mv.pit().name(m.mv.side());
    for _ in 0..20 {
        let cur = app.cursor_square();
        if cur == target {
            break;
        }
        if cur.pit.is_front() != target.pit.is_front() {
            // Try both vertical keys: one of them changes the row.
            press(app, KeyCode::Up);
            if app.cursor_square().pit.is_front() != target.pit.is_front() {
                press(app, KeyCode::Down);
            }
            continue;
        }
        press(app, KeyCode::Right);
        let after = app.cursor_square();
        let (dc, dt) = (
            (after.pit.number() as i32 - cur.pit.number() as i32),
            (target.pit.number() as i32 - cur.pit.number() as i32),
        );
        if dc.signum() != dt.signum() {
            press(app, KeyCode::Left);
            press(app, KeyCode::Left);
        }
    }
    assert_eq!(app.cursor_square(), target, "the arrows reach {target}");
    press(app, KeyCode::Enter);
    for _ in 0..3 {
        let Mode::Choose { question, .. } = app.mode.clone() else {
            break;
        };
        match question {
            Question::Letter => {
                let c = m.mv.letter().unwrap().as_char().to_ascii_lowercase();
                press(app, KeyCode::Char(c));
            }
            Question::Safari => {
                press(app, KeyCode::Char(if m.mv.is_safari() { 'c' } else { 's' }));
            }
        }
    }
}

fn config(rules: Rules, level: u8) -> PlayConfig {
    let mut c = PlayConfig::vs_computer(rules, level);
    c.player1 = Player::Human("Tester".into());
    c.hint_level = bao_engine::MIN_LEVEL;
    c.seed = 42;
    c
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bao-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Saves the session, reads the file back, validates every record and replays it to the
/// game's final position and result.
fn round_trip_saved(app: &App, name: &str) {
    let path = temp_path(name);
    let _ = std::fs::remove_file(&path);
    let written = bao_tui::save_records(app, &path).unwrap();
    let text = std::fs::read_to_string(&written).unwrap();
    let records = parse_records(&text).unwrap();
    let played: Vec<_> = app
        .games
        .iter()
        .filter(|g| !g.game.moves().is_empty())
        .collect();
    assert_eq!(records.len(), played.len());
    for (r, g) in records.iter().zip(played) {
        let replayed = r.validate().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(replayed.position(), g.game.position());
        assert_eq!(replayed.outcome(), g.game.outcome());
        assert_eq!(r.result, RecordResult::from(g.game.outcome()));
        assert_eq!(r.rules, *g.game.rules());
    }
    let _ = std::fs::remove_file(&written);
}

/// A full game against the computer at the lowest level, every human move made with key
/// presses (arrows and Enter, or typed notation), checked on the final screen.
fn full_game(variant: Variant, seed: u64, human: Side) {
    let rules = Rules::new(variant);
    let mut cfg = config(rules, bao_engine::MIN_LEVEL);
    cfg.first_side = human;
    let mut app = App::new(cfg);
    assert_eq!(app.flipped(), human == Side::North);
    let mut rng = Rng::new(seed);
    for human_moves in 0..3000 {
        app.settle();
        if app.outcome().is_over() {
            break;
        }
        assert!(app.human_to_move());
        let moves = app.game().legal_moves();
        // Half the time the engine's choice, so that games last; otherwise any move.
        let m = if rng.below(2) == 0 {
            let pos = *app.game().position();
            bao_engine::choose_move(&pos, app.game().rules(), bao_engine::MIN_LEVEL, seed).unwrap()
        } else {
            moves.as_slice()[rng.below(moves.len())]
        };
        let before = app.game().moves().len();
        if rng.below(3) == 0 {
            type_text(&mut app, &m.mv.to_string());
        } else {
            play_with_arrows(&mut app, &m);
        }
        assert_eq!(app.game().moves().len(), before + 1, "{}", app.message);
        assert_eq!(app.game().moves()[before], m.mv);
        // The sowing is animated from the event stream; any key skips it.
        if human_moves % 5 == 0 {
            assert!(app.animation.is_some());
            app.tick();
            let s = screen(&app);
            assert!(s.contains("any key: skip"), "{s}");
            press(&mut app, KeyCode::Char('x'));
            assert!(app.animation.is_none());
            assert_eq!(
                app.game().moves().len(),
                before + 1,
                "a skip key plays nothing"
            );
        }
    }
    assert!(app.outcome().is_over(), "the game ended");
    let s = screen(&app);
    assert!(s.contains("Game over"), "{s}");
    let describe = app.outcome().describe();
    assert!(s.contains(&describe[..describe.len().min(30)]), "{s}");
    let last = app.game().moves().last().unwrap().to_string();
    assert!(s.contains(&last), "last move {last} in the move list:\n{s}");
    // The board shows the final counts: the hands line is there with its number.
    let pos = app.game().position();
    let hand = if variant == Variant::Kimasai {
        "reserve"
    } else {
        "hand"
    };
    assert!(
        s.contains(&format!("South {hand} {:>2}", pos.hand(Side::South))),
        "{s}"
    );
    round_trip_saved(&app, &format!("full-{}-{seed}.txt", variant.id()));
    // q leaves at once when the game is over.
    assert_eq!(press(&mut app, KeyCode::Char('q')), Effect::Quit);
}

#[test]
fn full_game_kiswahili_against_computer_by_keys() {
    full_game(Variant::Kiswahili, 1, Side::South);
}

#[test]
fn full_game_kete_as_north_by_keys() {
    full_game(Variant::Kete, 2, Side::North);
}

#[test]
fn full_game_kimasai_by_keys() {
    full_game(Variant::Kimasai, 3, Side::South);
}

#[test]
fn illegal_typed_move_shows_the_reason_and_keeps_the_game() {
    let rules = Rules::new(Variant::Kiswahili);
    let mut app = App::new(config(rules, 1));
    let before = *app.game().position();
    // A1 is empty at the start (NOT-3.5), so A1L is not a legal move.
    type_text(&mut app, "A1L");
    assert!(app.message_is_error);
    assert!(app.message.contains("illegal move"), "{}", app.message);
    assert!(app.message.contains("A1L"), "{}", app.message);
    assert_eq!(app.game().moves().len(), 0);
    assert_eq!(*app.game().position(), before);
    let s = screen(&app);
    assert!(s.contains("illegal move"), "{s}");
    // The refused text is cleared: what is typed next is a move of its own, not appended
    // to the refused one (which would give `A1LA7L*`).
    assert!(
        matches!(&app.mode, Mode::Typing(t) if t.is_empty()),
        "{:?}",
        app.mode
    );
    for c in "A7L*".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().moves().len(), 1, "{}", app.message);
    // Malformed text is refused too (NOT-2.1), naming its category.
    app.settle();
    let n = app.game().moves().len();
    type_text(&mut app, "Z9");
    assert!(app.message.contains("bad move"), "{}", app.message);
    assert_eq!(app.game().moves().len(), n);
    // Enter on a pit with no legal move says so and plays nothing.
    press(&mut app, KeyCode::Esc);
    let empty = legal_moves(app.game().position(), app.game().rules());
    let pos = *app.game().position();
    let sq = (1..=8)
        .map(|k| bao_rules::Pit::back(k).name(pos.side()))
        .find(|sq| !empty.iter().any(|m| m.mv.pit() == sq.pit))
        .unwrap();
    app.set_cursor_to(sq);
    press(&mut app, KeyCode::Enter);
    assert!(
        app.message.contains("No legal move starts at"),
        "{}",
        app.message
    );
    assert_eq!(app.game().moves().len(), n);
}

#[test]
fn direction_question_is_asked_only_when_there_is_a_choice() {
    let rules = Rules::new(Variant::Kiswahili);
    let mut app = App::new(config(rules, 1));
    let moves = app.game().legal_moves();
    // At the start, A6 can be played both ways (A6L*, A6R*) and A5 has ... find a pit
    // with two letters and one with one.
    let by_pit = |pit| {
        moves
            .iter()
            .filter(|m| m.mv.pit() == pit)
            .map(|m| m.mv)
            .collect::<Vec<_>>()
    };
    let two = moves
        .iter()
        .map(|m| m.mv.pit())
        .find(|&p| by_pit(p).len() == 2)
        .expect("a pit with two moves");
    app.set_cursor_to(two.name(Side::South));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(
        app.mode,
        Mode::Choose {
            question: Question::Letter,
            ..
        }
    ));
    let s = screen(&app);
    assert!(s.contains("sow towards your left"), "{s}");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Select);
    assert_eq!(app.game().moves().len(), 0);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().moves().len(), 1);
    let played = app.game().moves()[0];
    assert_eq!(played.pit(), two);
    assert_eq!(
        played,
        by_pit(two)[1],
        "Right then Enter picks the second answer"
    );
}

#[test]
fn safari_question_stop_or_continue() {
    // Find, by random play, a position where some pit offers both a stop in the house and
    // a safari (NOT-1.3, KIS-7.5).
    let rules = Rules::new(Variant::Kiswahili);
    let mut rng = Rng::new(5);
    let mut found = None;
    'search: for _ in 0..2000 {
        let mut g = Game::new(Position::start(&rules), rules);
        while !g.outcome().is_over() {
            let moves = g.legal_moves();
            if let Some(s) = moves.iter().find(|m| m.mv.is_safari()) {
                let stop = moves.iter().find(|m| {
                    m.mv.pit() == s.mv.pit() && m.mv.letter() == s.mv.letter() && !m.mv.is_safari()
                });
                if let Some(stop) = stop {
                    found = Some((*g.position(), s.mv, stop.mv));
                    break 'search;
                }
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            g.play(&m);
        }
    }
    let (pos, safari, stop) = found.expect("random play reaches a house choice point");
    for (answer, expected) in [('c', safari), ('s', stop)] {
        let mut cfg = config(rules, 1);
        cfg.start = Some(pos);
        cfg.first_side = pos.side();
        let mut app = App::new(cfg);
        app.set_cursor_to(safari.pit().name(safari.side()));
        press(&mut app, KeyCode::Enter);
        if let Mode::Choose {
            question: Question::Letter,
            ..
        } = app.mode
        {
            let c = safari.letter().unwrap().as_char().to_ascii_lowercase();
            press(&mut app, KeyCode::Char(c));
        }
        assert!(
            matches!(
                app.mode,
                Mode::Choose {
                    question: Question::Safari,
                    ..
                }
            ),
            "{:?}",
            app.mode
        );
        assert!(screen(&app).contains("safari"));
        press(&mut app, KeyCode::Char(answer));
        assert_eq!(app.game().moves(), &[expected]);
    }
}

#[test]
fn hint_and_undo_against_the_computer() {
    let rules = Rules::new(Variant::Kiswahili);
    let mut app = App::new(config(rules, 1));
    let start = *app.game().position();
    press(&mut app, KeyCode::Char('h'));
    assert!(app.hint_requested);
    app.settle();
    let (hp, hm) = app.hint.expect("a hint");
    assert_eq!(hp, start);
    assert!(app.message.contains(&hm.to_string()));
    assert_eq!(
        app.cursor_square(),
        hm.pit().name(hm.side()),
        "the cursor goes to the hint"
    );
    // Enter on the hinted pit, answering any question with the hint's letter.
    let lm = app
        .game()
        .legal_moves()
        .find(&hm.to_string())
        .copied()
        .unwrap();
    play_with_arrows(&mut app, &lm);
    app.settle();
    assert_eq!(
        app.game().moves().len(),
        2,
        "the move and the computer's reply"
    );
    assert_eq!(app.game().moves()[0], hm);
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.game().moves().len(), 0, "{}", app.message);
    assert_eq!(*app.game().position(), start);
    assert!(app.human_to_move());
    press(&mut app, KeyCode::Char('u'));
    assert!(app.message_is_error, "nothing to undo: {}", app.message);
    assert_eq!(app.game().moves().len(), 0);
}

#[test]
fn human_against_human_has_no_hint_or_undo() {
    let rules = Rules::new(Variant::Kimasai);
    let mut cfg = config(rules, 1);
    cfg.player2 = Player::Human("Other".into());
    let mut app = App::new(cfg);
    type_text(&mut app, "A1");
    assert_eq!(app.game().moves().len(), 1, "{}", app.message);
    press(&mut app, KeyCode::Char('x')); // skip the animation
    press(&mut app, KeyCode::Char('u'));
    assert!(app.message_is_error);
    assert_eq!(app.game().moves().len(), 1);
    press(&mut app, KeyCode::Char('h'));
    assert!(!app.hint_requested);
    // North moves next at this keyboard.
    assert!(app.human_to_move());
    assert_eq!(app.game().side(), Side::North);
    // Quitting mid-game asks first.
    assert_eq!(press(&mut app, KeyCode::Char('q')), Effect::None);
    assert_eq!(app.mode, Mode::ConfirmQuit);
    assert_eq!(press(&mut app, KeyCode::Char('n')), Effect::None);
    assert_eq!(app.mode, Mode::Select);
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(press(&mut app, KeyCode::Char('y')), Effect::Quit);
    // The unfinished game is saved as abandoned, with result '-'.
    let recs = app.records("2026.01.01");
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].result, RecordResult::Unfinished);
    assert_eq!(recs[0].termination, Some(bao_rules::Termination::Abandoned));
    round_trip_saved(&app, "hvh.txt");
}

#[test]
fn best_of_three_match_changes_sides_and_ends() {
    // BRD-8: computer against computer, so that `settle` plays whole games.
    let rules = Rules::new(Variant::Kimasai);
    let mut cfg = config(rules, 1);
    cfg.player1 = Player::Computer(1);
    cfg.is_match = true;
    cfg.animate = false;
    let mut app = App::new(cfg);
    loop {
        app.settle();
        assert!(app.outcome().is_over());
        let (w1, w2, over) = app.match_score();
        if over {
            assert!(w1 >= 2 || w2 >= 2 || app.games.len() == 5, "{w1}-{w2}");
            break;
        }
        assert!(w1 < 2 && w2 < 2);
        let n = app.games.len();
        press(&mut app, KeyCode::Char('n'));
        assert_eq!(app.games.len(), n + 1);
        // BRD-8.2: players change sides after every game.
        assert_ne!(app.games[n].player1_side, app.games[n - 1].player1_side);
    }
    assert!(app.games.len() >= 2 && app.games.len() <= 5);
    let s = screen(&app);
    assert!(s.contains("match"), "{s}");
    let recs = app.records("2026.01.01");
    assert_eq!(recs.len(), app.games.len());
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.tag("Round"), Some((i + 1).to_string()));
    }
    round_trip_saved(&app, "match.txt");
    // n after the match is over starts nothing.
    let n = app.games.len();
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.games.len(), n);
}

#[test]
fn replay_steps_through_a_record() {
    let rules = Rules::new(Variant::Kiswahili);
    let mut g = Game::new(Position::start(&rules), rules);
    let mut rng = Rng::new(9);
    for _ in 0..30 {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play(&moves.as_slice()[rng.below(moves.len())]);
    }
    let mut rec = bao_rules::Record::from_game(&g);
    rec.south = "Asha".into();
    rec.north = "Juma".into();
    rec.moves[0].comment = Some("a quiet start".into());
    let text = rec.to_string();
    let mut r = Replay::new(parse_records(&text).unwrap()).unwrap();
    assert_eq!(r.ply, 0);
    r.handle_key(key(KeyCode::Right));
    assert_eq!(r.ply, 1);
    assert!(r.animation.is_some());
    r.handle_key(key(KeyCode::Char('x'))); // any key finishes the animation
    assert!(r.animation.is_none());
    let mut t = Terminal::new(TestBackend::new(110, 32)).unwrap();
    t.draw(|f| ui::render_replay(&r, f)).unwrap();
    let s = buffer_text(&t);
    assert!(s.contains("Asha") && s.contains("Juma"), "{s}");
    assert!(s.contains("a quiet start"), "{s}");
    r.handle_key(key(KeyCode::End));
    assert_eq!(r.position(), g.position());
    r.handle_key(key(KeyCode::Left));
    assert_eq!(r.position(), &g.positions()[g.positions().len() - 2]);
    r.handle_key(key(KeyCode::Home));
    assert_eq!(r.position(), g.start());
    assert_eq!(r.handle_key(key(KeyCode::Char('q'))), Effect::Quit);

    // An invalid record is refused before the viewer starts.
    let bad = text.replacen(&g.moves()[0].to_string(), "B8R", 1);
    let recs = parse_records(&bad).unwrap();
    let (i, e) = Replay::new(recs).unwrap_err();
    assert_eq!(i, 1);
    assert!(e.to_string().contains("move 1"), "{e}");
}

/// The screen as lines, at a given size.
fn screen_lines(width: u16, height: u16, draw: impl Fn(&mut ratatui::Frame)) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
    t.draw(|f| draw(f)).unwrap();
    buffer_text(&t).lines().map(str::to_string).collect()
}

#[test]
fn replay_header_keeps_names_date_and_result_at_80_columns() {
    let rules = Rules::new(Variant::Kiswahili);
    let mut g = Game::new(Position::start(&rules), rules);
    let first = g.legal_moves().as_slice()[0];
    g.play(&first);
    let mut rec = bao_rules::Record::from_game(&g);
    // Long non-ASCII names push the date and the result past 80 columns on one line.
    rec.south = "Bi Mwanaisha Khamis wa Ngambo ya Mjini".into();
    rec.north = "Ñaño Jérôme Öztürk-Łukasiewicz".into();
    rec.date = "2026.11.29".into();
    rec.result = RecordResult::Draw;
    rec.termination = Some(bao_rules::Termination::Agreement);
    let text = rec.to_string();
    let r = Replay::new(parse_records(&text).unwrap()).unwrap();
    let lines = screen_lines(80, 30, |f| ui::render_replay(&r, f));
    let header: String = lines
        .iter()
        .take_while(|l| !l.contains("Board"))
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(header.contains("Replay 1/1 · Bao la Kiswahili"), "{header}");
    assert!(!header.contains("\\u{"), "escaped: {header}");
    assert!(
        header.contains("Bi Mwanaisha Khamis wa Ngambo ya Mjini (S)"),
        "{header}"
    );
    assert!(
        header.contains("Ñaño Jérôme Öztürk-Łukasiewicz (N)"),
        "{header}"
    );
    assert!(header.contains("2026.11.29"), "{header}");
    assert!(header.contains("result draw"), "{header}");
    // The board still follows the header.
    assert!(lines.iter().any(|l| l.contains("Board")));
}

#[test]
fn panel_lines_break_between_phrases_only() {
    let rules = Rules::new(Variant::Kiswahili);
    let mut app = App::new(config(rules, 1));
    type_text(&mut app, "A7L*");
    app.settle();
    // The board panel is 38 columns wide: 36 inside its borders.
    let lines = screen_lines(80, 32, |f| ui::render(&app, f));
    let panel: Vec<String> = lines
        .iter()
        .map(|l| l.chars().take(38).collect::<String>())
        .collect();
    let joined = panel.join("\n");
    for phrase in [
        "# owned house",
        "x blocked",
        "! capture first",
        "to move",
        "ply ",
    ] {
        assert!(
            panel.iter().any(|l| l.contains(phrase)),
            "{phrase:?} is cut or missing in the panel:\n{joined}"
        );
    }
    // No panel line ends in a separator or starts with a phrase's tail.
    for l in &panel {
        let inner = l.trim_matches(|c| c == '│' || c == ' ');
        assert!(!inner.ends_with('·') && !inner.starts_with('·'), "{l:?}");
    }
}

#[test]
fn phrase_lines_pack_whole_phrases() {
    assert_eq!(
        ui::phrase_lines(&["ab", "cd", "efg"], 10),
        [" ab · cd", " efg"]
    );
    assert_eq!(ui::phrase_lines(&["a"], 1), [" a"]);
    assert!(ui::phrase_lines::<&str>(&[], 10).is_empty());
}
