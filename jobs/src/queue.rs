use crate::row::job_columns;
use crate::{JobError, JobKind, JobOwner, JobRow};
use apalis::prelude::TaskSink;
use apalis_redis::{Config, ConnectionManager, RedisStorage};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tenancy::TenantTx;

pub const DEFAULT_QUEUE: &str = "compass-jobs";

/// The queue message: which client, which row. Everything else is read from the row, so a message cannot
/// carry data into a tenant it does not belong to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct JobMessage {
    pub client_id: i64,
    pub job_id: i64,
}

/// The producer side of the queue. Cheap to clone.
#[derive(Clone)]
pub struct JobQueue {
    storage: RedisStorage<JobMessage>,
    /// The list of waiting messages and the set of those scheduled for a retry: the queue's depth.
    depth_keys: (String, String),
    /// The same Redis, for reading what the queue holds (reconcile); redis-rs's manager reconnects by itself.
    conn: ConnectionManager,
    data_hash: String,
    name: String,
}

impl JobQueue {
    pub async fn connect(redis_url: &str, queue: &str) -> Result<Self, JobError> {
        let conn = apalis_redis::connect(redis_url)
            .await
            .map_err(JobError::queue)?;
        Ok(Self::with_connection(conn, queue))
    }

    pub(crate) fn with_connection(conn: ConnectionManager, queue: &str) -> Self {
        // An idle apalis worker looks for new messages on each heartbeat, so the beat sets how soon a queued job
        // starts (a quarter second at most). A worker that dies mid-job stops beating; after 60 missed beats (15 s)
        // its jobs are handed to another worker.
        let config = Config::default()
            .queue(queue)
            .heartbeat_interval(Duration::from_millis(250))
            .missed_heartbeats(60);
        Self {
            data_hash: config.job_data_hash(),
            depth_keys: (config.active_jobs_list(), config.scheduled_jobs_set()),
            storage: RedisStorage::new(conn.clone()).with_config(config),
            conn,
            name: queue.to_owned(),
        }
    }

    /// The queue's name (`JOB_QUEUE`): workers beat under it, so the api counts the workers of its own queue.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every message the queue holds (waiting, running, scheduled for a retry or finished): apalis keeps each
    /// task's message in one hash until it is vacuumed. A message that does not parse is left out.
    pub async fn messages(&self) -> Result<std::collections::HashSet<JobMessage>, JobError> {
        let values: Vec<Vec<u8>> = telemetry::retry::once_more(|| {
            let mut conn = self.conn.clone();
            async move {
                redis::cmd("HVALS")
                    .arg(&self.data_hash)
                    .query_async(&mut conn)
                    .await
            }
        })
        .await
        .map_err(JobError::queue)?;
        Ok(values
            .iter()
            .filter_map(|v| serde_json::from_slice::<JobMessage>(v).ok())
            .collect())
    }

    /// Moves messages that are overdue by more than `by` in the set of retries to the list the workers read, and
    /// returns how many. apalis moves due retries only inside a worker's fetch, so a worker whose poll stalled
    /// leaves them there; any live process can hand them on.
    pub async fn promote_overdue(&self, by: Duration) -> Result<usize, JobError> {
        const PROMOTE: &str = r#"
            local ids = redis.call('zrangebyscore', KEYS[1], 0, ARGV[1])
            if #ids > 0 then
                redis.call('rpush', KEYS[2], unpack(ids))
                redis.call('zrem', KEYS[1], unpack(ids))
            end
            return #ids"#;
        let before = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .saturating_sub(by)
            .as_secs();
        telemetry::retry::once_more(|| {
            let mut conn = self.conn.clone();
            async move {
                redis::Script::new(PROMOTE)
                    .key(&self.depth_keys.1)
                    .key(&self.depth_keys.0)
                    .arg(before)
                    .invoke_async::<usize>(&mut conn)
                    .await
            }
        })
        .await
        .map_err(JobError::queue)
    }

    /// Messages waiting to run, retries included.
    pub async fn depth(&self) -> Result<u64, JobError> {
        let (waiting, scheduled): (u64, u64) = telemetry::retry::once_more(|| {
            let mut conn = self.conn.clone();
            async move {
                redis::pipe()
                    .cmd("LLEN")
                    .arg(&self.depth_keys.0)
                    .cmd("ZCARD")
                    .arg(&self.depth_keys.1)
                    .query_async(&mut conn)
                    .await
            }
        })
        .await
        .map_err(JobError::queue)?;
        Ok(waiting + scheduled)
    }

    /// The apalis storage the worker's pool polls.
    pub fn storage(&self) -> RedisStorage<JobMessage> {
        self.storage.clone()
    }

    /// Sends a message for an existing row again (support staff re-running a stuck job). Safe at any time:
    /// the runner skips rows that are already done.
    pub async fn redeliver(&self, message: JobMessage) -> Result<(), JobError> {
        telemetry::retry::once_more(|| {
            let mut storage = self.storage.clone();
            let message = message.clone();
            async move { storage.push(message).await }
        })
        .await
        .map_err(JobError::queue)
    }

    /// Sends the message of a row just committed. The row is the job: when Redis refuses even the second try,
    /// the row stays queued and reconcile sends its message once Redis answers again, so the caller is told the
    /// job was accepted and will run, never that it failed (which would be untrue once it runs).
    pub async fn announce(&self, client: &tenancy::Client, row: &JobRow) {
        let message = JobMessage {
            client_id: client.id,
            job_id: row.id,
        };
        match self.redeliver(message).await {
            Ok(()) => {
                tracing::info!(client = %client.short_name, job = row.id, command = %row.command, "job queued")
            }
            Err(error) => tracing::error!(
                client = %client.short_name,
                job = row.id,
                %error,
                "queue refused a job; reconcile will queue it again"
            ),
        }
    }

    /// Like [`JobQueue::enqueue`] for several jobs in one transaction.
    pub async fn enqueue_many(
        &self,
        mut tx: TenantTx,
        owner: Option<JobOwner>,
        kinds: &[JobKind],
    ) -> Result<Vec<JobRow>, JobError> {
        let mut rows = Vec::new();
        for kind in kinds {
            rows.push(Self::add(&mut tx, owner, kind).await?);
        }
        let client = tx.client().clone();
        tx.commit().await?;
        for row in &rows {
            self.announce(&client, row).await;
        }
        Ok(rows)
    }

    /// Writes the job row in the caller's transaction, commits it, then puts the message on the queue.
    ///
    /// The row is committed first so a worker never receives a message for a row it cannot see. A message the
    /// queue refuses is sent again by reconcile (see [`JobQueue::announce`]).
    pub async fn enqueue(
        &self,
        mut tx: TenantTx,
        owner: Option<JobOwner>,
        kind: &JobKind,
    ) -> Result<JobRow, JobError> {
        let row = Self::add(&mut tx, owner, kind).await?;
        let client = tx.client().clone();
        tx.commit().await?;
        self.announce(&client, &row).await;
        Ok(row)
    }

    /// Writes the job row in the caller's transaction, for a caller that commits it itself and then calls
    /// [`JobQueue::announce`]. The row is the job: should the announcement never come, an idle worker claims the
    /// row from the database, so a forgotten or refused message costs seconds, not the job.
    pub async fn add(
        tx: &mut TenantTx,
        owner: Option<JobOwner>,
        kind: &JobKind,
    ) -> Result<JobRow, JobError> {
        let (command, payload) = kind.to_row()?;
        Ok(sqlx::query_as(concat!(
            "insert into jobs (label, command, payload, user_id, user_kind) ",
            "values ($1, $2, $3, $4, $5) returning ",
            job_columns!()
        ))
        .bind(kind.label())
        .bind(command)
        .bind(payload)
        .bind(owner.map(|o| o.id))
        .bind(owner.map(|o| o.kind.as_str()))
        .fetch_one(&mut **tx)
        .await?)
    }
}
