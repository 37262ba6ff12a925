import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CampaignExport } from '../campaigns/export.service.js';

/**
 * A campaign export as the API and the console send it: an attachment under its file name (letters,
 * digits, `-` and `.` only, so it needs no quoting), never cached, never sniffed, streamed as it is
 * written. A HEAD gets the headers alone: the file is not written only to be thrown away.
 */
export function sendExport(request: FastifyRequest, reply: FastifyReply, file: CampaignExport) {
  reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (request.method === 'HEAD') {
    file.body.destroy();
    return reply.send();
  }
  return reply.send(file.body);
}
