//! Drawing the game and the replay viewer with ratatui. Pure functions of the state.

use crate::app::{stage_name, App, Mode};
use crate::replay::Replay;
use bao_rules::{Move, Pit, Position, Side, Square, Variant};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

/// What the board shows: counts and marks.
#[derive(Clone, Debug, Default)]
pub struct BoardView {
    /// Counts per side (South, North) and ring index.
    pub rings: [[u8; 16]; 2],
    /// Hands (South, North).
    pub hands: [u8; 2],
    /// The game.
    pub variant: Option<Variant>,
    /// The side to move.
    pub to_move: Option<Side>,
    /// Houses still owned (South, North).
    pub houses: [bool; 2],
    /// South's rows at the top.
    pub flipped: bool,
    /// The cursor.
    pub cursor: Option<Square>,
    /// The start pit of the last move.
    pub last: Option<Square>,
    /// The hint's pit.
    pub hint: Option<Square>,
    /// The pit the animation is at.
    pub at: Option<Square>,
    /// The blocked pit.
    pub block: Option<Square>,
    /// The pit the next capture must take.
    pub must: Option<Square>,
    /// Seeds in the sowing hand during an animation.
    pub in_hand: Option<u32>,
}

impl BoardView {
    /// The view of a position.
    pub fn of(pos: &Position) -> BoardView {
        BoardView {
            rings: [*pos.ring(Side::South), *pos.ring(Side::North)],
            hands: [pos.hand(Side::South), pos.hand(Side::North)],
            variant: Some(pos.variant()),
            to_move: Some(pos.side()),
            houses: [pos.owns_house(Side::South), pos.owns_house(Side::North)],
            block: pos.block(),
            must: pos.must(),
            ..BoardView::default()
        }
    }
}

fn square(side: Side, front: bool, k: u8) -> Square {
    Square {
        side,
        pit: Pit::from_row(front, k).expect("k is 1..8"),
    }
}

/// The rows from top to bottom: (side, front?, pit numbers left to right) — BRD-2.2.
fn rows(flipped: bool) -> [(Side, bool, [u8; 8]); 4] {
    let up: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
    let down: [u8; 8] = [8, 7, 6, 5, 4, 3, 2, 1];
    if flipped {
        [
            (Side::South, false, down),
            (Side::South, true, down),
            (Side::North, true, up),
            (Side::North, false, up),
        ]
    } else {
        [
            (Side::North, false, down),
            (Side::North, true, down),
            (Side::South, true, up),
            (Side::South, false, up),
        ]
    }
}

/// The board as lines of text: names, counts, hands and marks.
pub fn board_lines(v: &BoardView) -> Vec<Line<'static>> {
    let bao = v.variant.is_some_and(|x| x != Variant::Kimasai);
    let hand_word = if bao { "hand" } else { "reserve" };
    let mut lines = Vec::new();
    let hand_line = |side: Side| -> Line<'static> {
        let mut spans = vec![Span::raw(format!(
            " {} {hand_word} {:>2}",
            side.name(),
            v.hands[side.index()]
        ))];
        if v.to_move == Some(side) {
            spans.push(Span::styled(
                "  ◀ to move",
                Style::default()
                    .fg(Color::Green)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        if let (Some(n), Some(at)) = (v.in_hand, v.at) {
            if at.side == side || v.to_move == Some(side) {
                spans.push(Span::styled(
                    format!("  sowing hand: {n}"),
                    Style::default().fg(Color::Magenta),
                ));
            }
        }
        Line::from(spans)
    };
    let rs = rows(v.flipped);
    let top_side = rs[0].0;
    lines.push(hand_line(top_side));
    for (i, (side, front, ks)) in rs.iter().enumerate() {
        let names: String = ks
            .iter()
            .map(|&k| format!("{:>3} ", square(*side, *front, k).to_string()))
            .collect();
        let name_line = Line::styled(format!(" {names}"), Style::default().fg(Color::DarkGray));
        let mut spans = vec![Span::raw(" ")];
        for &k in ks {
            let sq = square(*side, *front, k);
            let n = v.rings[side.index()][sq.pit.index()];
            let house = bao && sq.pit.is_house() && v.houses[side.index()];
            let mut style = Style::default().fg(if n == 0 {
                Color::DarkGray
            } else {
                Color::Yellow
            });
            if house {
                style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            }
            if v.last == Some(sq) {
                style = style.bg(Color::Blue);
            }
            if v.hint == Some(sq) {
                style = style.bg(Color::Green).fg(Color::Black);
            }
            if v.block == Some(sq) || v.must == Some(sq) {
                style = style.fg(Color::Red);
            }
            if v.at == Some(sq) {
                style = style.bg(Color::Magenta).fg(Color::White);
            }
            if v.cursor == Some(sq) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            let mark = if v.block == Some(sq) {
                'x'
            } else if v.must == Some(sq) {
                '!'
            } else if house {
                '#'
            } else {
                ' '
            };
            spans.push(Span::styled(format!("{n:>3}{mark}"), style));
        }
        let counts = Line::from(spans);
        // Names on the outside of each half: above the top rows, below the bottom rows.
        if i < 2 {
            if i == 0 {
                lines.push(name_line.clone());
            }
            lines.push(counts);
            if i == 1 {
                lines.push(name_line);
                lines.push(Line::styled(
                    format!(" {}", "─".repeat(32)),
                    Style::default().fg(Color::DarkGray),
                ));
            }
        } else {
            if i == 2 {
                lines.push(name_line.clone());
            }
            lines.push(counts);
            if i == 3 {
                lines.push(name_line);
            }
        }
    }
    lines.push(hand_line(top_side.other()));
    lines
}

/// The phrases of the status line: stage, side to move, ply, block and forced capture.
fn status_phrases(pos: &Position) -> Vec<String> {
    let mut p = vec![
        stage_name(pos).to_string(),
        format!("{} to move", pos.side().name()),
        format!("ply {}", pos.ply()),
    ];
    if let Some(b) = pos.block() {
        p.push(format!("{b} blocked"));
    }
    if let Some(m) = pos.must() {
        p.push(format!("must capture {m}"));
    }
    p
}

/// Phrases joined by ` · ` into lines of at most `width` columns, each line starting with a
/// space. A line breaks only between phrases, so no phrase is cut in the middle (a phrase
/// wider than the line gets a line of its own, which the paragraph then wraps).
pub fn phrase_lines<S: AsRef<str>>(phrases: &[S], width: u16) -> Vec<String> {
    let width = usize::from(width);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for p in phrases {
        let p = p.as_ref();
        if !line.is_empty() && text_width(&line) + 3 + text_width(p) > width {
            lines.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            line = format!(" {p}");
        } else {
            line.push_str(" · ");
            line.push_str(p);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Columns `s` takes on the terminal (wide characters take two).
fn text_width(s: &str) -> usize {
    Span::raw(s).width()
}

/// Text from a record (names, comments) as the screen shows it: as written, except control
/// characters, which would move the cursor or change colours, become `�`.
pub fn screen_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
}

/// The move list as lines `1. A7L* a5R`.
pub fn move_lines(first: Side, moves: &[Move], current: Option<usize>) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut number = 1;
    let mut side = first;
    for (i, m) in moves.iter().enumerate() {
        if side == Side::South {
            if !spans.is_empty() {
                lines.push(Line::from(std::mem::take(&mut spans)));
            }
            spans.push(Span::raw(format!("{number:>3}. ")));
        } else if i == 0 {
            spans.push(Span::raw(format!("{number:>3}... ")));
        }
        let style = if current == Some(i) {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        spans.push(Span::styled(format!("{m:<6}"), style));
        spans.push(Span::raw(" "));
        if side == Side::North {
            number += 1;
        }
        side = side.other();
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    lines
}

fn split(area: Rect, title_lines: u16) -> (Rect, Rect, Rect, Rect) {
    let v = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(title_lines),
            Constraint::Min(14),
            Constraint::Length(5),
        ])
        .split(area);
    let h = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(38), Constraint::Min(18)])
        .split(v[1]);
    (v[0], h[0], h[1], v[2])
}

fn tail(lines: Vec<Line<'static>>, height: u16) -> Vec<Line<'static>> {
    let h = height.saturating_sub(2) as usize;
    let skip = lines.len().saturating_sub(h);
    lines.into_iter().skip(skip).collect()
}

/// Draws the game.
pub fn render(app: &App, f: &mut Frame) {
    let (title_a, board_a, moves_a, bottom_a) = split(f.area(), 1);
    let game = app.game();
    let pos = game.position();
    let rules = game.rules();

    let mut title = format!(
        " {} · {} (S) v {} (N)",
        rules.variant.title(),
        app.player(Side::South).name(),
        app.player(Side::North).name()
    );
    if app.config.is_match {
        let (w1, w2, _) = app.match_score();
        title.push_str(&format!(" · game {} · match {w1}–{w2}", app.games.len()));
    }
    let rules_text = rules.to_string();
    if rules_text != "-" {
        title.push_str(&format!(" · rules {rules_text}"));
    }
    f.render_widget(
        Paragraph::new(title).style(Style::default().add_modifier(Modifier::BOLD)),
        title_a,
    );

    let mut view = BoardView::of(pos);
    view.flipped = app.flipped();
    view.last = app.last_move.map(|m| m.pit().name(m.side()));
    if let Some((hp, hm)) = &app.hint {
        if hp == pos {
            view.hint = Some(hm.pit().name(hm.side()));
        }
    }
    if let Some(a) = &app.animation {
        view.rings = a.rings;
        view.hands = a.hands;
        view.at = a.at;
        view.in_hand = Some(a.in_hand);
        view.to_move = Some(a.mover);
    } else if app.human_to_move() && matches!(app.mode, Mode::Select | Mode::Choose { .. }) {
        view.cursor = Some(app.cursor_square());
    }
    let inner = board_a.width.saturating_sub(2);
    let mut lines = board_lines(&view);
    if rules.variant.is_bao() {
        for l in phrase_lines(&["# owned house", "x blocked", "! capture first"], inner) {
            lines.push(Line::styled(l, Style::default().fg(Color::DarkGray)));
        }
    } else {
        lines.push(Line::raw(""));
    }
    let outcome = game.outcome();
    if outcome.is_over() {
        lines.push(Line::styled(
            format!(" Game over: {}", outcome.describe()),
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
        ));
    } else {
        lines.extend(
            phrase_lines(&status_phrases(pos), inner)
                .into_iter()
                .map(Line::raw),
        );
    }
    if let Some(a) = &app.animation {
        lines.push(Line::styled(
            format!(" {}", a.caption()),
            Style::default().fg(Color::Magenta),
        ));
    }
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" Board ")),
        board_a,
    );

    let ml = move_lines(game.start().side(), game.moves(), None);
    f.render_widget(
        Paragraph::new(tail(ml, moves_a.height))
            .block(Block::default().borders(Borders::ALL).title(" Moves ")),
        moves_a,
    );

    let mut bottom: Vec<Line<'static>> = Vec::new();
    let msg_style = if app.message_is_error {
        Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::default()
    };
    bottom.push(Line::styled(app.message.clone(), msg_style));
    match &app.mode {
        Mode::Typing(text) => bottom.push(Line::from(vec![
            Span::styled("Move: ", Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(text.clone()),
            Span::styled("█", Style::default().fg(Color::Gray)),
        ])),
        Mode::Choose {
            question,
            options,
            selected,
        } => {
            let mut spans = vec![Span::styled(
                "Choose: ",
                Style::default().add_modifier(Modifier::BOLD),
            )];
            for (i, (label, _)) in app.choice_list(*question, options).iter().enumerate() {
                let st = if i == *selected {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default()
                };
                spans.push(Span::styled(format!("[{label}]"), st));
                spans.push(Span::raw(" "));
            }
            bottom.push(Line::from(spans));
        }
        _ => {}
    }
    let help: &[&str] = if app.animation.is_some() {
        &["any key: skip the animation"]
    } else if app.vs_computer() {
        &[
            "←→↑↓ pit",
            "Enter play",
            ": or A-B/1-8 type a move",
            "h hint",
            "u undo",
            "n next game",
            "q quit",
        ]
    } else {
        &[
            "←→↑↓ pit",
            "Enter play",
            ": or A-B/1-8 type a move",
            "n next game",
            "q quit",
        ]
    };
    for l in phrase_lines(help, bottom_a.width) {
        bottom.push(Line::styled(l, Style::default().fg(Color::DarkGray)));
    }
    f.render_widget(
        Paragraph::new(bottom)
            .wrap(Wrap { trim: true })
            .block(Block::default().borders(Borders::TOP)),
        bottom_a,
    );
}

/// Draws the replay viewer.
pub fn render_replay(r: &Replay, f: &mut Frame) {
    let rec = r.record();
    // Names are shown as written; the title takes as many lines as the width needs, so the
    // date and the result are never cut off.
    let title = phrase_lines(
        &[
            format!("Replay {}/{}", r.index + 1, r.count()),
            rec.variant.title().to_string(),
            format!(
                "{} (S) v {} (N)",
                screen_text(&rec.south),
                screen_text(&rec.north)
            ),
            rec.date.to_string(),
            format!("result {}", rec.result),
        ],
        f.area().width,
    );
    let width = usize::from(f.area().width.max(1));
    let title_height: usize = title.iter().map(|l| text_width(l).div_ceil(width)).sum();
    let title_height = title_height.clamp(1, 4) as u16;
    let (title_a, board_a, moves_a, bottom_a) = split(f.area(), title_height);
    f.render_widget(
        Paragraph::new(title.into_iter().map(Line::raw).collect::<Vec<_>>())
            .wrap(Wrap { trim: false })
            .style(Style::default().add_modifier(Modifier::BOLD)),
        title_a,
    );
    let pos = r.position();
    let mut view = BoardView::of(pos);
    if r.ply > 0 {
        let m = r.game().moves()[r.ply - 1];
        view.last = Some(m.pit().name(m.side()));
    }
    if let Some(a) = &r.animation {
        view.rings = a.rings;
        view.hands = a.hands;
        view.at = a.at;
        view.in_hand = Some(a.in_hand);
        view.to_move = Some(a.mover);
    }
    let mut lines = board_lines(&view);
    lines.push(Line::raw(""));
    let mut status = vec![format!("move {}/{}", r.ply, r.game().moves().len())];
    status.extend(status_phrases(pos));
    lines.extend(
        phrase_lines(&status, board_a.width.saturating_sub(2))
            .into_iter()
            .map(Line::raw),
    );
    if r.ply == r.game().moves().len() {
        let o = r.game().outcome();
        if o.is_over() {
            lines.push(Line::styled(
                format!(" {}", o.describe()),
                Style::default().fg(Color::Green),
            ));
        }
    }
    if let Some(a) = &r.animation {
        lines.push(Line::styled(
            format!(" {}", a.caption()),
            Style::default().fg(Color::Magenta),
        ));
    } else if let Some(c) = r.comment() {
        lines.push(Line::styled(
            format!(" {{{}}}", screen_text(c)),
            Style::default().fg(Color::Cyan),
        ));
    }
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" Board ")),
        board_a,
    );
    let current = r.ply.checked_sub(1);
    let ml = move_lines(r.game().start().side(), r.game().moves(), current);
    // Keep the current move in view.
    let h = moves_a.height.saturating_sub(2) as usize;
    let cur_line = ml
        .iter()
        .position(|l| {
            l.spans
                .iter()
                .any(|s| s.style.add_modifier.contains(Modifier::REVERSED))
        })
        .unwrap_or(0);
    let skip = cur_line.saturating_sub(h.saturating_sub(1));
    let ml: Vec<Line<'static>> = ml.into_iter().skip(skip).collect();
    f.render_widget(
        Paragraph::new(ml).block(Block::default().borders(Borders::ALL).title(" Moves ")),
        moves_a,
    );
    let mut bottom = vec![Line::raw(r.message.clone())];
    let help = [
        "→/space next",
        "← back",
        "Home/End",
        "n/p next/previous record",
        "q quit",
    ];
    for l in phrase_lines(&help, bottom_a.width) {
        bottom.push(Line::styled(l, Style::default().fg(Color::DarkGray)));
    }
    f.render_widget(
        Paragraph::new(bottom)
            .wrap(Wrap { trim: true })
            .block(Block::default().borders(Borders::TOP)),
        bottom_a,
    );
}
