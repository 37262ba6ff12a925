import { type PdfFile, pdfFile } from '../pdf.js';
import type { Transport } from '../transport.js';
import type { Sample } from '../types.js';
import { seg } from './shared.js';

/** The samples family (scope `samples`). */
export class Samples {
  constructor(private readonly http: Transport) {}

  /** GET /samples: a sample personal report per variant and language, with the address of its PDF. */
  list(): Promise<Sample[]> {
    return this.http.call('GET', '/samples');
  }

  /** GET /samples/{variant}/{language}: a sample report's PDF as a stream (Assay's `url` of a sample). */
  async pdf(variant: string, language: string): Promise<PdfFile> {
    return pdfFile(await this.http.binary('GET', `/samples/${seg(variant)}/${seg(language)}`));
  }

  /** The sample's PDF, whole, as bytes. */
  async pdfBytes(variant: string, language: string): Promise<Uint8Array> {
    const response = await this.http.binary('GET', `/samples/${seg(variant)}/${seg(language)}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}
