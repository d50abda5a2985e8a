//! Names, passwords and recovery codes (docs/api.md, "Accounts"): what a valid one is, and
//! their Argon2id hashes (PHC strings, the `argon2` crate's default parameters: 19 MiB,
//! 2 passes, 1 lane, the OWASP recommendation), computed in memory the caller gives (the
//! workers of [`super::hashing`] reuse theirs).

use crate::error::ApiError;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
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

/// The parameters of every new hash: OWASP's (19 MiB, 2 passes, 1 lane).
fn params() -> Params {
    Params::default()
}

/// The PHC string of an Argon2id hash with [`params`]: `$argon2id$v=19$m=19456,t=2,p=1$SALT$HASH`.
fn phc(salt: &[u8], output: &[u8]) -> Result<String, ApiError> {
    let salt = SaltString::encode_b64(salt).map_err(ApiError::internal)?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params()).map_err(ApiError::internal)?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(output).map_err(ApiError::internal)?),
    };
    Ok(hash.to_string())
}

/// The Argon2id PHC string of `secret` with a fresh random salt, computed in `memory` (at
/// least [`super::hashing::BLOCKS`] blocks). Slow on purpose (tens of milliseconds): call it
/// on a hashing worker.
pub fn hash(memory: &mut [Block], secret: &str) -> Result<String, ApiError> {
    let salt: [u8; 16] = rand::rng().random();
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params())
        .hash_password_into_with_memory(secret.as_bytes(), &salt, &mut out, memory)
        .map_err(ApiError::internal)?;
    phc(&salt, &out)
}

/// Whether `secret` matches the PHC string `phc`, computed in `memory` (false for a
/// malformed one, and for one whose parameters need more memory than `memory`: every hash
/// stored here has [`params`]).
pub fn verify(memory: &mut [Block], secret: &str, phc: &str) -> bool {
    let Ok(h) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (h.salt, h.hash) else {
        return false;
    };
    let (Ok(algorithm), Ok(params)) = (Algorithm::try_from(h.algorithm), Params::try_from(&h))
    else {
        return false;
    };
    let version = match h.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    if params.block_count() > memory.len() {
        tracing::warn!("a stored hash needs more memory than a hashing worker has: {phc:.40}");
        return false;
    }
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let mut out = [0u8; Output::MAX_LENGTH];
    let out = &mut out[..expected.len()];
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(secret.as_bytes(), salt, out, memory)
        .is_ok()
        // Output's equality takes the same time wherever the bytes differ.
        && Output::new(out).is_ok_and(|o| o == expected)
}

/// A PHC string no secret is known to match (a random salt and a random hash), with the
/// parameters of a real one: checking an unknown name's password against it costs what a
/// known name's costs, and making it costs nothing.
pub fn dummy_hash() -> String {
    let salt: [u8; 16] = rand::rng().random();
    let out: [u8; Params::DEFAULT_OUTPUT_LEN] = rand::rng().random();
    phc(&salt, &out).unwrap_or_default()
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
    }

    #[test]
    fn hashes() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let salt_bytes: [u8; 16] = rand::rng().random();
        let salt = SaltString::encode_b64(&salt_bytes).unwrap();
        let mut memory = vec![Block::default(); crate::features::accounts::hashing::BLOCKS];
        let h = hash(&mut memory, "correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify(&mut memory, "correct horse", &h));
        assert!(!verify(&mut memory, "correct horsf", &h));
        assert!(!verify(&mut memory, "x", "not a hash"));
        // The argon2 crate's own hashing and checking agree with ours both ways, so the
        // hashes stored before the workers (made with `Argon2::default()`) still log in.
        let theirs = Argon2::default()
            .hash_password(b"correct horse", &salt)
            .unwrap()
            .to_string();
        assert!(verify(&mut memory, "correct horse", &theirs));
        assert!(!verify(&mut memory, "correct horsf", &theirs));
        let ours = PasswordHash::new(&h).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &ours)
            .is_ok());
        // A hash needing more memory than a worker has is refused, not allocated for.
        let big = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(64 * 1024, 1, 1, None).unwrap(),
        )
        .hash_password(b"correct horse", &salt)
        .unwrap()
        .to_string();
        assert!(!verify(&mut memory, "correct horse", &big));
        // The dummy is a well-formed hash of the same parameters that nothing matches.
        let d = dummy_hash();
        assert_eq!(d[..30], h[..30]);
        assert!(!verify(&mut memory, "", &d));
    }
}
