use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// argon2's own error is no `std::error::Error` without its `std` feature; this one is, so it can be a cause.
#[derive(Debug, thiserror::Error)]
#[error("the password could not be hashed: {0}")]
pub struct HashError(argon2::password_hash::Error);

/// Hashes with argon2id and a random salt (PHC string format).
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(HashError)?
        .to_string())
}

/// Checks a password against a stored hash. When there is no user, pass `None`: a dummy hash is checked
/// instead so that "no such e-mail" takes as long as "wrong password" and the timing tells nothing.
pub fn verify_password(password: &str, stored: Option<&str>) -> bool {
    const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$5o2NE/KjhjX0yx8mdVH1tUdjIjtYlYFDHRp6Pv1k4Dc";
    let candidate = stored.unwrap_or(DUMMY);
    let ok = PasswordHash::new(candidate)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false);
    ok && stored.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_only_its_password() {
        let hash = hash_password("Correct horse 1").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("Correct horse 1", Some(&hash)));
        assert!(!verify_password("correct horse 1", Some(&hash)));
        assert!(!verify_password("Correct horse 1", None));
    }
}
