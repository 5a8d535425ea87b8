//! Text that goes into a CSV or XLSX cell a person will open in a spreadsheet, made safe once for every export.

/// Spreadsheet programs run cells that start with = + - @ (or a tab or carriage return) as formulas; a leading
/// apostrophe makes them plain text (OWASP's advice against CSV injection).
pub fn neutralise_formula(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

/// A figure Compass computed (a count, a rate, an amount) stays a number, even when negative; any other text is
/// neutralised.
pub fn neutralise_unless_number(cell: &str) -> String {
    if cell.parse::<f64>().is_ok() {
        cell.to_owned()
    } else {
        neutralise_formula(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_that_spreadsheets_would_run_are_made_text() {
        assert_eq!(
            neutralise_formula("=HYPERLINK(\"x\")"),
            "'=HYPERLINK(\"x\")"
        );
        assert_eq!(neutralise_formula("+1"), "'+1");
        assert_eq!(neutralise_formula("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(neutralise_formula("-2"), "'-2");
        assert_eq!(neutralise_formula("\tx"), "'\tx");
        assert_eq!(neutralise_formula("Ann"), "Ann");
        assert_eq!(neutralise_unless_number("-12.50"), "-12.50");
        assert_eq!(neutralise_unless_number("-x"), "'-x");
    }
}
