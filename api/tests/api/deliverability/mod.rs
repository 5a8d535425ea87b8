//! Deliverability (issue 30): what is heard back after the send.

mod webhooks;
