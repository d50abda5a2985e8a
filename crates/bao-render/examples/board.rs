//! Prints the board SVG of a position: `cargo run -p bao-render --example board -- kiswahili`.
use bao_render::{svg, SvgOptions};
use bao_rules::{Position, Rules};

fn main() {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "kiswahili".into());
    let variant = Position::variant_of(&text).expect("a position or a variant name");
    let rules = Rules::new(variant);
    let pos = Position::parse(&text, &rules).expect("a valid position");
    print!("{}", svg(&pos, &SvgOptions::default()));
}
