import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { getCampaign } from '../campaigns/campaigns.service.js';
import type { AppContext } from '../context.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { campaignRetentionOf, setCampaignRetention } from '../retention/retention.service.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import { retentionFormView } from './views/retention.view.js';

const campaignParams = Type.Object({ campaignid: Type.String() });
const callerOf = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });

/**
 * A campaign's own, shorter retention of its answers and personal reports: the form behind its row
 * among the campaign page's settings. The same service as `assay campaigns retention`; only those
 * who may see the campaign (getCampaign's access rule) reach it.
 */
export async function retentionRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/campaigns/:campaignid/retention',
    { schema: { params: campaignParams } },
    async (request, reply) => {
      const campaign = await getCampaign(deps, callerOf(request), request.params.campaignid);
      const retention = await campaignRetentionOf(deps, campaign.campaignid);
      return showConsole(reply, 200, retentionFormView(viewerOf(request), campaign, retention));
    },
  );

  app.post(
    '/campaigns/:campaignid/retention',
    { schema: { params: campaignParams } },
    async (request, reply) => {
      const campaign = await getCampaign(deps, callerOf(request), request.params.campaignid);
      const raw = fieldsOf(request.body).value;
      const value = typeof raw === 'string' ? raw.trim() : '';
      try {
        await setCampaignRetention(
          deps,
          consoleActorOf(request),
          campaign.campaignid,
          value === '' ? null : value,
        );
      } catch (error) {
        const refusal = refusalOf(request, error);
        const retention = await campaignRetentionOf(deps, campaign.campaignid);
        return showConsole(
          reply,
          400,
          retentionFormView(viewerOf(request), campaign, retention, {
            value,
            error: refusal,
          }),
        );
      }
      return reply.redirect(`/console/campaigns/${campaign.campaignid}?done=saved#settings`, 303);
    },
  );
}
