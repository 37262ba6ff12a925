/**
 * Parses RFC 4180 CSV: quoted fields with "" escapes, commas and line breaks inside quotes, CRLF or
 * LF line ends, a leading byte-order mark. Answers rows of fields; a blank line is skipped.
 * Throws on a quote that is never closed.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') endRow();
    else if (char === '\r') {
      if (text[i + 1] === '\n') i++;
      endRow();
    } else field += char;
  }
  if (quoted) throw new Error('a quoted field is not closed');
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/**
 * CSV with a header row: the header's names (trimmed, as written) and each line as an object of
 * them; empty cells are left out. A name given twice, or a line with more cells than the header,
 * throws.
 */
export function csvToObjects(text: string): { names: string[]; rows: Record<string, string>[] } {
  const [header, ...lines] = parseCsv(text);
  if (!header) return { names: [], rows: [] };
  const names = header.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (key && seen.has(key)) throw new Error(`the header names ${name} twice`);
    seen.add(key);
  }
  const rows = lines.map((cells, index) => {
    // A cell beyond the header belongs to no field: the line is not what the header says.
    if (cells.slice(names.length).some((cell) => cell !== '')) {
      throw new Error(`row ${index + 1} has ${cells.length} fields, the header ${names.length}`);
    }
    const object: Record<string, string> = {};
    names.forEach((name, column) => {
      const cell = cells[column];
      if (name && cell !== undefined && cell !== '') object[name] = cell;
    });
    return object;
  });
  return { names, rows };
}
