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
