import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The two faces a report uses, by the names the drawing code passes to `doc.font()`. */
export const REGULAR = 'NotoSans';
export const BOLD = 'NotoSans-Bold';

// TTF, not WOFF: pdfkit embeds a WOFF without complaint but its text then cannot be extracted
// (copy, search, screen readers). Noto Sans covers Latin, Greek and Cyrillic names.
const FILES: Readonly<Record<string, string>> = {
  [REGULAR]: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  [BOLD]: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
};

/** The parts of pdfkit's embedded font this module relies on (pdfkit does not export the class). */
interface EmbeddedFont {
  font: { createSubset(): unknown };
  subset: unknown;
  /** Laid-out words (glyphs and positions), keyed by the word; absent if the document disables it. */
  layoutCache?: Record<string, unknown>;
}

interface Face {
  readonly bytes: Buffer;
  /** fontkit's parsed font, taken from the first document that used the face. */
  parsed?: EmbeddedFont['font'];
  layoutCache?: Record<string, unknown>;
}

// Words of variant texts repeat in every report, names and comments do not: starting the shared
// word cache afresh now and then bounds it to the words of this many reports.
const DOCUMENTS_PER_LAYOUT_CACHE = 200;

let faces: Map<string, Face> | undefined;
let documents = 0;

function loadFaces(): Map<string, Face> {
  if (faces === undefined) {
    const require = createRequire(import.meta.url);
    faces = new Map(
      Object.entries(FILES).map(([name, file]) => [name, { bytes: readFileSync(require.resolve(file)) }]),
    );
  }
  return faces;
}

/**
 * Registers both faces on a new document, sharing one parsed font per face across every document
 * of the process.
 *
 * pdfkit parses the font file again for each document, and the first text laid out with a fresh
 * parse costs about 30 ms per face (fontkit decodes the cmap, GSUB and GPOS tables lazily, on first
 * use). The parsed font is read-only during layout and each document keeps its own subset, so the
 * font parsed for the first document is handed to every later one; only the cheap directory read
 * (well under 1 ms) is repeated.
 *
 * pdfkit also lays out each distinct word once per document and keeps the result per document;
 * those results are read-only too (pdfkit copies a position before changing it), so the words of
 * the variant texts are laid out once for all reports rather than once per report.
 */
export function useReportFonts(doc: PDFKit.PDFDocument): void {
  const fresh = documents++ % DOCUMENTS_PER_LAYOUT_CACHE === 0;
  for (const [name, face] of loadFaces()) {
    doc.registerFont(name, face.bytes);
    doc.font(name);
    const embedded = (doc as unknown as { _font: EmbeddedFont })._font;
    if (face.parsed === undefined) {
      face.parsed = embedded.font;
    } else {
      embedded.font = face.parsed;
      embedded.subset = face.parsed.createSubset();
    }
    if (fresh || face.layoutCache === undefined) face.layoutCache = embedded.layoutCache;
    else if (embedded.layoutCache !== undefined) embedded.layoutCache = face.layoutCache;
  }
}
