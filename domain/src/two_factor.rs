//! How an account proves itself after its password: the four methods the accounts tables allow.

use crate::stored_name::stored_name;

stored_name! {
    pub enum TwoFactorMethod / UnknownTwoFactorMethod {
        /// No second step (accounts made by the operator's command, until their owner picks one).
        None = "none",
        Email = "email",
        Phone = "phone",
        /// An authenticator app (TOTP).
        App = "app",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_name_reads_back_and_others_are_refused() {
        for method in [
            TwoFactorMethod::None,
            TwoFactorMethod::Email,
            TwoFactorMethod::Phone,
            TwoFactorMethod::App,
        ] {
            assert_eq!(TwoFactorMethod::parse(method.as_str()), Some(method));
        }
        assert_eq!(TwoFactorMethod::parse("sms"), None);
        assert!(TwoFactorMethod::try_from("Email".to_owned()).is_err());
    }
}
