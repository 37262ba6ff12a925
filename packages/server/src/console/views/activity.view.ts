import type { ActivityEntry } from '../../campaigns/activity.service.js';
import { fill } from '../../pages/strings.js';
import { type Language, MAIL_STAGES, type MailStage } from '../../variants/variant.types.js';
import { activityStrings } from '../activity-strings.js';
import { consoleDate, consoleDateTime, consoleNumber } from '../format.js';
import { mailStrings } from '../mail-strings.js';

/** One line of the timeline: when (as text, and as the machine-readable moment) and what. */
export interface ActivityItem {
  readonly date: string;
  readonly datetime: string;
  readonly text: string;
  /** A user's name, shown isolated (`<bdi>`) between `text` and `after`. */
  readonly name?: string;
  readonly after?: string;
}

const isMailStage = (stage: string): stage is MailStage => MAIL_STAGES.some((known) => known === stage);

/** The campaign page's activity section: its words and the entries as lines. */
export function activityView(language: Language, entries: readonly ActivityEntry[]) {
  const a = activityStrings(language);
  const number = (n: number) => consoleNumber(language, n);
  const stageName = (stage: string) => (isMailStage(stage) ? mailStrings(language).stageNames[stage] : stage);
  const item = (entry: ActivityEntry): ActivityItem => {
    const day = { date: consoleDate(language, entry.at), datetime: entry.at.slice(0, 10) };
    const moment = { date: consoleDateTime(language, entry.at), datetime: entry.at };
    switch (entry.kind) {
      case 'created':
        return entry.by === undefined
          ? { ...moment, text: a.created }
          : {
              ...moment,
              text: a.createdBy.split('{name}')[0] ?? '',
              name: entry.by,
              after: a.createdBy.split('{name}')[1] ?? '',
            };
      case 'members-added':
        return {
          ...day,
          text: entry.count === 1 ? a.memberAdded : fill(a.membersAdded, { count: number(entry.count) }),
        };
      case 'mails-queued':
        return {
          ...day,
          text:
            entry.stage === 'campaign_invitation'
              ? entry.count === 1
                ? a.invitationQueued
                : fill(a.invitationsQueued, { count: number(entry.count) })
              : entry.stage === 'campaign_reminder'
                ? entry.count === 1
                  ? a.reminderQueued
                  : fill(a.remindersQueued, { count: number(entry.count) })
                : fill(a.mailsQueued, { count: number(entry.count), stage: stageName(entry.stage) }),
        };
      case 'closed':
        return { ...moment, text: a.closed };
      case 'ends':
        return { ...moment, text: entry.past ? a.ended : a.ends };
    }
  };
  return {
    heading: a.heading,
    none: a.none,
    items: entries.map(item),
  };
}
