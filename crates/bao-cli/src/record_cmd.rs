//! `bao record validate FILE` and `bao record convert FILE [--to json|text]` (NOT-6).

use crate::common::{out, CliError};
use bao_rules::{parse_records_bytes, printable, Record, RecordError, MAX_RECORD_BYTES};
use clap::{Args, Subcommand, ValueEnum};
use std::io::{Read, Write};

#[derive(Args, Debug)]
pub struct RecordArgs {
    #[command(subcommand)]
    command: RecordCommand,
}

#[derive(Subcommand, Debug)]
enum RecordCommand {
    /// Replay every record of FILE and check each move and the result (NOT-6.4); names the
    /// first wrong move and why.
    Validate {
        /// The record file (`-` for standard input).
        #[arg(value_name = "FILE", allow_hyphen_values = true)]
        file: String,
    },
    /// Convert records between the text format (NOT-6) and JSON. The records are checked
    /// first, and moves are written in canonical notation.
    Convert {
        /// The output format; by default the other one.
        #[arg(long, value_enum)]
        to: Option<Format>,
        /// The record file, text or JSON (`-` for standard input).
        #[arg(value_name = "FILE", allow_hyphen_values = true)]
        file: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Json,
    Text,
}

pub fn run(a: RecordArgs) -> Result<(), CliError> {
    match a.command {
        RecordCommand::Validate { file } => validate(&file),
        RecordCommand::Convert { to, file } => convert(&file, to),
    }
}

/// Reads a file (or standard input), refusing more than MAX_RECORD_BYTES without reading
/// further.
pub fn read_limited(file: &str) -> Result<Vec<u8>, CliError> {
    let mut buf = Vec::new();
    let limit = MAX_RECORD_BYTES as u64 + 1;
    let res = if file == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut buf)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(limit).read_to_end(&mut buf))
    };
    res.map_err(|e| CliError {
        category: "io",
        detail: format!("{}: {e}", printable(file)),
        status: 2,
    })?;
    if buf.len() > MAX_RECORD_BYTES {
        return Err(CliError {
            category: "too_large",
            detail: format!(
                "{}: the file is larger than {} MiB; records that large are refused",
                printable(file),
                MAX_RECORD_BYTES / (1024 * 1024)
            ),
            status: 2,
        });
    }
    Ok(buf)
}

pub fn record_error(file: &str, index: Option<usize>, e: &RecordError) -> CliError {
    let which = match index {
        Some(i) => format!("record {i}, "),
        None => String::new(),
    };
    CliError {
        category: e.category(),
        detail: format!("{}: {which}{e}", printable(file)),
        status: 2,
    }
}

/// Reads text or JSON records (JSON when the first non-blank character is `{` or `[`).
pub fn load_records(file: &str) -> Result<(Vec<Record>, Format), CliError> {
    let bytes = read_limited(file)?;
    // A tag line starts `[Name`; a JSON array `[` then `{`, `]` or white space.
    let mut nonblank = bytes.iter().filter(|b| !b.is_ascii_whitespace());
    let first = nonblank.next();
    let json = match first {
        Some(b'{') => true,
        Some(b'[') => !nonblank.next().is_some_and(|b| b.is_ascii_alphabetic()),
        _ => false,
    };
    if json {
        let bad = |e: serde_json::Error| CliError {
            category: "bad_record",
            detail: format!("{}: line {}: {e}", printable(file), e.line()),
            status: 2,
        };
        let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(bad)?;
        let records: Vec<Record> = if value.is_array() {
            serde_json::from_value(value).map_err(bad)?
        } else {
            vec![serde_json::from_value(value).map_err(bad)?]
        };
        if records.is_empty() {
            return Err(CliError {
                category: "bad_record",
                detail: format!("{}: the file holds no record", printable(file)),
                status: 2,
            });
        }
        return Ok((records, Format::Json));
    }
    let records = parse_records_bytes(&bytes).map_err(|e| record_error(file, None, &e))?;
    Ok((records, Format::Text))
}

fn validate(file: &str) -> Result<(), CliError> {
    let (records, _) = load_records(file)?;
    let mut lines = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let game = r
            .validate()
            .map_err(|e| record_error(file, Some(i + 1), &e))?;
        lines.push(format!(
            "record {}: valid: {} {} v {}, {} moves, result {} ({})",
            i + 1,
            r.variant.id(),
            printable(&r.south),
            printable(&r.north),
            r.moves.len(),
            r.result,
            if r.result.token() == game.outcome().token() {
                game.outcome().describe()
            } else {
                format!(
                    "{}; by the rules: {}",
                    r.termination.map_or("declared", |t| t.as_str()),
                    game.outcome().describe()
                )
            }
        ));
    }
    let mut o = out();
    for l in lines {
        writeln!(o, "{l}")?;
    }
    o.flush()?;
    Ok(())
}

fn convert(file: &str, to: Option<Format>) -> Result<(), CliError> {
    let (records, from) = load_records(file)?;
    let mut canon = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        canon.push(
            r.canonical()
                .map_err(|e| record_error(file, Some(i + 1), &e))?,
        );
    }
    let to = to.unwrap_or(match from {
        Format::Json => Format::Text,
        Format::Text => Format::Json,
    });
    let mut o = out();
    match to {
        Format::Text => {
            for (i, r) in canon.iter().enumerate() {
                if i > 0 {
                    writeln!(o)?;
                }
                write!(o, "{r}")?;
            }
        }
        Format::Json => {
            let text = if canon.len() == 1 {
                serde_json::to_string_pretty(&canon[0])
            } else {
                serde_json::to_string_pretty(&canon)
            }
            .map_err(|e| CliError::internal(e.to_string()))?;
            writeln!(o, "{text}")?;
        }
    }
    o.flush()?;
    Ok(())
}
