//! Names, passwords and recovery codes (docs/api.md, "Accounts"): what a valid one is, and
//! their Argon2id hashes (PHC strings, the `argon2` crate's default parameters: 19 MiB,
//! 2 passes, 1 lane, the OWASP recommendation).

use crate::error::ApiError;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::Rng;

/// Shortest and longest name.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 3..=20;
/// Shortest and longest password, in characters.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=200;

/// Names nobody may take (compared in lower case): they would pass for the server, the
/// computer player or staff.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "bao",
    "computer",
    "deleted",
    "deleted-player",
    "deleted_player",
    "guest",
    "mod",
    "moderator",
    "player",
    "root",
    "server",
    "support",
    "system",
];

/// Whether `name` has the shape of a name: 3-20 of `A-Z a-z 0-9 _ -`.
pub fn name_shape(name: &str) -> bool {
    NAME_LEN.contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The name's key: unique without regard to case.
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Checks a name chosen at signup.
pub fn check_new_name(name: &str) -> Result<(), ApiError> {
    if !name_shape(name) {
        return Err(ApiError::bad_request(format!(
            "a name has {} to {} characters: letters A-Z, digits, '_' and '-'",
            NAME_LEN.start(),
            NAME_LEN.end()
        )));
    }
    if RESERVED.contains(&name_key(name).as_str()) {
        return Err(ApiError::bad_request(
            "this name is kept for the server; choose another",
        ));
    }
    Ok(())
}

/// Checks a new password's length.
pub fn check_password(password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if !PASSWORD_LEN.contains(&n) {
        return Err(ApiError::bad_request(format!(
            "a password has {} to {} characters",
            PASSWORD_LEN.start(),
            PASSWORD_LEN.end()
        )));
    }
    Ok(())
}

/// A new recovery code: 4 groups of 5 characters of an unambiguous alphabet (100 random
/// bits), `abcde-fghij-kmnpq-rstuv`.
pub fn new_recovery_code() -> String {
    (0..4)
        .map(|_| crate::util::random_code(5))
        .collect::<Vec<_>>()
        .join("-")
}

/// A recovery code as hashed: lower case, without the dashes or spaces a person may type.
pub fn normal_code(code: &str) -> String {
    code.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A new session token: 256 random bits as 64 hex digits.
pub fn new_session_token() -> String {
    let v: [u8; 32] = rand::rng().random();
    hex::encode(v)
}

/// The Argon2id PHC string of `secret` with a fresh random salt. Slow on purpose (tens of
/// milliseconds): call it off the async threads.
pub fn hash(secret: &str) -> Result<String, ApiError> {
    let salt: [u8; 16] = rand::rng().random();
    let salt = SaltString::encode_b64(&salt).map_err(ApiError::internal)?;
    Argon2::default()
        .hash_password(secret.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(ApiError::internal)
}

/// Whether `secret` matches the PHC string `phc` (false for a malformed one).
pub fn verify(secret: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| {
        Argon2::default()
            .verify_password(secret.as_bytes(), &h)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_new_name("Asha_2").is_ok());
        assert!(check_new_name("ab").is_err());
        assert!(check_new_name(&"a".repeat(21)).is_err());
        assert!(check_new_name("a b c").is_err());
        assert!(check_new_name("Jürgen").is_err());
        assert!(check_new_name("ADMIN").is_err());
        assert!(check_new_name("Computer").is_err());
        assert_eq!(name_key("AsHa"), "asha");
    }

    #[test]
    fn passwords_and_codes() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"é".repeat(200)).is_ok());
        assert!(check_password(&"é".repeat(201)).is_err());
        let code = new_recovery_code();
        assert_eq!(code.len(), 23);
        assert_eq!(
            normal_code(&code.to_uppercase().replace('-', " ")),
            normal_code(&code)
        );
        assert_eq!(new_session_token().len(), 64);
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse", &h));
        assert!(!verify("correct horsf", &h));
        assert!(!verify("x", "not a hash"));
    }
}
