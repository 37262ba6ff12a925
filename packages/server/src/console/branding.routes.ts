import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type BrandingProblem, brandingChange, updateBranding } from '../auth/branding.js';
import type { AppContext } from '../context.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { consoleActorOf, showConsole, viewerOf } from './console-kit.js';
import { type BrandingValues, brandingView, coverSvg } from './views/branding.view.js';

/** The preview is an image: nothing in it may load or run anything. */
export const PREVIEW_CSP = "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

const Values = Type.Object({
  agencyname: Type.Optional(Type.String()),
  agencyfooter: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  saved: Type.Optional(Type.String()),
  preview: Type.Optional(Type.String()),
  // The "Preview" button submits the save form as a GET, token included: it is taken off the address.
  csrf: Type.Optional(Type.String()),
});

/**
 * "Branding": the signed-in user's agency name, footer and colour (auth/branding.ts checks them, as
 * for `assay users update`), with the report cover drawn as SVG. The "Preview" form is a GET that
 * redraws the cover with the typed values and saves nothing.
 */
export async function brandingRoutes(app: ApiInstance, { db }: AppContext) {
  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    values: BrandingValues,
    extra: { problems?: readonly BrandingProblem[]; saved?: boolean } = {},
  ) => {
    const saved = request.operator?.user.color ?? '';
    // The cover keeps the saved colour while the typed one is refused.
    const checked = brandingChange({ color: values.color }).change.color;
    return showConsole(
      reply,
      status,
      brandingView(viewerOf(request), { values, ...extra, previewColor: checked ?? saved }),
    );
  };

  app.get('/branding', { schema: { querystring: Values } }, async (request, reply) => {
    const user = request.operator?.user;
    if (!user) return reply.code(401).send();
    const { agencyname, agencyfooter, color, saved, csrf } = request.query;
    if (csrf !== undefined) {
      const query = new URLSearchParams({
        agencyname: agencyname ?? '',
        agencyfooter: agencyfooter ?? '',
        color: color ?? '',
        preview: '1',
      });
      return reply.redirect(`/console/branding?${query.toString()}`, 303);
    }
    if (agencyname === undefined && agencyfooter === undefined && color === undefined) {
      const values = { agencyname: user.agencyname, agencyfooter: user.agencyfooter, color: user.color };
      return show(request, reply, 200, values, { saved: saved !== undefined });
    }
    // A preview: the typed values, checked as a save would check them, and nothing saved.
    const values = {
      agencyname: agencyname ?? user.agencyname,
      agencyfooter: agencyfooter ?? user.agencyfooter,
      color: color ?? user.color,
    };
    const { problems } = brandingChange(values);
    return show(request, reply, problems.length > 0 ? 400 : 200, values, { problems });
  });

  app.post('/branding', async (request, reply) => {
    const user = request.operator?.user;
    if (!user) return reply.code(401).send();
    const form = fieldsOf(request.body);
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const values = {
      agencyname: text(form.agencyname),
      agencyfooter: text(form.agencyfooter),
      color: text(form.color),
    };
    const problems = await updateBranding(db, user, values, consoleActorOf(request));
    if (problems.length > 0) return show(request, reply, 400, values, { problems });
    return reply.redirect('/console/branding?saved=1', 303);
  });

  app.get('/branding/preview.svg', { schema: { querystring: Values } }, async (request, reply) => {
    const user = request.operator?.user;
    if (!user) return reply.code(401).send();
    const q = request.query;
    // Each typed value that a save would refuse is drawn as saved instead.
    const { change } = brandingChange({
      agencyname: q.agencyname,
      agencyfooter: q.agencyfooter,
      color: q.color,
    });
    const values = {
      agencyname: change.agencyname ?? user.agencyname,
      agencyfooter: change.agencyfooter ?? user.agencyfooter,
      color: change.color ?? user.color,
    };
    return reply
      .header('content-security-policy', PREVIEW_CSP)
      .header('cache-control', 'no-store')
      .type('image/svg+xml; charset=utf-8')
      .send(coverSvg(viewerOf(request).language, values, new Date()));
  });
}
