//! `bao learn`: the Jifunze lessons (docs/learn.md) in the terminal, line by line. The
//! lessons and their checks are bao-learn's; the texts are the web app's `learn.` catalog
//! entries (`crates/bao-server/web/i18n/{en,sw}/learn.json`, loaded by the server's
//! `Catalogs::load`), so the terminal and the browser teach with the same sentences.
//!
//! Plain lines in and out, so that it works through a pipe as well as at a terminal: each
//! step shows the board (the pit rows of `bao show`, CLI-6, with words in the learner's
//! language), the step's sentence and a prompt; the learner types a move (NOT-2: a
//! canonical move or a shorter unambiguous form) or a word (hint, again, skip, quit).

use crate::common::CliError;
use bao_learn::{check_step, course, stars, Course, Replies, Step};
use bao_render::Lang;
use bao_rules::{find_move, legal_moves, printable, MoveError, Position, Rules, Variant};
use bao_server::web::i18n::{self, Catalogs};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};

#[derive(Args, Debug)]
#[command(after_help = "\
Each step shows the board, one sentence of teaching and a goal. Type a move in
the spec's notation (A6R*: the pit, the direction, * for a seed from the hand;
a shorter form such as A6 will do when only one move fits) and press Enter.
Words you can type instead (English or Kiswahili):
  hint / dokezo    the next hint
  moves / zamu     the legal moves here
  again / tena     start the step again
  skip / ruka      go to the next step
  quit / toka      stop (also end of input)
A step done in its par of moves earns three stars.

Kwa Kiswahili: kila hatua inaonyesha ubao, sentensi ya somo na lengo. Andika
zamu (kama A6R*) kisha bonyeza Enter, au mojawapo ya maneno hapo juu. Hatua
iliyokamilika kwa idadi yake ya zamu inapata nyota tatu.

Examples:
  bao learn                          Bao la Kiswahili, from the first lesson
  bao learn kete --lang sw           Bao la Kete, in Kiswahili
  bao learn kimasai --lesson 3       from the third lesson
  printf 'A3R*\\nA6R*\\nA3R*\\n' | bao learn --lang sw
                                     moves from a pipe: the first lesson, no terminal")]
pub struct LearnArgs {
    /// The game: kiswahili, kete or kimasai.
    #[arg(value_name = "VARIANT", default_value = "kiswahili")]
    variant: String,
    /// The language of the lessons: sw (Kiswahili) or en (English). Default: sw when the
    /// environment's LANG starts with sw, else en.
    #[arg(long, value_name = "sw|en")]
    lang: Option<String>,
    /// Start at this lesson (1 is the first) and go on from there.
    #[arg(long, value_name = "N", default_value_t = 1)]
    lesson: usize,
}

pub fn run(a: LearnArgs) -> Result<(), CliError> {
    let variant = Variant::from_id(&a.variant).ok_or_else(|| {
        CliError::usage(format!(
            "'{}' is not a game: use kiswahili, kete or kimasai",
            printable(&a.variant)
        ))
    })?;
    let lang = match &a.lang {
        Some(code) => Lang::from_code(code).ok_or_else(|| {
            CliError::usage(format!("--lang '{}': use sw or en", printable(code)))
        })?,
        None => std::env::var("LANG")
            .ok()
            .filter(|l| l.to_ascii_lowercase().starts_with("sw"))
            .map_or(Lang::En, |_| Lang::Sw),
    };
    let c = course(variant);
    if a.lesson == 0 || a.lesson > c.lessons.len() {
        return Err(CliError::usage(format!(
            "--lesson {}: {} has lessons 1 to {}",
            a.lesson,
            variant.id(),
            c.lessons.len()
        )));
    }
    let catalogs = Catalogs::load().map_err(|e| CliError::internal(e.to_string()))?;
    let stdin = std::io::stdin();
    let mut session = Session {
        lang,
        catalogs: &catalogs,
        echo: !stdin.is_terminal(),
        colour: crate::svg_cmd::colour_enabled(),
        out: std::io::stdout().lock(),
        input: stdin.lock(),
        seed: 1,
    };
    session.course(&c, a.lesson - 1)?;
    Ok(())
}

/// What the learner typed.
#[derive(Debug, PartialEq)]
enum Typed {
    Hint,
    Moves,
    Again,
    Skip,
    Quit,
    Move(String),
}

fn parse_typed(line: &str) -> Typed {
    let t = line.trim();
    match t.to_lowercase().as_str() {
        "" | "?" | "hint" | "h" | "dokezo" | "msaada" => Typed::Hint,
        "moves" | "m" | "zamu" => Typed::Moves,
        "again" | "a" | "restart" | "tena" | "upya" => Typed::Again,
        "skip" | "s" | "next" | "ruka" => Typed::Skip,
        "quit" | "q" | "exit" | "toka" | "acha" => Typed::Quit,
        _ => Typed::Move(t.to_string()),
    }
}

/// The learner's words around the lessons (the lessons' own texts are catalog entries).
fn say(lang: Lang, en: &'static str, sw: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Sw => sw,
    }
}

/// A catalog text for the terminal: the markup of the web app's texts (`<span lang="sw">`
/// around Bao's own words) dropped.
fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(ch),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
}

/// `text` wrapped at `width` columns.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if col > 0 && col + 1 + n > width {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += n;
    }
    out
}

fn stars_line(n: u8, lang: Lang) -> String {
    let drawn: String = (0..3).map(|i| if i < n { '★' } else { '☆' }).collect();
    match (lang, n) {
        (Lang::En, 1) => format!("{drawn} 1 star"),
        (Lang::En, _) => format!("{drawn} {n} stars"),
        (Lang::Sw, _) => format!("{drawn} nyota {n}"),
    }
}

/// How a step ended.
enum StepEnd {
    Done(u8),
    Skipped,
    Quit,
}

struct Session<'a, R: BufRead, W: Write> {
    lang: Lang,
    catalogs: &'a Catalogs,
    /// Input from a pipe is written back after the prompt, so that the transcript reads like
    /// a session at a terminal.
    echo: bool,
    colour: bool,
    out: W,
    input: R,
    seed: u64,
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    fn text(&self, key: &str) -> String {
        let lang = match self.lang {
            Lang::En => i18n::Lang::En,
            Lang::Sw => i18n::Lang::Sw,
        };
        plain(self.catalogs.get(lang, key).unwrap_or(key))
    }

    fn line(&mut self, s: &str) -> std::io::Result<()> {
        writeln!(self.out, "{s}")
    }

    /// The board in the learner's language: the hands, the pit rows of CLI-6 and the
    /// caption of the board pictures (bao-render).
    fn board(&mut self, pos: &Position, last: Option<&str>) -> std::io::Result<()> {
        use bao_rules::Side;
        let hand = |side: Side| {
            format!(
                "{} {}",
                bao_render::hand_label(side, pos.variant(), self.lang),
                pos.hand(side)
            )
        };
        let mut rows = crate::machine::pit_rows(pos);
        if self.colour {
            rows = crate::svg_cmd::colour_diagram(&rows, pos);
        }
        let caption = bao_render::caption(pos, last, false, self.lang);
        let (north, south) = (hand(Side::North), hand(Side::South));
        write!(self.out, "\n{north}\n{rows}{south}\n{caption}\n")
    }

    /// A line of input, or None at its end.
    fn read(&mut self, prompt: &str) -> std::io::Result<Option<String>> {
        write!(self.out, "{prompt} ")?;
        self.out.flush()?;
        let mut buf = String::new();
        if self.input.read_line(&mut buf)? == 0 {
            writeln!(self.out)?;
            return Ok(None);
        }
        if self.echo {
            writeln!(self.out, "{}", buf.trim_end())?;
        }
        Ok(Some(buf))
    }

    fn course(&mut self, c: &Course, from: usize) -> Result<(), CliError> {
        let lang = self.lang;
        let (mut earned, mut possible) = (0u32, 0u32);
        'lessons: for (n, lesson) in c.lessons.iter().enumerate().skip(from) {
            let title = self.text(&lesson.title_key);
            let head = format!(
                "{} {}/{}: {title}",
                say(lang, "Lesson", "Somo"),
                n + 1,
                c.lessons.len()
            );
            self.line(&format!("\n{head}\n{}", "=".repeat(head.chars().count())))?;
            for (i, step) in lesson.steps.iter().enumerate() {
                self.line(&format!(
                    "\n{} {}/{}",
                    say(lang, "Step", "Hatua"),
                    i + 1,
                    lesson.steps.len()
                ))?;
                match self.step(step)? {
                    StepEnd::Done(s) => {
                        earned += u32::from(s);
                        possible += 3;
                        self.line(&stars_line(s, lang))?;
                    }
                    StepEnd::Skipped => possible += 3,
                    StepEnd::Quit => break 'lessons,
                }
            }
        }
        self.line(&format!(
            "\n{} {earned}/{possible}.",
            say(lang, "Stars earned:", "Nyota ulizopata:")
        ))?;
        self.out.flush()?;
        Ok(())
    }

    /// One step: until its goal is reached, skipped or the input ends. A move that does not
    /// complete the step gets the script's (or the engine's) reply; when there is none, or
    /// the game is over, the step starts again. Stars count every move tried in the step.
    fn step(&mut self, step: &Step) -> Result<StepEnd, CliError> {
        let lang = self.lang;
        let (start, rules) = step
            .start()
            .map_err(|e| CliError::internal(e.to_string()))?;
        let sentence = wrap(&self.text(&step.text_key), 78);
        let mut tried = 0u32;
        let mut hints_shown = 0usize;
        'attempt: loop {
            let mut pos = start;
            let mut plies: Vec<String> = Vec::new();
            self.board(&pos, None)?;
            self.line(&format!("\n{sentence}"))?;
            loop {
                let prompt = say(lang, "Your move (or hint):", "Zamu yako (au dokezo):");
                let Some(line) = self.read(prompt)? else {
                    return Ok(StepEnd::Quit);
                };
                let text = match parse_typed(&line) {
                    Typed::Quit => return Ok(StepEnd::Quit),
                    Typed::Skip => return Ok(StepEnd::Skipped),
                    Typed::Again => continue 'attempt,
                    Typed::Hint => {
                        self.hint(step, &mut hints_shown)?;
                        continue;
                    }
                    Typed::Moves => {
                        self.legal(&pos, &rules)?;
                        continue;
                    }
                    Typed::Move(t) => t,
                };
                let lm = match find_move(&pos, &rules, &text) {
                    Ok(lm) => lm,
                    Err(e) => {
                        self.refused(&text, &e)?;
                        continue;
                    }
                };
                let mv = lm.mv.to_string();
                plies.push(mv.clone());
                tried += 1;
                let refs: Vec<&str> = plies.iter().map(String::as_str).collect();
                let r = check_step(step, &refs).map_err(|e| CliError::internal(e.to_string()))?;
                pos = lm.next;
                self.board(&pos, Some(&mv))?;
                if r.done {
                    let s = stars(tried, step.par);
                    self.line(say(lang, "Well done!", "Vizuri sana!"))?;
                    return Ok(StepEnd::Done(s));
                }
                let over = bao_rules::status(&pos, &rules).is_over();
                let reply = match (&step.replies, over) {
                    (_, true) => None,
                    (Replies::Scripted(script), false) => script.get(r.moves as usize - 1).cloned(),
                    (Replies::Engine, false) => {
                        self.seed += 1;
                        bao_engine::choose_move(&pos, &rules, bao_engine::MIN_LEVEL, self.seed)
                            .map(|m| m.mv.to_string())
                    }
                };
                let Some(reply) = reply.and_then(|m| find_move(&pos, &rules, &m).ok()) else {
                    self.line(say(
                        lang,
                        "Not yet: that move does not reach the goal. The step starts again.",
                        "Bado: zamu hiyo haifikii lengo. Hatua inaanza upya.",
                    ))?;
                    continue 'attempt;
                };
                let rmv = reply.mv.to_string();
                self.line(&format!(
                    "{} {rmv}",
                    say(lang, "Your opponent answers", "Mpinzani wako anajibu")
                ))?;
                plies.push(rmv.clone());
                pos = reply.next;
                self.board(&pos, Some(&rmv))?;
            }
        }
    }

    fn hint(&mut self, step: &Step, shown: &mut usize) -> std::io::Result<()> {
        let lang = self.lang;
        match step.hints.get(*shown) {
            Some(key) => {
                let t = wrap(&self.text(key), 76);
                *shown += 1;
                self.line(&format!("{} {t}", say(lang, "Hint:", "Dokezo:")))
            }
            None => self.line(say(
                lang,
                "No more hints. Type moves to see the legal moves, or skip.",
                "Hakuna dokezo zaidi. Andika zamu kuona zamu halali, au ruka.",
            )),
        }
    }

    fn legal(&mut self, pos: &Position, rules: &Rules) -> std::io::Result<()> {
        let list: Vec<String> = legal_moves(pos, rules)
            .iter()
            .map(|m| m.mv.to_string())
            .collect();
        let head = say(self.lang, "Legal moves:", "Zamu halali:");
        self.line(&format!("{head} {}", list.join(" ")))
    }

    fn refused(&mut self, text: &str, e: &MoveError) -> std::io::Result<()> {
        let lang = self.lang;
        let why = match e {
            MoveError::Malformed { .. } => say(
                lang,
                "is not a move: a move is a pit and a direction, like A6R (type hint for help).",
                "si zamu: zamu ni shimo na mwelekeo, kama A6R (andika dokezo kupata msaada).",
            ),
            MoveError::Ambiguous { .. } => say(
                lang,
                "could be more than one move: add the direction (L or R).",
                "inaweza kuwa zamu zaidi ya moja: ongeza mwelekeo (L au R).",
            ),
            _ => say(
                lang,
                "is not a legal move here (type moves to see them).",
                "si zamu halali hapa (andika zamu kuziona).",
            ),
        };
        self.line(&format!("{} {why}", printable(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_markup() {
        assert_eq!(parse_typed(" dokezo\n"), Typed::Hint);
        assert_eq!(parse_typed("TOKA"), Typed::Quit);
        assert_eq!(parse_typed("a6r"), Typed::Move("a6r".into()));
        assert_eq!(
            plain(r#"the <span lang="sw">nyumba</span> &amp; more"#),
            "the nyumba & more"
        );
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc");
        assert_eq!(stars_line(3, Lang::Sw), "★★★ nyota 3");
        assert_eq!(stars_line(1, Lang::En), "★☆☆ 1 star");
    }
}
