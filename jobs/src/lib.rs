//! The job vocabulary both binaries share: what a job is ([`JobKind`] and its payloads), how the api enqueues one
//! ([`JobQueue`]), its row ([`JobRow`]), its errors, and what the api reads of the workers' liveness. The worker
//! crate runs the jobs; the api depends on this crate alone.
//!
//! A job is a row in the client's `jobs` table (what the UI polls) plus a [`JobMessage`] on the Redis queue that
//! names the client and the row. Delivery is at least once, so every [`JobKind`] is idempotent and the runner
//! ignores a message whose row is already done.

mod error;
pub mod import;
mod kinds;
pub mod liveness;
mod queue;
mod row;
pub mod status;

pub use error::JobError;
pub use kinds::JobKind;
pub use queue::{JobMessage, JobQueue, DEFAULT_QUEUE};
pub use row::{JobOwner, JobResult, JobRow};
