/** What is wrong with a CSV text (its message says it, for the refusal that quotes it). */
export class CsvError extends Error {}

/**
 * Reads RFC 4180 CSV a row at a time: quoted fields with "" escapes, commas and line breaks inside
 * quotes, CRLF or LF line ends, a leading byte-order mark; a blank line is skipped. A reader can
 * start at a `position` an earlier reader reached, so that a large text is read in parts (an import
 * checks the whole file first, then reads it again a chunk at a time) without ever holding all its
 * rows. `next()` throws on a quote that is never closed.
 */
export class CsvReader {
  private at: number;

  constructor(
    private readonly text: string,
    start?: number,
  ) {
    this.at = start ?? (text.charCodeAt(0) === 0xfeff ? 1 : 0);
  }

  /** Where the next row starts. */
  get position(): number {
    return this.at;
  }

  /** The next row's fields, or undefined at the end of the text. */
  next(): string[] | undefined {
    const text = this.text;
    const length = text.length;
    while (this.at < length) {
      const row: string[] = [];
      // A field is `field` plus the run of plain characters from `run` to the current one.
      let field = '';
      let run = this.at;
      let quoted = false;
      let i = this.at;
      let lineEnded = false;
      for (; i < length; i++) {
        const char = text.charCodeAt(i);
        if (quoted) {
          if (char !== 0x22) continue;
          field += text.slice(run, i);
          if (text.charCodeAt(i + 1) === 0x22) {
            field += '"';
            i++;
          } else quoted = false;
          run = i + 1;
        } else if (char === 0x22 && field === '' && run === i) {
          quoted = true;
          run = i + 1;
        } else if (char === 0x2c) {
          row.push(field + text.slice(run, i));
          field = '';
          run = i + 1;
        } else if (char === 0x0a || char === 0x0d) {
          row.push(field + text.slice(run, i));
          if (char === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
          lineEnded = true;
          i++;
          break;
        }
      }
      this.at = i;
      if (!lineEnded) {
        if (quoted) throw new CsvError('a quoted field is not closed');
        const last = field + text.slice(run, i);
        if (last === '' && row.length === 0) return undefined;
        row.push(last);
      }
      if (row.length > 1 || row[0] !== '') return row;
    }
    return undefined;
  }
}

/**
 * Parses RFC 4180 CSV (see `CsvReader`). Answers rows of fields; a blank line is skipped. Throws on
 * a quote that is never closed.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const reader = new CsvReader(text);
  for (let row = reader.next(); row !== undefined; row = reader.next()) rows.push(row);
  return rows;
}

/** A header row's names, trimmed and as written; a name given twice (in any case) throws. */
export function csvHeader(header: string[]): string[] {
  const names = header.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (key && seen.has(key)) throw new CsvError(`the header names ${name} twice`);
    seen.add(key);
  }
  return names;
}

/**
 * A line as an object of the header's names, empty cells left out. A line with more cells than the
 * header throws, naming it by `row` (1-based, after the header).
 */
export function csvObject(names: string[], cells: string[], row: number): Record<string, string> {
  // A cell beyond the header belongs to no field: the line is not what the header says.
  for (let column = names.length; column < cells.length; column++) {
    if (cells[column] !== '') {
      throw new CsvError(`row ${row} has ${cells.length} fields, the header ${names.length}`);
    }
  }
  const object: Record<string, string> = {};
  names.forEach((name, column) => {
    const cell = cells[column];
    if (name && cell !== undefined && cell !== '') object[name] = cell;
  });
  return object;
}

/**
 * CSV with a header row: the header's names (trimmed, as written) and each line as an object of
 * them; empty cells are left out. A name given twice, or a line with more cells than the header,
 * throws.
 */
export function csvToObjects(text: string): { names: string[]; rows: Record<string, string>[] } {
  const [header, ...lines] = parseCsv(text);
  if (!header) return { names: [], rows: [] };
  const names = csvHeader(header);
  return { names, rows: lines.map((cells, index) => csvObject(names, cells, index + 1)) };
}
