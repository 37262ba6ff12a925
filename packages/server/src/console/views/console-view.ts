import type { UserRow } from '../../auth/auth.table.js';
import { fill, type PageStrings, stringsFor } from '../../pages/strings.js';
import type { Language } from '../../variants/variant.types.js';
import { accessStrings } from '../access-strings.js';
import { auditStrings } from '../audit-strings.js';
import { brandingStrings } from '../branding-strings.js';
import { mailStrings } from '../mail-strings.js';
import { reportsStrings } from '../reports-strings.js';
import { CONSOLE_LANGUAGES, type ConsoleStrings, consoleStrings } from '../strings.js';
import { webhooksStrings } from '../webhooks-strings.js';

/** A console page to show: which template (under pages/console/), with what. */
export interface ConsoleView {
  readonly template: string;
  readonly model: ConsoleModel;
}

/** The parts of the console's navigation; the current one is marked for screen readers. */
export type ConsoleSection =
  | 'campaigns'
  | 'members'
  | 'groups'
  | 'reports'
  | 'mail'
  | 'access'
  | 'webhooks'
  | 'account'
  | 'branding'
  | 'audit';

/** What every console page's layout reads. */
export type ConsoleModel = Record<string, unknown> & {
  readonly t: PageStrings;
  readonly c: ConsoleStrings;
  readonly title: string;
};

/** Who is looking, in which language, and the form token their forms carry. */
export interface Viewer {
  readonly language: Language;
  readonly user?: Pick<UserRow, 'firstname' | 'lastname' | 'email' | 'role'>;
  readonly csrf?: string;
  /** The path asked for, for the language choice to come back to. */
  readonly path: string;
}

/** The layout fields of a console page: words, navigation, the signed-in user, the language choice. */
export function chrome(viewer: Viewer, section?: ConsoleSection) {
  const c = consoleStrings(viewer.language);
  const user = viewer.user;
  const name = user ? [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email : undefined;
  const nav = (key: ConsoleSection, href: string, text: string) => ({
    href,
    text,
    current: key === section,
  });
  return {
    t: stringsFor(viewer.language),
    c,
    console: true,
    serviceName: c.serviceName,
    csrf: viewer.csrf,
    signedInAs: name ? fill(c.signedInAs, { name }) : undefined,
    nav: user
      ? [
          nav('campaigns', '/console', c.navCampaigns),
          nav('members', '/console/members', c.navMembers),
          nav('groups', '/console/groups', c.navGroups),
          nav('reports', '/console/reports', reportsStrings(viewer.language).nav),
          nav('mail', '/console/mail', mailStrings(viewer.language).nav),
          nav('branding', '/console/branding', brandingStrings(viewer.language).nav),
          nav('access', '/console/access/clients', accessStrings(viewer.language).nav),
          nav('webhooks', '/console/webhooks', webhooksStrings(viewer.language).nav),
          // The log names every operator's actions: admins only, as its page.
          ...(user.role === 'admin'
            ? [nav('audit', '/console/audit', auditStrings(viewer.language).nav)]
            : []),
        ]
      : undefined,
    languages: CONSOLE_LANGUAGES.map((language) => ({
      value: language,
      text: c.languageNames[language],
      lang: stringsFor(language).htmlLang,
      selected: language === viewer.language,
    })),
    here: viewer.path,
  };
}

/** A page of a heading, paragraphs and at most one link: notices and errors. */
export function consoleMessage(
  viewer: Viewer,
  heading: string,
  paragraphs: readonly string[],
  link?: { href: string; text: string },
): ConsoleView {
  return {
    template: 'console/message',
    model: { ...chrome(viewer), title: heading, heading, paragraphs, ...(link ? { link } : {}) },
  };
}

/**
 * The page of a form sent without its token (another site's, or an old page's): 403, nothing
 * changed, and a way back, chosen from the console's strings in the viewer's language (the
 * dashboard unless given).
 */
export function formExpiredView(
  viewer: Viewer,
  back: (c: ConsoleStrings) => { href: string; text: string } = (c) => ({
    href: '/console',
    text: c.goToDashboard,
  }),
): ConsoleView {
  const c = consoleStrings(viewer.language);
  return consoleMessage(viewer, c.expiredTitle, [c.expiredBody], back(c));
}
