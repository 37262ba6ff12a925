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

/** The parts of fontkit's glyph this module relies on. */
interface Glyph {
  readonly id: number;
  /** The characters the glyph stands for: those of the call that made the glyph object. */
  readonly codePoints: readonly number[];
  readonly advanceWidth: number;
}

/** The parts of fontkit's parsed font this module relies on. */
interface ParsedFont {
  createSubset(): unknown;
  getGlyph(id: number, characters?: number[]): Glyph | null;
}

/** The parts of pdfkit's embedded font this module relies on (pdfkit does not export the class). */
interface EmbeddedFont {
  font: ParsedFont;
  subset: unknown;
  /** Laid-out words (glyphs and positions), keyed by the word; absent if the document disables it. */
  layoutCache?: Record<string, unknown>;
}

interface Face {
  readonly bytes: Buffer;
  /** fontkit's parsed font, taken from the first document that used the face. */
  parsed?: ParsedFont;
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
 * Makes a parsed font safe to share between documents: every glyph it hands out stands for the
 * characters it was asked for.
 *
 * fontkit keeps one glyph object per glyph id, and the object keeps the characters of whichever
 * call made it. pdfkit writes a document's text map (the ToUnicode CMap that search, copy and
 * screen readers read) from the characters of the glyphs it draws, so with one font for all
 * documents one document's calls decided another's text. Two calls do this:
 * - writing the embedded subset asks for glyphs by id alone: the parts of a composite glyph ("E" in
 *   "É", "." in "…") got no characters, and every later document that drew "E" read as garbage;
 * - layout asks for a glyph under the characters it stands for there: before an accent the font
 *   draws "i" with the glyph of "ı", and every later document's "ı" read as "i".
 * A glyph asked for under other characters than its object has is handed out as a copy with the
 * characters asked for (sharing the decoded outline and metrics), so a document's text map follows
 * its own text alone, as with a font of its own; the shared words hold such copies too.
 */
function shareable(font: ParsedFont): ParsedFont {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id, characters = []) => {
    const glyph = getGlyph(id, characters);
    if (glyph === null || sameCharacters(glyph.codePoints, characters)) return glyph;
    // Decoded once, on the shared object, for its copies to inherit.
    void glyph.advanceWidth;
    return Object.create(glyph, { codePoints: { value: characters, enumerable: true } }) as Glyph;
  };
  return font;
}

function sameCharacters(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((codePoint, i) => codePoint === b[i]);
}

/**
 * Registers both faces on a new document, sharing one parsed font per face across every document
 * of the process.
 *
 * pdfkit parses the font file again for each document, and the first text laid out with a fresh
 * parse costs about 30 ms per face (fontkit decodes the cmap, GSUB and GPOS tables lazily, on first
 * use). The font parsed for the first document is handed to every later one, made `shareable` so
 * that no document's text leaks into another's; only the cheap directory read (well under 1 ms) is
 * repeated. What is per document stays per document: pdfkit's subset (the glyphs embedded and
 * their numbering), widths and text map.
 *
 * pdfkit also lays out each distinct word once per document and keeps the result per document;
 * those results are read-only (pdfkit copies a position before changing it) and, with a shareable
 * font, depend on the word alone, so the words of the variant texts are laid out once for all
 * reports rather than once per report.
 */
export function useReportFonts(doc: PDFKit.PDFDocument): void {
  const fresh = documents++ % DOCUMENTS_PER_LAYOUT_CACHE === 0;
  for (const [name, face] of loadFaces()) {
    doc.registerFont(name, face.bytes);
    doc.font(name);
    const embedded = (doc as unknown as { _font: EmbeddedFont })._font;
    if (face.parsed === undefined) face.parsed = shareable(embedded.font);
    else {
      embedded.font = face.parsed;
      embedded.subset = face.parsed.createSubset();
    }
    if (fresh || face.layoutCache === undefined) face.layoutCache = embedded.layoutCache;
    else if (embedded.layoutCache !== undefined) embedded.layoutCache = face.layoutCache;
  }
}
