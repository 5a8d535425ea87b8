//! The registry's rows, kept for a few seconds: every request names its client, and with a thousand clients a
//! registry read per request is the one query all of them share.
//!
//! A change made through this process (rename, enable, disable) clears the client's entries at once; a change
//! made through another process is seen here within [`CLIENT_CACHE_TTL`]. Only rows found are kept, so a client
//! created elsewhere is found at once.

use crate::Client;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The longest a client disabled or renamed by another process keeps its old row here.
pub const CLIENT_CACHE_TTL: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum ClientKey {
    Id(i64),
    Short(String),
}

#[derive(Default)]
pub(crate) struct ClientCache {
    entries: Mutex<HashMap<ClientKey, (Instant, Client)>>,
}

impl ClientCache {
    pub(crate) fn get(&self, key: &ClientKey) -> Option<Client> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .get(key)
            .filter(|(at, _)| at.elapsed() < CLIENT_CACHE_TTL)
            .map(|(_, client)| client.clone())
    }

    pub(crate) fn put(&self, client: &Client) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        // Expired rows go on each write, so the map stays the size of the clients recently used.
        entries.retain(|_, (at, _)| at.elapsed() < CLIENT_CACHE_TTL);
        entries.insert(ClientKey::Id(client.id), (now, client.clone()));
        entries.insert(
            ClientKey::Short(client.short_name.clone()),
            (now, client.clone()),
        );
    }

    pub(crate) fn forget(&self, id: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|_, (_, client)| client.id != id);
    }
}
