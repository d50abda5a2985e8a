//! The web app (crates/bao-server/web, embedded in the binary): its files with their cache
//! headers ([`assets`]), the pages rendered from templates ([`pages`]) in the reader's
//! language from the message catalogs ([`i18n`], docs/i18n.md).

pub mod assets;
pub mod i18n;
pub mod pages;
