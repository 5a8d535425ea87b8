//! An error and every cause under it on one log line.

use std::error::Error;
use std::fmt;

/// Displays an error followed by each of its sources, `outer: inner: innermost`, for logs
/// (`tracing::warn!(error = %Chain(&e), …)`). A layer whose message already ends with its source's text
/// (`#[error("database error: {0}")]`) is not repeated.
pub struct Chain<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = self.0.to_string();
        f.write_str(&shown)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            let text = cause.to_string();
            if !shown.ends_with(&text) {
                write!(f, ": {text}")?;
            }
            shown = text;
            source = cause.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Chain;

    #[derive(Debug, thiserror::Error)]
    #[error("could not queue the job")]
    struct Outer(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    #[error("file error: {0}")]
    struct Echoing(#[from] std::io::Error);

    #[test]
    fn every_cause_is_shown_once() {
        let io = || std::io::Error::other("broken pipe");
        assert_eq!(
            Chain(&Outer(io())).to_string(),
            "could not queue the job: broken pipe"
        );
        assert_eq!(Chain(&Echoing(io())).to_string(), "file error: broken pipe");
    }
}
