//! `bao admin`: what the site's operators do on its database, outside the web app.

use crate::common::CliError;
use clap::{Args, Subcommand};

#[derive(Args, Debug)]
pub struct AdminArgs {
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Subcommand, Debug)]
enum AdminCommand {
    /// Give an account the moderator role, or take it back. Moderators see /mod (the reports
    /// and the accounts whose rated games follow the engine too closely) and act on them.
    ///
    /// Examples:
    ///   bao admin moderator grant Asha --database sqlite://bao.db
    ///   bao admin moderator revoke Asha --database postgres://bao@localhost/bao
    #[command(verbatim_doc_comment)]
    Moderator(ModeratorArgs),
}

#[derive(Args, Debug)]
struct ModeratorArgs {
    /// grant or revoke.
    #[arg(value_parser = ["grant", "revoke"])]
    what: String,
    /// The account's name (any case).
    name: String,
    /// The server's database, as `bao serve --database` takes it.
    #[arg(long, default_value = "sqlite://bao.db")]
    database: String,
}

pub fn run(a: AdminArgs) -> Result<(), CliError> {
    match a.command {
        AdminCommand::Moderator(m) => moderator(m),
    }
}

fn moderator(m: ModeratorArgs) -> Result<(), CliError> {
    let on = m.what == "grant";
    let name = m.name.trim().to_string();
    let found = bao_server::set_moderator_blocking(&m.database, &name, on)
        .map_err(|e| CliError::usage(format!("--database {}: {e}", m.database)))?;
    if !found {
        return Err(CliError::usage(format!(
            "there is no account named '{}'",
            bao_rules::printable(&name)
        )));
    }
    println!(
        "{name} {}",
        if on {
            "is a moderator now"
        } else {
            "is no longer a moderator"
        }
    );
    Ok(())
}
