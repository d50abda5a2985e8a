//! `bao svg POSITION [--last-move M] > board.svg`: the shared board drawing (bao-render).

use crate::common::{load, out, CliError};
use bao_render::{svg, LastMove, SvgOptions};
use bao_rules::{printable, Square};
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct SvgArgs {
    /// Rule options: name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// The move that led to POSITION (for example A7L*); its start pit is marked.
    #[arg(long, value_name = "MOVE", allow_hyphen_values = true)]
    last_move: Option<String>,
    /// Pits to highlight, comma-separated (for example A5,a4).
    #[arg(long, value_name = "PITS")]
    highlight: Option<String>,
    /// Width in pixels (0: leave the size to the page; only the viewBox is set).
    #[arg(long, value_name = "PX", default_value = "520")]
    size: u32,
    /// Leave out the pit names.
    #[arg(long)]
    no_names: bool,
    /// Leave out the caption line under the board.
    #[arg(long)]
    no_caption: bool,
    /// Draw the board as North sees it (South's rows at the top).
    #[arg(long)]
    flip: bool,
    /// The position to draw (a full position in quotes, or a variant name).
    #[arg(value_name = "POSITION")]
    position: String,
}

pub fn run(a: SvgArgs) -> Result<(), CliError> {
    let (pos, _rules) = load(&a.position, a.rules.as_deref())?;
    let mut opts = SvgOptions {
        size: (a.size > 0).then_some(a.size),
        show_names: !a.no_names,
        show_caption: !a.no_caption,
        flipped: a.flip,
        ..SvgOptions::default()
    };
    if let Some(m) = &a.last_move {
        // The last move was made by the side not to move now.
        opts.last_move = Some(
            LastMove::parse(m, pos.side().other()).ok_or_else(|| CliError {
                category: "bad_move",
                detail: format!("--last-move '{}': not a move (e.g. A7L*)", printable(m)),
                status: 2,
            })?,
        );
    }
    if let Some(h) = &a.highlight {
        for p in h.split(',').filter(|p| !p.is_empty()) {
            opts.highlights.push(Square::parse(p).ok_or_else(|| {
                CliError::usage(format!(
                    "--highlight: '{}' is not a pit name (A1..B8, a1..b8)",
                    printable(p)
                ))
            })?);
        }
    }
    let mut o = out();
    o.write_all(svg(&pos, &opts).as_bytes())?;
    o.flush()?;
    Ok(())
}

/// Whether `bao show` colours its diagram: only when standard output is a terminal (or
/// CLICOLOR_FORCE is set to something other than 0), and never when NO_COLOR is set and
/// not empty (no-color.org).
pub fn colour_enabled() -> bool {
    use std::io::IsTerminal;
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set("NO_COLOR") {
        return false;
    }
    let forced = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    forced || std::io::stdout().is_terminal()
}

/// Colours the plain `bao show` diagram (CLI-6) without moving a character: the ANSI codes
/// wrap fields of the plain text, so removing them gives the plain text back. Pit names
/// are dim, empty pits dim, seeds bold yellow, an owned house magenta and underlined, the
/// blocked pit red, and the hand of the side to move green.
pub fn colour_diagram(plain: &str, pos: &bao_rules::Position) -> String {
    use bao_rules::{Pit, Side, Variant};
    const DIM: &str = "\x1b[2m";
    const RESET: &str = "\x1b[0m";
    // The pits of the four count lines, left to right (BRD-2.2).
    let rows: [(Side, [Pit; 8]); 4] = [
        (Side::North, std::array::from_fn(|j| Pit::back(8 - j as u8))),
        (
            Side::North,
            std::array::from_fn(|j| Pit::front(8 - j as u8)),
        ),
        (
            Side::South,
            std::array::from_fn(|j| Pit::front(j as u8 + 1)),
        ),
        (Side::South, std::array::from_fn(|j| Pit::back(j as u8 + 1))),
    ];
    let bao = pos.variant() != Variant::Kimasai;
    let mut count_row = 0;
    let mut out = String::with_capacity(plain.len() * 3);
    for line in plain.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let is_names = !body.trim().is_empty()
            && body
                .split_whitespace()
                .all(|t| bao_rules::Square::parse(t).is_some());
        let is_counts = !body.trim().is_empty()
            && body.bytes().all(|b| b == b' ' || b.is_ascii_digit())
            && count_row < 4;
        if is_names {
            out.push_str(&format!("{DIM}{body}{RESET}"));
        } else if is_counts && body.len() == 3 + 8 * 3 {
            let (side, pits) = rows[count_row];
            count_row += 1;
            out.push_str(&body[..3]);
            for (j, pit) in pits.iter().enumerate() {
                let field = &body[3 + 3 * j..6 + 3 * j];
                let sq = pit.name(side);
                let style = if pos.block() == Some(sq) {
                    "\x1b[1;41;97m"
                } else if bao && pit.is_house() && pos.owns_house(side) {
                    "\x1b[1;4;35m"
                } else if pos.seeds(side, *pit) == 0 {
                    DIM
                } else {
                    "\x1b[1;33m"
                };
                out.push_str(&format!("{style}{field}{RESET}"));
            }
        } else if body.starts_with(pos.side().name()) && body.contains(" hand ")
            || body.starts_with(pos.side().name()) && body.contains(" reserve ")
        {
            out.push_str(&format!("\x1b[1;32m{body}{RESET}"));
        } else if body.starts_with("game over") {
            out.push_str(&format!("\x1b[1;31m{body}{RESET}"));
        } else if body.contains(" to move, ply ") {
            out.push_str(&format!("\x1b[36m{body}{RESET}"));
        } else {
            out.push_str(body);
        }
        out.push_str(nl);
    }
    out
}
