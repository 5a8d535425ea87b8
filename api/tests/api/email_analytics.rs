//! E-mail analytics.
