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

/** CSV rows with a header row turned into objects, named as the header writes them (trimmed); empty cells are left out. */
export function csvToObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const names = header.map((name) => name.trim());
  return rows.map((cells) => {
    const object: Record<string, string> = {};
    names.forEach((name, index) => {
      const cell = cells[index];
      if (name && cell !== undefined && cell !== '') object[name] = cell;
    });
    return object;
  });
}
