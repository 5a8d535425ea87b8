//! Old-format .xls (BIFF) through calamine, which reads a sheet whole: the file's size is bounded instead, and
//! each cell and row is checked against the same limits as the streamed formats.

use super::{bad, cell_text, column_letters, io, FileLimits};
use calamine::{open_workbook_auto_from_rs, Reader};
use jobs::JobError;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

pub fn open(
    mut file: File,
    limits: FileLimits,
) -> Result<std::vec::IntoIter<Vec<String>>, JobError> {
    let size = file.metadata().map_err(io)?.len();
    if size > limits.max_xls_bytes {
        return Err(bad(&format!(
            "An .xls file is read whole, so it may be at most {} MB: save it as .xlsx or .csv",
            limits.max_xls_bytes / (1024 * 1024)
        )));
    }
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    // calamine needs a cloneable reader; the file is small (bounded above).
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    let mut workbook = open_workbook_auto_from_rs(std::io::Cursor::new(bytes))
        .map_err(|_| bad("The file is not a readable Excel workbook (.xls or .xlsx)"))?;
    let range = workbook
        .worksheet_range_at(0)
        .ok_or_else(|| bad("The workbook has no sheets"))?
        .map_err(|_| bad("The first sheet of the workbook could not be read"))?;
    let (first_row, first_column) = range.start().unwrap_or((0, 0));
    let mut rows = Vec::new();
    for (r, row) in range.rows().enumerate() {
        let mut row_bytes = 0usize;
        let mut cells = Vec::with_capacity(row.len());
        for (c, cell) in row.iter().enumerate() {
            let text = cell_text(cell);
            row_bytes += text.len();
            let place = || {
                format!(
                    "Row {}, column {}",
                    first_row as usize + r + 1,
                    column_letters(first_column as usize + c)
                )
            };
            if text.len() > limits.max_cell_bytes {
                return Err(bad(&format!(
                    "{}: the cell is longer than {} bytes",
                    place(),
                    limits.max_cell_bytes
                )));
            }
            if row_bytes > limits.max_row_bytes {
                return Err(bad(&format!(
                    "{}: the row is longer than {} bytes",
                    place(),
                    limits.max_row_bytes
                )));
            }
            cells.push(text);
        }
        rows.push(cells);
    }
    Ok(rows.into_iter())
}
