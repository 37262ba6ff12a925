import { type LanguageSource, linkBlock } from './layout.js';

// French typography puts a no-break space (\u00a0) before : ; ! ? so they never start a line.
const FALLBACK = 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:';
const bonjour = '{{#if firstname}}Bonjour {{firstname}},{{else}}Bonjour,{{/if}}';
const regards = 'Bien cordialement,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}';
const minutes = '{{minutes}} {{plural minutes "minute" "minutes"}}';
const invited =
  'Vous recevez cet e-mail car {{sender}} vous a invité(e) à participer à la campagne {{campaignname}}.';
const admin = 'Vous recevez cet e-mail car vous administrez la campagne {{campaignname}}.';

export const frFR: LanguageSource = {
  locale: 'fr-FR',
  stages: {
    campaign_invitation: {
      subject: 'Invitation à participer à {{campaignname}}',
      blocks: [
        bonjour,
        '{{#if inviter}}{{inviter}} ({{sender}}) vous invite{{else}}{{sender}} vous invite{{/if}} à ' +
          'participer à la campagne {{campaignname}}. Vous répondrez pour cela au questionnaire {{variantname}}. Il ' +
          'n’y a pas de bonnes ou de mauvaises réponses\u00a0: répondez simplement selon votre ressenti.',
        `{{#if minutes}}Il vous faudra environ ${minutes}. {{/if}}Vous pouvez faire une pause à tout ` +
          'moment et reprendre plus tard là où vous vous étiez arrêté(e), avec le même lien.' +
          '{{#if end}} Le questionnaire sera clôturé le {{end}}.{{/if}}',
        linkBlock('Commencer le questionnaire', 'Accédez au questionnaire ici\u00a0:', FALLBACK),
        'Ce lien vous est personnel\u00a0; merci de ne pas transférer cet e-mail.',
        'Merci d’avance pour votre participation.',
        regards,
      ],
      footer: invited,
    },
    campaign_reminder: {
      subject: 'Petit rappel\u00a0: {{campaignname}}',
      blocks: [
        bonjour,
        'Vous avez récemment été invité(e) à participer à la campagne {{campaignname}} ({{variantname}}). Nous ' +
          'n’avons pas encore reçu vos réponses\u00a0; voici donc un petit rappel.',
        'Vous avez déjà commencé\u00a0? Aucun souci\u00a0: le lien ci-dessous vous ramène directement là ' +
          'où vous vous étiez arrêté(e).' +
          `{{#if minutes}} Le questionnaire complet prend environ ${minutes}.{{/if}}` +
          '{{#if end}} Il sera clôturé le {{end}}.{{/if}}',
        linkBlock('Reprendre le questionnaire', 'Reprenez le questionnaire ici\u00a0:', FALLBACK),
        'Si vous l’avez complété entre-temps, merci beaucoup\u00a0! Vous pouvez ignorer ce message.',
        regards,
      ],
      footer: invited,
    },
    confirmation_admin: {
      subject: 'Questionnaire complété{{#if subjectname}} par {{subjectname}}{{/if}}\u00a0: {{campaignname}}',
      blocks: [
        bonjour,
        '{{#if subjectname}}{{subjectname}}{{else}}Un participant{{/if}} a complété le questionnaire ' +
          '{{variantname}} pour la campagne {{campaignname}}. Les réponses ont été enregistrées et seront ' +
          'prises en compte dans les résultats.',
        'Aucune action n’est nécessaire de votre part\u00a0: ceci est un message automatique envoyé par {{sender}}.',
      ],
      footer: admin,
    },
    confirmation_member: {
      subject: 'Merci pour votre participation\u00a0: {{campaignname}}',
      blocks: [
        bonjour,
        'Merci d’avoir complété le questionnaire {{variantname}} pour la campagne {{campaignname}}. Vos réponses ont été ' +
          'enregistrées\u00a0; vous n’avez rien d’autre à faire.',
        'Nous vous remercions sincèrement du temps et de l’attention que vous y avez consacrés.',
        regards,
      ],
      footer: 'Vous recevez cet e-mail car vous avez participé à la campagne {{campaignname}}.',
    },
    closing_notification: {
      subject: 'La campagne {{campaignname}} est clôturée',
      blocks: [
        bonjour,
        'La campagne {{campaignname}} ({{variantname}}) est désormais clôturée. Les participants ne ' +
          'peuvent plus envoyer de réponses. Les résultats sont complets\u00a0: les rapports peuvent ' +
          'maintenant être préparés et partagés.',
        'Ceci est un message automatique envoyé par {{sender}}.',
      ],
      footer: admin,
    },
    campaign_reportdelivery: {
      subject: 'Votre rapport est disponible\u00a0: {{campaignname}}',
      blocks: [
        bonjour,
        'Le rapport ({{variantname}}) de la campagne {{campaignname}} est disponible. Vous pouvez le consulter et le ' +
          'télécharger à l’aide du lien ci-dessous.',
        linkBlock('Consulter le rapport', 'Consultez le rapport ici\u00a0:', FALLBACK),
        'Ce rapport est confidentiel\u00a0; merci de ne pas transférer cet e-mail. Nous vous conseillons ' +
          'de le lire à tête reposée.',
        regards,
      ],
      footer:
        'Vous recevez cet e-mail car un rapport de la campagne {{campaignname}} a été partagé avec vous.',
    },
  },
};
