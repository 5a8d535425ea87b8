import Papa from 'papaparse';

/** Delimiters a text file's header row may use; papaparse picks the one that splits the rows most consistently. */
const DELIMITERS = [',', ';', '\t'];

/**
 * The first `limit` non-blank records of delimited text, quotes understood (a newline inside quotes stays in its
 * value). Line ends are made one kind first: papaparse takes the first one it sees for the whole text, and files
 * saved by hand mix them. The whole text is parsed (the callers read at most 64 KB): papaparse's own preview counts
 * blank lines as records.
 */
function records(text: string, limit: number): string[][] {
  return Papa.parse<string[]>(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), {
    delimitersToGuess: DELIMITERS,
    newline: '\n',
    skipEmptyLines: 'greedy',
  }).data.slice(0, limit);
}

/** The column headers of delimited text: the first record, trimmed, without empty or repeated names. */
export function parseHeaderRow(text: string): string[] {
  const [header = []] = records(text, 1);
  return [...new Set(header.map((h) => h.trim()).filter((h) => h !== ''))];
}

/** How much of a file is read to find its header row. */
const HEADER_BYTES = 64 * 1024;

/** Reads the header row of a .csv/.txt file in the browser. */
export async function readHeaderRow(file: Blob): Promise<string[]> {
  return parseHeaderRow(await file.slice(0, HEADER_BYTES).text());
}

/** Files whose header row the browser can read here. */
export const MAPPABLE_EXTENSIONS = ['.csv', '.txt'];

export const isMappableFile = (name: string): boolean =>
  MAPPABLE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/** The header row and the first `rows` data rows (values trimmed), for a preview before an import starts. */
export function parsePreview(text: string, rows = 5): { columns: string[]; rows: string[][] } {
  const [header = [], ...data] = records(text, rows + 1);
  return {
    columns: header.map((h) => h.trim()),
    rows: data.map((r) => r.map((v) => v.trim())),
  };
}

/** Reads the preview rows of a .csv/.txt file in the browser. The last record may be cut at the read limit. */
export async function readPreview(file: Blob, rows = 5): Promise<{ columns: string[]; rows: string[][] }> {
  return parsePreview(await file.slice(0, HEADER_BYTES).text(), rows);
}
