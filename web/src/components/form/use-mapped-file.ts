import { useState } from 'react';
import { isMappableFile, readHeaderRow } from '@/lib/header-row';
import { guessMapping, type ColumnMappingValue, type MappingField } from './column-mapping';

/**
 * The file of an import dialog and, for a file whose columns the user maps, its header row (read in the browser)
 * and the mapping, pre-filled with the field each header names. Both import dialogs keep their file this way.
 */
export function useMappedFile() {
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<ColumnMappingValue>({});
  const [fileError, setFileError] = useState<string | null>(null);

  function reset() {
    setFile(null);
    setColumns([]);
    setMapping({});
    setFileError(null);
  }

  /** A file the server reads by its own column names (a known export): taken as it is. */
  function takeAsIs(chosen: File | undefined) {
    reset();
    if (chosen) setFile(chosen);
  }

  /** A file to map: refused unless .csv or .txt with a header row; its columns pre-mapped to `fields`. */
  async function takeMapped(chosen: File | undefined, fields: readonly MappingField[]) {
    reset();
    if (!chosen) return;
    if (!isMappableFile(chosen.name)) {
      setFileError('Only .csv and .txt files can be mapped; save an Excel file as CSV first.');
      return;
    }
    try {
      const header = await readHeaderRow(chosen);
      if (header.length === 0) {
        setFileError('The file has no header row.');
        return;
      }
      setFile(chosen);
      setColumns(header);
      setMapping(guessMapping(header, fields));
    } catch {
      setFileError('Could not read the file.');
    }
  }

  return { file, columns, mapping, setMapping, fileError, reset, takeAsIs, takeMapped };
}
