import { type LanguageSource, linkBlock } from './layout.js';

const FALLBACK = 'If the button doesn’t work, copy this link into your browser:';
const dear = '{{#if firstname}}Dear {{firstname}},{{else}}Hello,{{/if}}';
const hello = '{{#if firstname}}Hello {{firstname}},{{else}}Hello,{{/if}}';
const regards = 'Kind regards,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}';
const minutes = '{{minutes}} {{plural minutes "minute" "minutes"}}';
const invited =
  'You are receiving this e-mail because {{sender}} invited you to take part in {{campaignname}}.';
const admin = 'You are receiving this e-mail because you are an administrator of {{campaignname}}.';

export const enUS: LanguageSource = {
  locale: 'en-US',
  stages: {
    campaign_invitation: {
      subject: 'Invitation to take part in {{campaignname}}',
      blocks: [
        dear,
        '{{#if inviter}}{{inviter}} of {{sender}}{{else}}{{sender}}{{/if}} has invited you to take part in ' +
          '{{campaignname}}. You will be answering the {{variantname}} questionnaire. There are no right or ' +
          'wrong answers, so simply answer the way you see things.',
        `{{#if minutes}}It takes about ${minutes}. {{/if}}You can take a break at any time and continue ` +
          'later where you left off, using the same link.' +
          '{{#if end}} The questionnaire closes on {{end}}.{{/if}}',
        linkBlock('Start the questionnaire', 'Start the questionnaire here:', FALLBACK),
        'This link is personal to you, so please don’t forward this e-mail.',
        'Thank you in advance for your time.',
        regards,
      ],
      footer: invited,
    },
    campaign_reminder: {
      subject: 'A friendly reminder: {{campaignname}}',
      blocks: [
        dear,
        'A little while ago you were invited to take part in {{campaignname}} ({{variantname}}). We haven’t ' +
          'received your answers yet, so here is a gentle reminder.',
        'Already started? No problem: the link below takes you straight back to where you left off.' +
          `{{#if minutes}} The whole questionnaire takes about ${minutes}.{{/if}}` +
          '{{#if end}} It closes on {{end}}.{{/if}}',
        linkBlock('Continue the questionnaire', 'Continue the questionnaire here:', FALLBACK),
        'If you have completed it in the meantime, thank you! You can ignore this message.',
        regards,
      ],
      footer: invited,
    },
    confirmation_admin: {
      subject: 'Questionnaire completed{{#if subjectname}} by {{subjectname}}{{/if}}: {{campaignname}}',
      blocks: [
        hello,
        '{{#if subjectname}}{{subjectname}}{{else}}A participant{{/if}} has completed the {{variantname}} ' +
          'questionnaire for {{campaignname}}. The answers have been saved and will be included in the ' +
          'results of the campaign.',
        'There is nothing you need to do: this is an automatic notification from {{sender}}.',
      ],
      footer: admin,
    },
    confirmation_member: {
      subject: 'Thank you for taking part in {{campaignname}}',
      blocks: [
        dear,
        'Thank you for completing the {{variantname}} questionnaire for {{campaignname}}. Your answers ' +
          'have been saved, so there is nothing else you need to do.',
        'We really appreciate the time and care you put into it.',
        regards,
      ],
      footer: 'You are receiving this e-mail because you took part in {{campaignname}}.',
    },
    closing_notification: {
      subject: '{{campaignname}} has closed',
      blocks: [
        hello,
        'The campaign {{campaignname}} ({{variantname}}) has now closed. Participants can no longer ' +
          'submit answers, and the results are complete, so the reports can now be prepared and shared.',
        'This is an automatic notification from {{sender}}.',
      ],
      footer: admin,
    },
    campaign_reportdelivery: {
      subject: 'Your report for {{campaignname}} is ready',
      blocks: [
        dear,
        'The {{variantname}} report for {{campaignname}} is ready. You can view and download it using the ' +
          'link below.',
        linkBlock('View the report', 'View the report here:', FALLBACK),
        'The report is confidential, so please don’t forward this e-mail. We suggest reading it at a ' +
          'quiet moment.',
        regards,
      ],
      footer: 'You are receiving this e-mail because a report from {{campaignname}} was shared with you.',
    },
  },
};
