//! User text inside SQL LIKE patterns, escaped once for every search box (the statements say `escape '\'`).

/// Makes `%`, `_` and `\` in user input match themselves in a LIKE pattern.
pub fn escape(raw: &str) -> String {
    raw.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// A pattern matching any text that contains `term` as typed.
pub fn containing(term: &str) -> String {
    format!("%{}%", escape(term))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_and_the_escape_character_match_themselves() {
        assert_eq!(containing("ann"), "%ann%");
        assert_eq!(containing("50%_off\\"), "%50\\%\\_off\\\\%");
        assert_eq!(escape(""), "");
    }
}
