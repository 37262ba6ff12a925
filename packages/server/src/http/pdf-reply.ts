import type { FastifyReply } from 'fastify';
import type { RenderedReport } from '../reports/report-pdf.js';

/**
 * A report PDF as every route sends it (the API's and the participant's report link): inline (or,
 * for the console's download link, as an attachment),
 * with its file name (ASCII, and the same in RFC 5987 form), never cached, never sniffed.
 */
export function sendPdf(
  reply: FastifyReply,
  report: RenderedReport,
  disposition: 'inline' | 'attachment' = 'inline',
) {
  return reply
    .type('application/pdf')
    .header(
      'content-disposition',
      `${disposition}; filename="${report.filename}"; filename*=UTF-8''${report.filename}`,
    )
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(report.pdf);
}
