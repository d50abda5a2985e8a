//! Prints the game screen after a few moves, as ratatui's test backend sees it:
//! `cargo run -p bao-tui --example screen`.
use bao_rules::{Rules, Variant};
use bao_tui::{key, ui, App, PlayConfig};
use crossterm::event::KeyCode;
use ratatui::{backend::TestBackend, Terminal};

fn main() {
    let mut app = App::new(PlayConfig::vs_computer(Rules::new(Variant::Kiswahili), 1));
    for c in ":A7L*".chars() {
        app.handle_key(key(KeyCode::Char(c)));
    }
    app.handle_key(key(KeyCode::Enter));
    app.settle();
    app.handle_key(key(KeyCode::Char('h')));
    app.settle();
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("a test terminal");
    t.draw(|f| ui::render(&app, f)).expect("drawn");
    let buf = t.backend().buffer();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        println!("{}", line.trim_end());
    }
}
