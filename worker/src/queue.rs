use crate::row::job_columns;
use crate::{JobError, JobKind, JobRow};
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
}

impl JobQueue {
    pub async fn connect(redis_url: &str, queue: &str) -> Result<Self, JobError> {
        let conn = apalis_redis::connect(redis_url)
            .await
            .map_err(|e| JobError::Queue(e.to_string()))?;
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
        }
    }

    /// Every message the queue holds (waiting, running, scheduled for a retry or finished): apalis keeps each
    /// task's message in one hash until it is vacuumed. A message that does not parse is left out.
    pub async fn messages(&self) -> Result<std::collections::HashSet<JobMessage>, JobError> {
        let mut conn = self.conn.clone();
        let values: Vec<Vec<u8>> = redis::cmd("HVALS")
            .arg(&self.data_hash)
            .query_async(&mut conn)
            .await
            .map_err(|e| JobError::Queue(e.to_string()))?;
        Ok(values
            .iter()
            .filter_map(|v| serde_json::from_slice::<JobMessage>(v).ok())
            .collect())
    }

    /// Messages waiting to run, retries included.
    pub async fn depth(&self) -> Result<u64, JobError> {
        let mut conn = self.conn.clone();
        let (waiting, scheduled): (u64, u64) = redis::pipe()
            .cmd("LLEN")
            .arg(&self.depth_keys.0)
            .cmd("ZCARD")
            .arg(&self.depth_keys.1)
            .query_async(&mut conn)
            .await
            .map_err(|e| JobError::Queue(e.to_string()))?;
        Ok(waiting + scheduled)
    }

    pub(crate) fn storage(&self) -> RedisStorage<JobMessage> {
        self.storage.clone()
    }

    /// Sends a message for an existing row again (support staff re-running a stuck job). Safe at any time:
    /// the runner skips rows that are already done.
    pub async fn redeliver(&self, message: JobMessage) -> Result<(), JobError> {
        let mut storage = self.storage.clone();
        storage
            .push(message)
            .await
            .map_err(|e| JobError::Queue(e.to_string()))
    }

    /// Like [`JobQueue::enqueue`] for several jobs in one transaction.
    pub async fn enqueue_many(
        &self,
        mut tx: TenantTx,
        user_id: Option<i64>,
        kinds: &[JobKind],
    ) -> Result<Vec<JobRow>, JobError> {
        let mut rows = Vec::new();
        for kind in kinds {
            rows.push(insert_row(&mut tx, user_id, kind).await?);
        }
        let client = tx.client().clone();
        tx.commit().await?;
        for row in &rows {
            self.redeliver(JobMessage {
                client_id: client.id,
                job_id: row.id,
            })
            .await?;
        }
        Ok(rows)
    }

    /// Writes the job row in the caller's transaction, commits it, then puts the message on the queue.
    ///
    /// The row is committed first so a worker never receives a message for a row it cannot see. If the queue
    /// refuses the message, the row is closed as failed rather than left queued forever.
    pub async fn enqueue(
        &self,
        mut tx: TenantTx,
        user_id: Option<i64>,
        kind: &JobKind,
    ) -> Result<JobRow, JobError> {
        let row = insert_row(&mut tx, user_id, kind).await?;
        let client = tx.client().clone();
        tx.commit().await?;

        let message = JobMessage {
            client_id: client.id,
            job_id: row.id,
        };
        let mut storage = self.storage.clone();
        if let Err(e) = storage.push(message).await {
            let error = JobError::Queue(e.to_string());
            tracing::error!(client = %client.short_name, job = row.id, %error, "queue refused a job");
            return Err(error);
        }
        tracing::info!(client = %client.short_name, job = row.id, command = %row.command, "job queued");
        Ok(row)
    }
}

async fn insert_row(
    tx: &mut TenantTx,
    user_id: Option<i64>,
    kind: &JobKind,
) -> Result<JobRow, JobError> {
    let (command, payload) = kind.to_row()?;
    Ok(sqlx::query_as(concat!(
        "insert into jobs (label, command, payload, user_id) values ($1, $2, $3, $4) returning ",
        job_columns!()
    ))
    .bind(kind.label())
    .bind(command)
    .bind(payload)
    .bind(user_id)
    .fetch_one(&mut **tx)
    .await?)
}
