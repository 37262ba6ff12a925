import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** What a test wants to know about a rendered PDF, read the way a viewer or a screen reader would. */
export interface ReadPdf {
  readonly pages: number;
  /** Each page's text in drawing order, white space collapsed to single spaces. */
  readonly pageTexts: readonly string[];
  /** All pages' text joined. */
  readonly text: string;
  readonly info: Readonly<Record<string, unknown>>;
  readonly marked: boolean;
  /** Structure elements as `Role` or `Role[alt]`, depth first over every page's structure tree. */
  readonly structure: readonly string[];
}

interface StructNode {
  role?: string;
  alt?: string;
  children?: StructNode[];
}

/** pdf.js (legacy build: runs in Node without a browser or poppler) over a PDF in memory. */
export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // pdf.js takes ownership of the array it is given: hand it a copy.
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false })
    .promise;
  try {
    const pageTexts: string[] = [];
    const structure: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? ' ' : '');
      }
      pageTexts.push(collapse(text));
      walk((await page.getStructTree()) as StructNode | null, structure);
    }
    const [metadata, markInfo] = await Promise.all([pdf.getMetadata(), pdf.getMarkInfo()]);
    return {
      pages: pdf.numPages,
      pageTexts,
      text: pageTexts.join(' '),
      info: metadata.info as Record<string, unknown>,
      marked: markInfo?.Marked === true,
      structure,
    };
  } finally {
    await pdf.destroy();
  }
}

/** Single spaces, as extracted text has them, so that a paragraph matches across its line breaks. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function walk(node: StructNode | null, out: string[]): void {
  if (node === null) return;
  if (node.role !== undefined && node.role !== 'Root') {
    out.push(node.alt === undefined ? node.role : `${node.role}[${node.alt}]`);
  }
  for (const child of node.children ?? []) walk(child, out);
}
