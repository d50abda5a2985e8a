//! # bao-render
//!
//! The one board drawing of the project: a [`Position`] as an SVG document. `bao svg`, the
//! web app (crates/bao-server) and the rules pages all call [`svg`], so a board looks the
//! same everywhere. Pure: no I/O, no global state.
//!
//! The structure of the SVG is a contract with the web front-end (docs/api.md, "Board SVG"):
//! * root `<svg class="bao-board" data-position="POSITION" viewBox=...>`, North's rows at
//!   the top in the diagram order of BRD-2.2 (unless [`SvgOptions::flipped`]);
//! * one `<g class="pit ..." id="pit-A5" data-pit="A5" data-side="S" data-seeds="6">` per
//!   pit, holding a shape of class `hole`, `<text class="count">` and `<text class="name">`;
//!   its classes are `pit`, `front` or `back`, and when they apply `house`, `owned`,
//!   `blocked`, `must`, `last-move`, `highlight`;
//! * `<g class="hand" id="hand-S" data-seeds="22">` holding one `<text>` whose `<tspan
//!   class="label">` and `<tspan class="count">` follow each other on one line, and the
//!   same for `hand-N`.
//!
//! Colours are presentation attributes, so a page's CSS overrides them while a standalone
//! file (`bao svg > board.svg`) still looks right.
//!
//! ```
//! use bao_render::{svg, SvgOptions};
//! use bao_rules::{Position, Rules, Variant};
//! let pos = Position::start(&Rules::new(Variant::Kiswahili));
//! let doc = svg(&pos, &SvgOptions::default());
//! assert!(doc.starts_with("<svg"));
//! assert!(doc.contains(r#"id="pit-A5""#));
//! ```
#![warn(missing_docs)]

use bao_rules::{Move, Pit, Position, Side, Square, Variant};
use std::fmt::Write as _;

/// The move that led to the drawn position, marked on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The pit the move started from; it gets the class `last-move`.
    pub pit: Square,
    /// The move as written (canonical when it comes from a [`Move`]); shown in the caption
    /// and in the root's `data-last-move`.
    pub text: String,
}

impl LastMove {
    /// Reads a move text for marking only: `[row]digit[anything]`, for example `A7L*`,
    /// `a5R+`, `B3`. The row letter's case names the mover (BRD-2.5); without a row
    /// letter, the front pit of `mover` is meant. Returns `None` when the text does not
    /// start like a move. This does not check legality: the position before the move is
    /// not known here.
    pub fn parse(text: &str, mover: Side) -> Option<LastMove> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.is_empty() || !t.is_ascii() || t.len() > 8 {
            return None;
        }
        let (side, front, rest) = match b[0] {
            b'A' => (Side::South, true, &b[1..]),
            b'B' => (Side::South, false, &b[1..]),
            b'a' => (Side::North, true, &b[1..]),
            b'b' => (Side::North, false, &b[1..]),
            b'1'..=b'8' => (mover, true, b),
            _ => return None,
        };
        let digit = *rest.first()?;
        if !(b'1'..=b'8').contains(&digit) {
            return None;
        }
        if !rest[1..]
            .iter()
            .all(|c| matches!(c, b'L' | b'R' | b'l' | b'r' | b'<' | b'>' | b'+' | b'*'))
        {
            return None;
        }
        let pit = Pit::from_row(front, digit - b'0')?;
        Some(LastMove {
            pit: Square { side, pit },
            text: t.to_string(),
        })
    }
}

impl From<&Move> for LastMove {
    fn from(m: &Move) -> LastMove {
        LastMove {
            pit: m.pit().name(m.side()),
            text: m.to_string(),
        }
    }
}

impl From<Move> for LastMove {
    fn from(m: Move) -> LastMove {
        LastMove::from(&m)
    }
}

/// How to draw a board. `SvgOptions::default()` is the usual picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Width of the picture in pixels (`width`/`height` attributes); `None` leaves the size
    /// to the page (only the `viewBox` is set).
    pub size: Option<u32>,
    /// Write each pit's name (A5, b3, ...) under its count.
    pub show_names: bool,
    /// Write a caption line (side to move, ply, last move, flags) under the board.
    pub show_caption: bool,
    /// Mark the move that led here.
    pub last_move: Option<LastMove>,
    /// Further pits to mark with the class `highlight` (legal start pits, a hint, ...).
    pub highlights: Vec<Square>,
    /// Draw South's rows at the top (the board as North sees it). Ids and names do not change.
    pub flipped: bool,
    /// An accessible title (`<title>`); `None` gives a generated one.
    pub title: Option<String>,
    /// Whether the game is over (no turn dot; the caption says "Game over"). `None` decides
    /// from the position under the variant's default rules (BRD-7.3); callers that know the
    /// game's rules or its result (a resignation) say so.
    pub over: Option<bool>,
    /// The language of the words in the picture (labels, caption, titles).
    pub lang: Lang,
}

/// The language of a picture's words: the web app's two languages (docs/i18n.md). The words
/// are those of the page catalogs (`web/i18n/*/game.json`), so that a picture and the page
/// that redraws it say the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Kiswahili.
    Sw,
}

impl Lang {
    /// `"en"` or `"sw"`; anything else is `None`.
    ///
    /// ```
    /// assert_eq!(bao_render::Lang::from_code("sw"), Some(bao_render::Lang::Sw));
    /// assert_eq!(bao_render::Lang::from_code("fr"), None);
    /// ```
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "sw" => Some(Lang::Sw),
            _ => None,
        }
    }
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            size: Some(520),
            show_names: true,
            show_caption: true,
            last_move: None,
            highlights: Vec::new(),
            flipped: false,
            title: None,
            over: None,
            lang: Lang::En,
        }
    }
}

// Geometry, in viewBox units.
const CELL: u32 = 60;
const PAD: u32 = 16;
const HAND_H: u32 = 40;
const GAP: u32 = 12; // between North's and South's halves
const CAPTION_H: u32 = 26;
const WIDTH: u32 = 8 * CELL + 2 * PAD;

fn height(opts: &SvgOptions) -> u32 {
    PAD * 2 + HAND_H * 2 + 4 * CELL + GAP + if opts.show_caption { CAPTION_H } else { 0 }
}

/// The square shown at diagram row `row` (0 = top, North's back row) and column `col`
/// (0 = left), in the diagram order of BRD-2.2.
fn square_at(row: u32, col: u32) -> Square {
    let k = (col + 1) as u8; // 1..=8
    match row {
        0 => Square {
            side: Side::North,
            pit: Pit::back(9 - k),
        },
        1 => Square {
            side: Side::North,
            pit: Pit::front(9 - k),
        },
        2 => Square {
            side: Side::South,
            pit: Pit::front(k),
        },
        _ => Square {
            side: Side::South,
            pit: Pit::back(k),
        },
    }
}

/// Escapes text for XML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids are dropped rather than producing a broken file.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// The name of a side for people: South, North; Kusini, Kaskazini.
pub fn side_name(s: Side, lang: Lang) -> &'static str {
    match (s, lang) {
        (Side::South, Lang::En) => "South",
        (Side::North, Lang::En) => "North",
        (Side::South, Lang::Sw) => "Kusini",
        (Side::North, Lang::Sw) => "Kaskazini",
    }
}

fn to_move(s: Side, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{} to move", side_name(s, lang)),
        Lang::Sw => format!("Zamu ya {}", side_name(s, lang)),
    }
}

/// Draws `pos` as a standalone SVG document (no XML declaration, so it can also be
/// inlined into HTML). See the crate documentation for its structure.
pub fn svg(pos: &Position, opts: &SvgOptions) -> String {
    let h = height(opts);
    let mut s = String::with_capacity(16 * 1024);
    let position = pos.to_string();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="bao-board variant-{v}" data-position="{p}" data-variant="{v}" data-side-to-move="{stm}""#,
        v = pos.variant().id(),
        p = esc(&position),
        stm = pos.side().letter(),
    );
    if let Some(lm) = &opts.last_move {
        let _ = write!(s, r#" data-last-move="{}""#, esc(&lm.text));
    }
    if opts.flipped {
        s.push_str(r#" data-flipped="true""#);
    }
    let _ = write!(s, r#" viewBox="0 0 {WIDTH} {h}""#);
    if let Some(w) = opts.size {
        // Keep the aspect ratio of the viewBox.
        let hh = (u64::from(w) * u64::from(h) / u64::from(WIDTH)) as u32;
        let _ = write!(s, r#" width="{w}" height="{hh}""#);
    }
    s.push_str(r#" font-family="sans-serif" role="img">"#);
    let title = opts.title.clone().unwrap_or_else(|| match opts.lang {
        Lang::En => format!(
            "{} board, {} to move, ply {}",
            pos.variant().title(),
            side_name(pos.side(), opts.lang),
            pos.ply()
        ),
        Lang::Sw => format!(
            "Ubao wa {}, zamu ya {}, zamu {}",
            pos.variant().title(),
            side_name(pos.side(), opts.lang),
            pos.ply()
        ),
    });
    let _ = write!(s, "<title>{}</title>", esc(&title));

    // The board.
    let board_top = PAD + HAND_H;
    let board_h = 4 * CELL + GAP;
    let _ = write!(
        s,
        r##"<rect class="board" x="{x}" y="{y}" width="{w}" height="{bh}" rx="10" fill="#c8964e" stroke="#6b4420" stroke-width="3"/>"##,
        x = PAD - 6,
        y = board_top - 6,
        w = 8 * CELL + 12,
        bh = board_h + 12,
    );
    // The line between the two players' halves.
    let mid = board_top + 2 * CELL + GAP / 2;
    let _ = write!(
        s,
        r##"<line class="divider" x1="{x1}" y1="{mid}" x2="{x2}" y2="{mid}" stroke="#6b4420" stroke-width="2"/>"##,
        x1 = PAD,
        x2 = PAD + 8 * CELL,
    );

    // Hands: North's above the board, South's below, unless flipped.
    let (top_side, bottom_side) = if opts.flipped {
        (Side::South, Side::North)
    } else {
        (Side::North, Side::South)
    };
    // A finished game (by the rules of the position, BRD-7.3) has no side to move: no turn
    // dot, and the caption says so: a finished game shows no turn indicator.
    let over = opts
        .over
        .unwrap_or_else(|| bao_rules::status(pos, &bao_rules::Rules::new(pos.variant())).is_over());
    hand(&mut s, pos, top_side, PAD + HAND_H / 2, over, opts.lang);
    hand(
        &mut s,
        pos,
        bottom_side,
        board_top + board_h + HAND_H / 2,
        over,
        opts.lang,
    );

    for row in 0..4u32 {
        for col in 0..8u32 {
            let (drow, dcol) = if opts.flipped {
                (3 - row, 7 - col)
            } else {
                (row, col)
            };
            let sq = square_at(row, col);
            let x = PAD + dcol * CELL + CELL / 2;
            let y = board_top + drow * CELL + if drow >= 2 { GAP } else { 0 } + CELL / 2;
            pit(&mut s, pos, opts, sq, x, y);
        }
    }

    if opts.show_caption {
        let y = board_top + board_h + HAND_H + CAPTION_H / 2 + 4;
        let caption = caption(
            pos,
            opts.last_move.as_ref().map(|l| l.text.as_str()),
            over,
            opts.lang,
        );
        let _ = write!(
            s,
            r##"<text class="caption" x="{x}" y="{y}" text-anchor="middle" font-size="15" fill="#333">{c}</text>"##,
            x = WIDTH / 2,
            c = esc(&caption),
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The caption line: a sentence for people, never the position's raw flags.
/// `static/board.js` (`boardCaption`) writes the same English text, so that a page that
/// follows a game by itself shows what a fresh picture would.
pub fn caption(pos: &Position, last_move: Option<&str>, over: bool, lang: Lang) -> String {
    let n = pos.ply();
    let mut c = match (over, lang) {
        (true, Lang::En) => "Game over".to_string(),
        (true, Lang::Sw) => "Mchezo umekwisha".to_string(),
        (false, _) => to_move(pos.side(), lang),
    };
    let _ = match lang {
        Lang::En => write!(c, " · {n} {} played", if n == 1 { "move" } else { "moves" }),
        Lang::Sw if n == 1 => write!(c, " · zamu {n} imechezwa"),
        Lang::Sw => write!(c, " · zamu {n} zimechezwa"),
    };
    if let Some(lm) = last_move {
        let _ = match lang {
            Lang::En => write!(c, " · last move {lm}"),
            Lang::Sw => write!(c, " · zamu ya mwisho {lm}"),
        };
    }
    c
}

/// The label of a side's seeds off the board: "South hand", "Mkono wa Kusini"; kimasai's are
/// its reserve (akiba), one word everywhere.
pub fn hand_label(side: Side, variant: Variant, lang: Lang) -> String {
    let kimasai = variant == Variant::Kimasai;
    match (lang, kimasai) {
        (Lang::En, true) => format!("{} reserve", side_name(side, lang)),
        (Lang::En, false) => format!("{} hand", side_name(side, lang)),
        (Lang::Sw, true) => format!("Akiba ya {}", side_name(side, lang)),
        (Lang::Sw, false) => format!("Mkono wa {}", side_name(side, lang)),
    }
}

fn hand(s: &mut String, pos: &Position, side: Side, cy: u32, over: bool, lang: Lang) {
    let n = pos.hand(side);
    let mover = pos.side() == side && !over;
    let class = if mover { " to-move" } else { "" };
    let label = hand_label(side, pos.variant(), lang);
    let _ = write!(
        s,
        r#"<g class="hand{class}" id="hand-{l}" data-side="{l}" data-seeds="{n}">"#,
        l = side.letter(),
    );
    // Label and count are one line of text: the count is laid out after the label, however
    // long the label is in the reader's language ("Mkono wa Kaskazini") or font, at any size.
    let _ = write!(
        s,
        r##"<text class="hand-text" x="{x}" y="{y}"><tspan class="label" font-size="16" fill="#333">{label}</tspan><tspan class="count" dx="10" font-size="20" font-weight="bold" fill="#222">{n}</tspan></text>"##,
        x = PAD,
        y = cy + 7,
    );
    if mover {
        let _ = write!(
            s,
            r##"<circle class="turn" cx="{x}" cy="{cy}" r="7" fill="#2a7a2a"><title>{name}</title></circle>"##,
            x = PAD + 8 * CELL - 8,
            name = to_move(side, lang),
        );
    }
    s.push_str("</g>");
}

fn pit(s: &mut String, pos: &Position, opts: &SvgOptions, sq: Square, x: u32, y: u32) {
    let bao = pos.variant() != Variant::Kimasai;
    let n = pos.seeds(sq.side, sq.pit);
    let is_house = bao && sq.pit.is_house();
    let owned = is_house && pos.owns_house(sq.side);
    let blocked = pos.block() == Some(sq);
    let must = pos.must() == Some(sq);
    let last = opts.last_move.as_ref().is_some_and(|l| l.pit == sq);
    let highlight = opts.highlights.contains(&sq);

    let mut class = String::from("pit");
    class.push_str(if sq.pit.is_front() { " front" } else { " back" });
    for (on, name) in [
        (is_house, " house"),
        (owned, " owned"),
        (blocked, " blocked"),
        (must, " must"),
        (last, " last-move"),
        (highlight, " highlight"),
    ] {
        if on {
            class.push_str(name);
        }
    }
    let _ = write!(
        s,
        r#"<g class="{class}" id="pit-{sq}" data-pit="{sq}" data-side="{side}" data-seeds="{n}">"#,
        side = sq.side.letter(),
    );
    // The whole cell catches a tap or click, not only the painted circle and digits: a pit
    // on a phone must be a target of at least 44 px.
    let _ = write!(
        s,
        r#"<rect class="hit" x="{hx}" y="{hy}" width="{CELL}" height="{CELL}" fill="none" pointer-events="all"/>"#,
        hx = x - CELL / 2,
        hy = y - CELL / 2,
    );
    // Colours: the mover's pits a shade lighter is noise; keep it to states that matter.
    let fill = if blocked {
        "#9a9a9a"
    } else if owned {
        "#7a4a1c"
    } else {
        "#8a5a2b"
    };
    let stroke = if last {
        ("#e0b000", 4)
    } else if highlight {
        ("#2a7a2a", 4)
    } else if must {
        ("#b02020", 3)
    } else {
        ("#5a3510", 1)
    };
    let r = CELL / 2 - 6;
    if is_house {
        // The house is the square pit (nyumba, kuu).
        let _ = write!(
            s,
            r#"<rect class="hole" x="{x0}" y="{y0}" width="{w}" height="{w}" rx="4" fill="{fill}" stroke="{sc}" stroke-width="{sw}"/>"#,
            x0 = x - r,
            y0 = y - r,
            w = 2 * r,
            sc = stroke.0,
            sw = stroke.1,
        );
    } else {
        let _ = write!(
            s,
            r#"<circle class="hole" cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{sc}" stroke-width="{sw}"/>"#,
            sc = stroke.0,
            sw = stroke.1,
        );
    }
    if blocked {
        let _ = write!(
            s,
            r##"<line class="block-mark" x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#b02020" stroke-width="3"/>"##,
            a = x - r + 6,
            b = y - r + 6,
            c = x + r - 6,
            d = y + r - 6,
        );
    }
    let cy = if opts.show_names { y + 3 } else { y + 7 };
    let _ = write!(
        s,
        r##"<text class="count" x="{x}" y="{cy}" text-anchor="middle" font-size="20" font-weight="bold" fill="{c}">{n}</text>"##,
        c = if n == 0 { "#c9a77a" } else { "#fff8e8" },
    );
    if opts.show_names {
        let _ = write!(
            s,
            r##"<text class="name" x="{x}" y="{ny}" text-anchor="middle" font-size="10" fill="#f0dcb8">{sq}</text>"##,
            ny = y + r - 4,
        );
    }
    s.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::{Rules, Variant};

    #[test]
    fn square_at_follows_brd_2_2_diagram_order() {
        let names: Vec<String> = (0..4)
            .map(|r| {
                (0..8)
                    .map(|c| square_at(r, c).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(names[0], "b8 b7 b6 b5 b4 b3 b2 b1");
        assert_eq!(names[1], "a8 a7 a6 a5 a4 a3 a2 a1");
        assert_eq!(names[2], "A1 A2 A3 A4 A5 A6 A7 A8");
        assert_eq!(names[3], "B1 B2 B3 B4 B5 B6 B7 B8");
    }

    #[test]
    fn caption_is_a_sentence_and_a_finished_game_has_no_turn_dot() {
        let rules = Rules::new(Variant::Kiswahili);
        let start = Position::start(&rules);
        let opts = SvgOptions::default();
        let svg = svg(&start, &opts);
        assert!(
            svg.contains(">South to move · 0 moves played</text>"),
            "{svg}"
        );
        assert!(svg.contains("circle class=\"turn\""));
        // The caption holds no raw flags (the data-position attribute keeps them for scripts).
        assert!(!svg.contains("house:S,house:N</text>"));
        // North's front row is empty: South has won (BRD-7.3); nobody is to move.
        let text = "kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,10/0,0,0,0,0,0,0,0 N 22/22 house:S 1";
        let done = Position::parse(text, &rules).expect("a valid position");
        let lm = LastMove::parse("A6L", Side::South);
        let svg = super::svg(
            &done,
            &SvgOptions {
                last_move: lm,
                ..SvgOptions::default()
            },
        );
        assert!(
            svg.contains(">Game over · 1 move played · last move A6L</text>"),
            "{svg}"
        );
        assert!(!svg.contains("circle class=\"turn\""), "{svg}");
        assert!(!svg.contains("hand to-move"));
        let masai = svg_of_start(Variant::Kimasai);
        assert!(masai.contains("South reserve</tspan>") && !masai.contains(" hand</tspan>"));
    }

    fn svg_of_start(v: Variant) -> String {
        svg(&Position::start(&Rules::new(v)), &SvgOptions::default())
    }

    #[test]
    fn last_move_parse() {
        let lm = LastMove::parse("A7L*", Side::North).unwrap();
        assert_eq!(lm.pit.to_string(), "A7");
        let lm = LastMove::parse("7L*", Side::North).unwrap();
        assert_eq!(lm.pit.to_string(), "a7");
        assert_eq!(
            LastMove::parse("b3", Side::South).unwrap().pit.to_string(),
            "b3"
        );
        assert!(LastMove::parse("C3", Side::South).is_none());
        assert!(LastMove::parse("A9", Side::South).is_none());
        assert!(LastMove::parse("A3x", Side::South).is_none());
        assert!(LastMove::parse("", Side::South).is_none());
    }

    #[test]
    fn escaping() {
        assert_eq!(esc("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;&quot;&apos;");
    }

    #[test]
    fn kimasai_has_no_house_class() {
        let pos = Position::start(&Rules::new(Variant::Kimasai));
        assert!(!svg(&pos, &SvgOptions::default()).contains(" house"));
        let pos = Position::start(&Rules::new(Variant::Kiswahili));
        assert!(svg(&pos, &SvgOptions::default())
            .contains(r#"class="pit front house owned" id="pit-A5""#));
    }
}
