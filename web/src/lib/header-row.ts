/** Delimiters a text file's header row may use. */
const DELIMITERS = [',', ';', '\t'] as const;

/** The first record of delimited text (a newline inside quotes does not end it), without a byte-order mark. */
function firstRecord(text: string): string {
  const body = text.replace(/^\uFEFF/, '');
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) return body.slice(0, i);
  }
  return body;
}

/** The delimiter (comma, semicolon or tab) that occurs most often outside quotes; comma when none does. */
export function detectDelimiter(line: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best: string = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = counts.get(d) ?? 0;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/** Splits one record on `delimiter`; double quotes wrap a value and "" inside quotes is a quote. */
export function splitRecord(line: string, delimiter: string): string[] {
  const values: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        current += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === delimiter) {
      values.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  values.push(current);
  return values;
}

/** The column headers of delimited text: the first record, trimmed, without empty or repeated names. */
export function parseHeaderRow(text: string): string[] {
  const line = firstRecord(text);
  const headers = splitRecord(line, detectDelimiter(line)).map((h) => h.trim());
  return [...new Set(headers.filter((h) => h !== ''))];
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

/** The records of delimited text (a newline inside quotes stays in its value), at most `limit`. */
function records(text: string, limit: number): string[] {
  const body = text.replace(/^\uFEFF/, '');
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < body.length && out.length < limit; i++) {
    const ch = body[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (i > start) out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (out.length < limit && start < body.length) out.push(body.slice(start));
  return out.filter((r) => r.trim() !== '');
}

/** The header row and the first `rows` data rows (values trimmed), for a preview before an import starts. */
export function parsePreview(text: string, rows = 5): { columns: string[]; rows: string[][] } {
  const [header = '', ...data] = records(text, rows + 1);
  const delimiter = detectDelimiter(header);
  return {
    columns: splitRecord(header, delimiter).map((h) => h.trim()),
    rows: data.map((r) => splitRecord(r, delimiter).map((v) => v.trim())),
  };
}

/** Reads the preview rows of a .csv/.txt file in the browser. The last record may be cut at the read limit. */
export async function readPreview(file: Blob, rows = 5): Promise<{ columns: string[]; rows: string[][] }> {
  return parsePreview(await file.slice(0, HEADER_BYTES).text(), rows);
}
