import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { getCampaign } from '../campaigns/campaigns.service.js';
import type { AppContext } from '../context.js';
import { BusinessError, NotFound } from '../domain/errors.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import type { OutboxScope } from '../mail/outbox.repository.js';
import {
  isOutboxStatus,
  listMails,
  mailCounts,
  retryFailed,
  retryMail,
  sendCaptured,
  showMail,
  UnknownMail,
} from '../mail/outbox.service.js';
import { formatDate } from '../util/dates.js';
import { consoleActorOf, sendMailHtml, showConsole, viewerOf } from './console-kit.js';
import { consoleStrings } from './strings.js';
import { consoleMessage } from './views/console-view.js';
import { MAIL_PAGE_SIZE, mailListHref, mailListView, mailView, parseCursor } from './views/mail.view.js';

const MailId = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * A platform mail (an invitation to become a user) carries a link that sets a password, and names
 * someone asked to become a user: it is for admins only, as the users pages are. To anyone else
 * such a mail is not found, its page and its retry alike, and the lists, their counts and the bulk
 * retries leave it out: each asks the outbox within the viewer's scope.
 */
const seesPlatformMail = (request: FastifyRequest) => request.operator?.user.role === 'admin';
/** The mails a page, a list, its counts or an action covers for this viewer: a campaign's or all. */
const scopeOf = (request: FastifyRequest, campaign: { id: string } | undefined): OutboxScope => ({
  campaignId: campaign?.id,
  platform: seesPlatformMail(request),
});

/** The outbox in the console: the mail of the instance or of a campaign, one mail, retry and send. */
export async function mailRoutes(app: ApiInstance, deps: AppContext) {
  const { db, config, clock } = deps;
  const now = () => formatDate(clock());
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = viewerOf(request);
    const c = consoleStrings(viewer.language);
    return showConsole(
      reply,
      404,
      consoleMessage(viewer, c.notFoundTitle, [c.notFoundBody], {
        href: '/console/mail',
        text: c.goToDashboard,
      }),
    );
  };
  const campaignOf = async (request: FastifyRequest, id: string | undefined | null) => {
    if (!id || !request.operator) return undefined;
    const campaign = await getCampaign(deps, { userId: request.operator.user.id }, id);
    return { id: campaign.campaignid, name: campaign.name || campaign.alias };
  };

  app.get(
    '/mail',
    {
      schema: {
        querystring: Type.Object({
          campaign: Type.Optional(Type.String({ maxLength: 64 })),
          status: Type.Optional(Type.String({ maxLength: 16 })),
          before: Type.Optional(Type.String({ maxLength: 200 })),
          queued: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
        }),
      },
    },
    async (request, reply) => {
      const { campaign: campaignId, before, queued } = request.query;
      const status =
        request.query.status && isOutboxStatus(request.query.status) ? request.query.status : undefined;
      const campaign = await campaignOf(request, campaignId);
      const scope = scopeOf(request, campaign);
      const [mails, counts] = await Promise.all([
        listMails(db, { ...scope, status, limit: MAIL_PAGE_SIZE + 1, before: parseCursor(before) }),
        mailCounts(db, scope),
      ]);
      return showConsole(
        reply,
        200,
        mailListView(viewerOf(request), {
          mails,
          counts,
          campaign,
          status,
          before,
          smtpConfigured: config.smtpUrl !== undefined,
          queued: queued === undefined ? undefined : Number(queued),
        }),
      );
    },
  );

  app.get('/mail/:id', { schema: { params: MailId } }, async (request, reply) => {
    try {
      const shown = await showMail(
        db,
        request.params.id,
        { variants: deps.variants, mailFrom: config.mailFrom },
        scopeOf(request, undefined),
      );
      // A campaign deleted since (its mail stays, campaign null or gone): the mail without it.
      const campaign = await campaignOf(request, shown.mail.campaignid).catch((error: unknown) => {
        if (error instanceof NotFound) return undefined;
        throw error;
      });
      return showConsole(reply, 200, mailView(viewerOf(request), { ...shown, campaign }));
    } catch (error) {
      if (error instanceof BusinessError) return notFound(request, reply);
      throw error;
    }
  });

  app.get('/mail/:id/html', { schema: { params: MailId } }, async (request, reply) => {
    try {
      const { rendered } = await showMail(
        db,
        request.params.id,
        { variants: deps.variants, mailFrom: config.mailFrom },
        scopeOf(request, undefined),
      );
      if ('error' in rendered) return notFound(request, reply);
      return sendMailHtml(reply, rendered.html);
    } catch (error) {
      if (error instanceof BusinessError) return notFound(request, reply);
      throw error;
    }
  });

  app.post('/mail/:id/retry', { schema: { params: MailId } }, async (request, reply) => {
    try {
      await retryMail(db, request.params.id, now(), consoleActorOf(request), scopeOf(request, undefined));
    } catch (error) {
      // A mail this viewer may not see is refused as its page is: not found, and left as it is.
      if (error instanceof UnknownMail) return notFound(request, reply);
      if (!(error instanceof BusinessError)) throw error;
      // Not failed or captured (any more): the mail's page shows where it stands.
    }
    deps.mailQueued();
    return reply.redirect(`/console/mail/${encodeURIComponent(request.params.id)}`, 303);
  });

  const campaignField = async (request: FastifyRequest) => {
    const value = fieldsOf(request.body).campaign;
    return campaignOf(request, typeof value === 'string' && value !== '' ? value : undefined);
  };

  app.post('/mail/retry-failed', async (request, reply) => {
    const campaign = await campaignField(request);
    const count = await retryFailed(db, now(), consoleActorOf(request), scopeOf(request, campaign));
    deps.mailQueued();
    return reply.redirect(
      `${mailListHref({ campaign: campaign?.id })}${campaign ? '&' : '?'}queued=${count}`,
      303,
    );
  });

  app.post('/mail/send-captured', async (request, reply) => {
    const campaign = await campaignField(request);
    let count = 0;
    try {
      count = await sendCaptured(
        db,
        now(),
        { smtpConfigured: config.smtpUrl !== undefined, ...scopeOf(request, campaign) },
        consoleActorOf(request),
      );
    } catch (error) {
      if (!(error instanceof BusinessError)) throw error;
    }
    deps.mailQueued();
    return reply.redirect(
      `${mailListHref({ campaign: campaign?.id })}${campaign ? '&' : '?'}queued=${count}`,
      303,
    );
  });
}
