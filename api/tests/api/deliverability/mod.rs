//! Issue 30: deliverability — what is heard back after the send.

use crate::helpers::*;

mod inbound;
