//! What every command shares: loading a position under `--rules` in the order of CLI-8.3,
//! and reporting errors as one line `error: <category>: <detail>` (CLI-8).

use bao_rules::{printable, Error, MoveError, Position, Rules, Variant};
use std::io::Write;
use std::process::ExitCode;

/// The category of [`CliError::closed_pipe`], never printed.
const CLOSED_PIPE: &str = "closed_pipe";

/// An error to report: its NOT-5 category (or `internal`), the detail, and the exit status.
#[derive(Debug)]
pub struct CliError {
    pub category: &'static str,
    pub detail: String,
    pub status: u8,
}

impl CliError {
    pub fn usage(detail: impl Into<String>) -> CliError {
        CliError {
            category: "usage",
            detail: detail.into(),
            status: 2,
        }
    }

    /// An internal failure: a bug or an I/O error (exit status 1).
    pub fn internal(detail: impl Into<String>) -> CliError {
        CliError {
            category: "internal",
            detail: detail.into(),
            status: 1,
        }
    }

    /// A move error, naming the move by its 1-based number (CLI-8.1).
    pub fn from_move(n: usize, e: &MoveError) -> CliError {
        CliError {
            category: e.category(),
            detail: format!("move {n} {e}"),
            status: 2,
        }
    }

    /// Standard output was closed by its reader (`bao moves - | head -1`): the reader has
    /// what it wanted, so this ends the command quietly with success.
    pub fn closed_pipe() -> CliError {
        CliError {
            category: CLOSED_PIPE,
            detail: String::new(),
            status: 0,
        }
    }

    /// Prints the error line on standard error and gives the exit status (a closed pipe is
    /// quiet and successful).
    pub fn report(&self) -> ExitCode {
        if self.category == CLOSED_PIPE {
            return ExitCode::SUCCESS;
        }
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "error: {}: {}", self.category, self.detail);
        ExitCode::from(self.status)
    }
}

impl From<Error> for CliError {
    fn from(e: Error) -> CliError {
        CliError {
            category: e.category(),
            detail: e.to_string(),
            status: 2,
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError::closed_pipe();
        }
        CliError::internal(format!("I/O error: {e}"))
    }
}

/// The rules of `--variant NAME --rules OPTS` (commands that play from the start).
pub fn variant_rules(variant: &str, rules: Option<&str>) -> Result<Rules, CliError> {
    let v = Variant::from_id(variant).ok_or_else(|| {
        CliError::usage(format!(
            "unknown variant '{}' (kiswahili, kete, kimasai)",
            bao_rules::printable(variant)
        ))
    })?;
    Ok(Rules::parse(v, rules.unwrap_or("-")).map_err(Error::from)?)
}

/// Parses POSITION and `--rules` in the order of CLI-8.3: fields and variant, then the
/// options against that variant, then the rest of the position.
pub fn load(position: &str, rules: Option<&str>) -> Result<(Position, Rules), Error> {
    let variant = Position::variant_of(position)?;
    let rules = Rules::parse(variant, rules.unwrap_or("-"))?;
    let pos = Position::parse(position, &rules)?;
    Ok((pos, rules))
}

/// A clap error as one line, without clap's own `error: ` prefix. When the first line ends
/// in `:` (`the following required arguments were not provided:`), the indented lines that
/// name the arguments are joined to it; the pointer to help names the command (`bao moves`).
pub fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("bad command line").trim();
    let mut msg = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if msg.ends_with(':') {
        let named: Vec<&str> = lines
            .take_while(|l| l.starts_with("  "))
            .map(str::trim)
            .collect();
        if !named.is_empty() {
            msg = format!("{msg} {}", named.join(", "));
        }
    }
    // clap's `Usage: bao moves [OPTIONS] <POSITION>` line names the command that was meant.
    let command: Vec<&str> = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
        .map(|u| {
            u.split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect()
        })
        .filter(|c: &Vec<&str>| c.first() == Some(&"bao"))
        .unwrap_or_else(|| vec!["bao"]);
    format!(
        "{} (see {} --help)",
        printable(msg.trim_end_matches(':')),
        command.join(" ")
    )
}

/// Writes to standard output, turning a closed pipe into a quiet success.
pub fn out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::new(std::io::stdout().lock())
}

/// A positive integer argument, or a `usage` error naming it.
pub fn positive(name: &str, s: &str) -> Result<u64, CliError> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(CliError::usage(format!(
            "{name} must be a positive integer, not '{}'",
            printable(s)
        ))),
    }
}
