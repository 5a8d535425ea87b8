//! Authenticator apps (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of clock skew either way).

use super::secrets::random_bytes;
use qrcode::render::svg;
use qrcode::QrCode;
use totp_rs::{Algorithm, Secret, TOTP};

const ISSUER: &str = "Compass";
const STEP: u64 = 30;

/// A new base32 secret (160 bits, as RFC 4226 recommends).
pub fn new_secret() -> String {
    Secret::Raw(random_bytes(20)).to_encoded().to_string()
}

fn totp(secret_b32: &str, account: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret_b32.to_owned()).to_bytes().ok()?;
    TOTP::new(
        Algorithm::SHA1,
        6,
        1,
        STEP,
        bytes,
        Some(ISSUER.to_owned()),
        account.to_owned(),
    )
    .ok()
}

/// The `otpauth://` address an authenticator app reads from the QR code.
pub fn otpauth_uri(secret_b32: &str, account: &str) -> Option<String> {
    totp(secret_b32, account).map(|t| t.get_url())
}

/// The QR code of `uri` as an SVG document.
pub fn qr_svg(uri: &str) -> Option<String> {
    let code = QrCode::new(uri.as_bytes()).ok()?;
    Some(
        code.render::<svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

/// The time step `code` belongs to, if it is valid now and newer than `last_step` (a code is accepted once).
pub fn accepted_step(secret_b32: &str, code: &str, last_step: i64, now_secs: u64) -> Option<i64> {
    let totp = totp(secret_b32, "user")?;
    let current = now_secs / STEP;
    let mut accepted = None;
    // Check every candidate step so the time taken does not tell which one matched.
    for step in [current.saturating_sub(1), current, current + 1] {
        let expected = totp.generate(step * STEP);
        if constant_time_eq(expected.as_bytes(), code.as_bytes()) && step as i64 > last_step {
            accepted = Some(step as i64);
        }
    }
    accepted
}

/// The code an app shows at `secs` (tests and tools).
pub fn code_at(secret_b32: &str, secs: u64) -> Option<String> {
    totp(secret_b32, "user").map(|t| t.generate(secs))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_accepted_once_and_only_near_its_time() {
        let secret = new_secret();
        let now = 1_800_000_000;
        let code = code_at(&secret, now).unwrap();
        let step = accepted_step(&secret, &code, 0, now).unwrap();
        assert_eq!(step as u64, now / 30);
        assert_eq!(accepted_step(&secret, &code, step, now), None, "replayed");
        assert_eq!(
            accepted_step(&secret, &code, 0, now + 300),
            None,
            "too late"
        );
        assert_eq!(accepted_step(&secret, "000000x", 0, now), None);
    }

    #[test]
    fn the_enrolment_uri_names_the_issuer_and_account() {
        let uri = otpauth_uri(&new_secret(), "ann@example.org").unwrap();
        assert!(
            uri.starts_with("otpauth://totp/Compass:ann%40example.org?"),
            "{uri}"
        );
        assert!(qr_svg(&uri).unwrap().contains("<svg"));
    }
}
