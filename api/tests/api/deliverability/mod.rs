//! Issue 30: deliverability — what is heard back after the send, and what it does.

use crate::helpers::*;

mod inbound;
mod webhooks;
