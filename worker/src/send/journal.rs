//! The send journal: a file on the worker's disk that says, for each message of a mailing, that its final "." is
//! about to be written. It is what lets a killed send resume without mailing anyone twice.
//!
//! The database learns that a message went out only after the server's answer and a commit, milliseconds later;
//! a worker killed in between would leave the row queued and the message would go again. The journal closes
//! that window: an entry is appended (one `write` of 8 bytes, which the page cache keeps when the process dies)
//! before the "." that commits the server to deliver, so after a crash every message the server may have taken
//! is in the journal, and a resumed send marks those recipients sent instead of mailing them again. The price
//! is the opposite, much smaller window: a process killed between this write and the "." (a microsecond) leaves
//! one recipient marked sent whose message never went.
//!
//! Entries are little-endian i64: `+contact` before the ".", `-contact` when the server then refused the message
//! (it stays queued). The file is per client, mailing and send (named by the time the send was first started, so a
//! recreated database never meets an old journal), lives while a send is unfinished, and only a worker on the same
//! host can read it: a send resumed elsewhere relies on the database alone.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens (or creates) the journal of a mailing and answers the contacts whose message may have reached the
    /// server in an earlier, unfinished attempt: their last entry is a `+`.
    pub fn open(
        dir: &Path,
        client_id: i64,
        mailing_id: i64,
        started: i64,
    ) -> std::io::Result<(Self, Vec<i64>)> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!(
            "client{client_id}-mailing{mailing_id}-{started}.journal"
        ));
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let mut last: HashMap<i64, bool> = HashMap::new();
        // A torn last entry cannot happen (each is one small write), but a partial tail is ignored all the same.
        for entry in bytes.chunks_exact(8) {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(entry);
            let value = i64::from_le_bytes(raw);
            last.insert(value.abs(), value > 0);
        }
        let mut handed_over: Vec<i64> = last
            .into_iter()
            .filter_map(|(contact, pending)| pending.then_some(contact))
            .collect();
        handed_over.sort_unstable();
        Ok((Self { path, file }, handed_over))
    }

    /// Written right before the message's final ".": from here on the recipient counts as mailed after a crash.
    pub fn ending(&self, contact_id: i64) -> std::io::Result<()> {
        (&self.file).write_all(&contact_id.to_le_bytes())
    }

    /// The server refused the message after its end: the recipient is not mailed after all.
    pub fn refused(&self, contact_id: i64) -> std::io::Result<()> {
        (&self.file).write_all(&(-contact_id).to_le_bytes())
    }

    /// The send finished and the database holds every outcome: the journal has nothing left to tell.
    pub fn remove(self) -> std::io::Result<()> {
        drop(self.file);
        std::fs::remove_file(&self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reopened_journal_answers_the_messages_that_may_have_gone() {
        let dir = tempfile::tempdir().unwrap();
        let (journal, earlier) = Journal::open(dir.path(), 1, 7, 100).unwrap();
        assert!(earlier.is_empty());
        journal.ending(5).unwrap();
        journal.ending(9).unwrap();
        journal.refused(9).unwrap();
        journal.ending(12).unwrap();
        journal.refused(12).unwrap();
        journal.ending(12).unwrap();
        drop(journal);
        let (journal, earlier) = Journal::open(dir.path(), 1, 7, 100).unwrap();
        assert_eq!(earlier, vec![5, 12]);
        // Another client, mailing or send has a journal of its own.
        assert!(Journal::open(dir.path(), 2, 7, 100).unwrap().1.is_empty());
        assert!(Journal::open(dir.path(), 1, 8, 100).unwrap().1.is_empty());
        assert!(Journal::open(dir.path(), 1, 7, 101).unwrap().1.is_empty());
        journal.remove().unwrap();
        assert!(Journal::open(dir.path(), 1, 7, 100).unwrap().1.is_empty());
    }
}
