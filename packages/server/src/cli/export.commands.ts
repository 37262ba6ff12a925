import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CampaignExportQuery } from '@assay/schema';
import type { CampaignDeps } from '../campaigns/campaigns.service.js';
import { exportCampaign } from '../campaigns/export.service.js';
import { validate } from '../validation/validator.js';

/**
 * `assay export campaign`: the file GET /campaigns/{id}/export answers (the same export code), written
 * to `out` (default: the export's own file name in the current folder). It is written beside the
 * target under a temporary name and renamed once whole, so a failure never leaves half a file, nor
 * harms a file already there.
 */
export async function exportCampaignFile(
  deps: Pick<CampaignDeps, 'db' | 'variants'>,
  campaignId: string,
  options: { format?: string; part?: string; out?: string },
  progress?: (done: number, total: number) => void,
): Promise<{ file: string; rows: number; bytes: number }> {
  // The API's own check of format and part, with its messages.
  const query = validate(
    CampaignExportQuery,
    { format: options.format, ...(options.part === undefined ? {} : { part: options.part }) },
    'query',
  ) as CampaignExportQuery;
  let total = 0;
  let rows = 0;
  const file = await exportCampaign(deps, campaignId, query, (done) => {
    rows = done;
    progress?.(done, total);
  });
  total = file.total;
  progress?.(0, total);
  const target = path.resolve(options.out ?? file.filename);
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(4).toString('hex')}.part`,
  );
  try {
    await pipeline(file.body, fs.createWriteStream(partial, { flags: 'wx' }));
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { file: target, rows: query.format === 'xlsx' ? rows / 2 : rows, bytes: fs.statSync(target).size };
}
