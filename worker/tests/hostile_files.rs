//! Hostile files against the import reader's memory (issue 33): each file of the corpus is read as every import
//! reads it (`worker::import::table::open`, then every row), and the process's peak RSS is measured around it.
//! Each read ends in a clear error naming the row and column (or in the file's rows, for the legitimate ones),
//! and no read raises the peak by more than `MAX_GROWTH_MB`, whatever the size of the cell. Its own test binary:
//! the peak is the process's, so nothing else may run beside it. The full 400 MB corpus through the real worker
//! is `tests/bench/hostile_files.sh`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::hostile::{self, Giant, Packing::Stored};
use jobs::import::Format;
use std::io::{BufWriter, Write};
use worker::import::table;

/// How much one read may raise the peak: a cell and a row at their limits and the buffers…
const MAX_GROWTH_MB: u64 = 16;
/// …and with a large shared string table, its in-memory part (at most 16 MB, the rest spills to a temp file) and
/// its offsets (8 bytes a text).
const MAX_GROWTH_TABLE_MB: u64 = 48;
/// The oversized value: far past every limit (read whole, it would take twice its size or more), small enough
/// to build and read in a few seconds in a debug build.
const GIANT: usize = 16 << 20;

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// Reads every row of the file; the error, or the number of rows, and the growth of the peak RSS in MB.
fn read_all(path: &std::path::Path, format: Format) -> (Result<usize, String>, u64) {
    // "5" resets the peak (VmHWM) to the current RSS.
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_kb("VmRSS:");
    let result = table::open(path, format).and_then(|rows| {
        let mut n = 0;
        for row in rows {
            row?;
            n += 1;
        }
        Ok(n)
    });
    let peak = status_kb("VmHWM:");
    (
        result.map_err(|e| e.to_string()),
        peak.saturating_sub(before) / 1024,
    )
}

fn file(build: impl FnOnce(&mut BufWriter<std::fs::File>)) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    let mut out = BufWriter::new(file.reopen().unwrap());
    build(&mut out);
    out.flush().unwrap();
    file
}

fn xlsx(build: impl FnOnce(std::fs::File) -> std::fs::File) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    build(file.reopen().unwrap()).sync_all().unwrap();
    file
}

#[test]
fn every_hostile_file_ends_in_a_clear_error_within_bounded_memory() {
    let cell_error = |row: u32| format!("Row {row}, column B: the cell is longer than 65536 bytes");
    let mut cases: Vec<(&str, tempfile::NamedTempFile, Format, Result<usize, String>)> = Vec::new();
    let started = std::time::Instant::now();
    for giant in [Giant::SharedString, Giant::InlineString, Giant::Number] {
        cases.push((
            "giant cell",
            xlsx(|f| hostile::giant_cell(f, Stored, giant, 2, GIANT)),
            Format::Excel,
            Err(cell_error(2)),
        ));
    }
    cases.push((
        "giant formula (not a value)",
        xlsx(|f| hostile::giant_cell(f, Stored, Giant::Formula, 2, GIANT)),
        Format::Excel,
        Ok(2),
    ));
    cases.push((
        "a row of 40 cells of 60 KB",
        xlsx(|f| hostile::wide_row(f, Stored, 40, 60 * 1024)),
        Format::Excel,
        Err("Row 2, column R: the row is longer than 1048576 bytes".to_owned()),
    ));
    cases.push((
        "300,000 distinct shared strings",
        xlsx(|f| hostile::many_strings(f, Stored, 300_000)),
        Format::Excel,
        Ok(2),
    ));
    cases.push((
        "giant CSV cell",
        file(|out| hostile::giant_csv(out, GIANT)),
        Format::Delimited,
        Err("Row 2, column 2: the cell is longer than 65536 bytes".to_owned()),
    ));
    println!("corpus built in {:?}", started.elapsed());
    let mut failures = Vec::new();
    for (name, file, format, expected) in cases {
        let started = std::time::Instant::now();
        let (result, growth) = read_all(file.path(), format);
        println!(
            "{name}: {result:?}, peak RSS +{growth} MB, {:?}",
            started.elapsed()
        );
        let bound = if name.contains("shared strings") {
            MAX_GROWTH_TABLE_MB
        } else {
            MAX_GROWTH_MB
        };
        if result != expected || growth > bound {
            failures.push(format!(
                "{name}: {result:?} (expected {expected:?}), peak RSS +{growth} MB (at most {bound})"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
