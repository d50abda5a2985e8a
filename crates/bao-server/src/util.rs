//! Small helpers: random ids and secrets, token hashing, time.

use rand::Rng;
use sha2::{Digest, Sha256};

pub mod clock;
pub mod deadlines;
pub use clock::Clock;

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// A random string of `n` characters from an unambiguous lower-case alphabet (5 bits each).
pub fn random_code(n: usize) -> String {
    let mut rng = rand::rng();
    (0..n)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A game id: 10 characters, 50 random bits.
pub fn new_game_id() -> String {
    random_code(10)
}

/// A seat token: 128 random bits as 32 hex digits.
pub fn new_token() -> String {
    let v: u128 = rand::rng().random();
    format!("{v:032x}")
}

/// What the database keeps of a token: its SHA-256, so a leaked database gives no seat away.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Compares two strings in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Milliseconds since the Unix epoch, by the system's clock. The model and the timers read
/// the server's [`Clock`] instead (a test's may be one it moves on).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `YYYY.MM.DD` (UTC) of a time in milliseconds since the epoch, for the Date tag (NOT-6.2):
/// the engine's record helper, the workspace's one calendar computation.
pub use bao_engine::record::record_date;

/// Lowers the calling thread's CPU priority as far as it goes (Linux: nice is per thread),
/// so that live games' searches come first.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its integer arguments; who = 0 is the calling thread.
    unsafe {
        let _ = libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(record_date(0), "1970.01.01");
        // 2000-02-29 12:00 UTC = 951825600 s.
        assert_eq!(record_date(951_825_600_000), "2000.02.29");
        // 2026-11-29 = 20786 days after the epoch.
        assert_eq!(record_date(20_786 * 86_400_000), "2026.11.29");
    }

    #[test]
    fn secrets() {
        let t = new_token();
        assert_eq!(t.len(), 32);
        assert_ne!(t, new_token());
        assert!(same_secret(&hash_token(&t), &hash_token(&t)));
        assert!(!same_secret(&hash_token(&t), &hash_token("x")));
        assert_eq!(new_game_id().len(), 10);
    }
}
