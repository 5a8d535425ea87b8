//! The registry's rows, kept for a few seconds: every request names its client, and with a thousand clients a
//! registry read per request is the one query all of them share.
//!
//! A change made through this process (rename, enable, disable) clears the client's entries at once; a change
//! made through another process is seen here within [`CLIENT_CACHE_TTL`]. Only rows found are kept, so a client
//! created elsewhere is found at once.

use crate::Client;
use moka::sync::Cache;
use std::time::Duration;

/// The longest a client disabled or renamed by another process keeps its old row here.
pub const CLIENT_CACHE_TTL: Duration = Duration::from_secs(5);

/// Two entries a client (by id and by short name): far more than the clients one process serves in five seconds.
const CLIENT_CACHE_CAPACITY: u64 = 20_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum ClientKey {
    Id(i64),
    Short(String),
}

pub(crate) struct ClientCache {
    entries: Cache<ClientKey, Client>,
}

impl Default for ClientCache {
    fn default() -> Self {
        Self::with_ttl(CLIENT_CACHE_TTL)
    }
}

impl ClientCache {
    /// A cache whose entries live `ttl`; only tests pass anything but [`CLIENT_CACHE_TTL`], so that they watch an
    /// entry expire without sleeping through the production lifetime.
    pub(crate) fn with_ttl(ttl: Duration) -> Self {
        Self {
            entries: Cache::builder()
                .time_to_live(ttl)
                .max_capacity(CLIENT_CACHE_CAPACITY)
                .support_invalidation_closures()
                .build(),
        }
    }

    pub(crate) fn get(&self, key: &ClientKey) -> Option<Client> {
        self.entries.get(key)
    }

    pub(crate) fn put(&self, client: &Client) {
        self.entries
            .insert(ClientKey::Id(client.id), client.clone());
        self.entries
            .insert(ClientKey::Short(client.short_name.clone()), client.clone());
    }

    /// Both of the client's entries, whatever short name they were cached under (a rename changes it).
    pub(crate) fn forget(&self, id: i64) {
        // Only fails when the cache was built without closure support, which `default` never does.
        if let Err(e) = self
            .entries
            .invalidate_entries_if(move |_, client| client.id == id)
        {
            tracing::error!(error = %e, "client cache could not be cleared");
        }
    }
}
