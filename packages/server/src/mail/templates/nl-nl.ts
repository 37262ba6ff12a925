import { type LanguageSource, linkBlock } from './layout.js';

const FALLBACK = 'Werkt de knop niet? Kopieer dan deze link naar je browser:';
const dear = '{{#if firstname}}Beste {{firstname}},{{else}}Hallo,{{/if}}';
const hello = '{{#if firstname}}Hallo {{firstname}},{{else}}Hallo,{{/if}}';
const regards = 'Met vriendelijke groet,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}';
const minutes = '{{minutes}} {{plural minutes "minuut" "minuten"}}';
const invited = 'Je ontvangt deze e-mail omdat {{sender}} je heeft uitgenodigd voor {{campaignname}}.';
const admin = 'Je ontvangt deze e-mail omdat je beheerder bent van {{campaignname}}.';

export const nlNL: LanguageSource = {
  locale: 'nl-NL',
  stages: {
    campaign_invitation: {
      subject: 'Uitnodiging voor {{campaignname}}',
      blocks: [
        dear,
        '{{#if inviter}}{{inviter}} van {{sender}}{{else}}{{sender}}{{/if}} nodigt je uit om deel te nemen ' +
          'aan {{campaignname}}. Je vult daarvoor de vragenlijst {{variantname}} in. Er zijn geen goede of ' +
          'foute antwoorden: geef gewoon aan hoe jij het ziet.',
        `{{#if minutes}}Het invullen duurt ongeveer ${minutes}. {{/if}}Je kunt op elk moment pauzeren en ` +
          'later met dezelfde link verdergaan waar je gebleven was.' +
          '{{#if end}} De vragenlijst sluit op {{end}}.{{/if}}',
        linkBlock('Start de vragenlijst', 'Start de vragenlijst via deze link:', FALLBACK),
        'Deze link is persoonlijk; stuur deze e-mail daarom niet door.',
        'Alvast bedankt voor je tijd.',
        regards,
      ],
      footer: invited,
    },
    campaign_reminder: {
      subject: 'Een vriendelijke herinnering: {{campaignname}}',
      blocks: [
        dear,
        'Een tijdje geleden ben je uitgenodigd om deel te nemen aan {{campaignname}} ({{variantname}}). ' +
          'We hebben je antwoorden nog niet ontvangen, daarom sturen we je deze vriendelijke herinnering.',
        'Ben je al begonnen? Geen probleem: via de link hieronder ga je verder waar je gebleven was.' +
          `{{#if minutes}} Het invullen duurt in totaal ongeveer ${minutes}.{{/if}}` +
          '{{#if end}} De vragenlijst sluit op {{end}}.{{/if}}',
        linkBlock('Verder met de vragenlijst', 'Ga verder met de vragenlijst via deze link:', FALLBACK),
        'Heb je de vragenlijst inmiddels ingevuld? Dank je wel! Dan kun je dit bericht negeren.',
        regards,
      ],
      footer: invited,
    },
    confirmation_admin: {
      subject: 'Vragenlijst ingevuld{{#if subjectname}} door {{subjectname}}{{/if}}: {{campaignname}}',
      blocks: [
        hello,
        '{{#if subjectname}}{{subjectname}}{{else}}Een deelnemer{{/if}} heeft de vragenlijst ' +
          '{{variantname}} voor {{campaignname}} ingevuld. De antwoorden zijn opgeslagen en worden ' +
          'meegenomen in de resultaten van de campagne.',
        'Je hoeft niets te doen: dit is een automatisch bericht van {{sender}}.',
      ],
      footer: admin,
    },
    confirmation_member: {
      subject: 'Bedankt voor je deelname aan {{campaignname}}',
      blocks: [
        dear,
        'Bedankt voor het invullen van de vragenlijst {{variantname}} voor {{campaignname}}. Je antwoorden ' +
          'zijn opgeslagen; je hoeft verder niets te doen.',
        'We waarderen de tijd en aandacht die je erin hebt gestoken.',
        regards,
      ],
      footer: 'Je ontvangt deze e-mail omdat je hebt deelgenomen aan {{campaignname}}.',
    },
    closing_notification: {
      subject: '{{campaignname}} is afgesloten',
      blocks: [
        hello,
        'De campagne {{campaignname}} ({{variantname}}) is nu afgesloten. Deelnemers kunnen geen ' +
          'antwoorden meer insturen. De resultaten zijn compleet, dus de rapporten kunnen nu worden ' +
          'opgesteld en gedeeld.',
        'Dit is een automatisch bericht van {{sender}}.',
      ],
      footer: admin,
    },
    campaign_reportdelivery: {
      subject: 'Je rapport voor {{campaignname}} staat klaar',
      blocks: [
        dear,
        'Het rapport ({{variantname}}) voor {{campaignname}} staat klaar. Via de link hieronder kun je het ' +
          'bekijken en downloaden.',
        linkBlock('Bekijk het rapport', 'Bekijk het rapport via deze link:', FALLBACK),
        'Het rapport is vertrouwelijk; stuur deze e-mail daarom niet door. Lees het bij voorkeur op een ' +
          'rustig moment.',
        regards,
      ],
      footer: 'Je ontvangt deze e-mail omdat er een rapport van {{campaignname}} met je is gedeeld.',
    },
  },
};
