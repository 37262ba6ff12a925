import { Type } from 'typebox';
import { listCampaigns } from '../campaigns/campaigns.service.js';
import type { AppContext } from '../context.js';
import type { ApiInstance } from '../http/route-schema.js';
import { failedPerCampaign } from '../mail/outbox.service.js';
import { showConsole, viewerOf } from './console-kit.js';
import { dashboardFilterOf, dashboardView } from './views/dashboard.view.js';

/** The console's start: every campaign of the instance, newest first, with its progress. */
export async function dashboardRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/',
    {
      schema: {
        querystring: Type.Object({
          status: Type.Optional(Type.String()),
          page: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      const operator = request.operator;
      if (!operator) return reply.code(401).send();
      const [campaigns, failedMails] = await Promise.all([
        listCampaigns(deps, { userId: operator.user.id }),
        failedPerCampaign(deps.db),
      ]);
      const page = Number.parseInt(request.query.page ?? '1', 10);
      return showConsole(
        reply,
        200,
        dashboardView(viewerOf(request), {
          campaigns,
          failedMails,
          variant: (alias) => deps.variants.get(alias),
          filter: dashboardFilterOf(request.query.status),
          page: Number.isFinite(page) ? page : 1,
        }),
      );
    },
  );
}
