import type { Language } from '../../variants/variant.types.js';
import type { PlatformStage } from '../mail.types.js';
import { linkBlock, type StageSource } from './layout.js';

/**
 * The texts of the platform's own mails (mail.types.ts, PLATFORM_STAGES), in the four languages,
 * laid out as the campaign mails are (layout.ts). The values they see are listed in
 * platform-mail.ts; `{{expires}}` is the moment the link stops working, in the mail's language.
 */
export const PLATFORM_TEXTS: Readonly<Record<Language, Readonly<Record<PlatformStage, StageSource>>>> = {
  enUS: {
    user_invitation: {
      subject: 'You are invited to Assay',
      blocks: [
        '{{#if firstname}}Dear {{firstname}},{{else}}Hello,{{/if}}',
        '{{#if inviter}}{{inviter}} of {{sender}}{{else}}{{sender}}{{/if}} has invited you to Assay, where ' +
          'assessments are run: campaigns, their members and their reports.',
        'To accept, choose a password with the link below. The link works once, until {{expires}}. ' +
          'After that you sign in with your e-mail address {{email}} and that password.',
        linkBlock(
          'Choose your password',
          'Choose your password here:',
          'If the button doesn’t work, copy this link into your browser:',
        ),
        'If you did not expect this invitation, you can ignore this e-mail: nothing happens unless the ' +
          'link is used.',
        'Kind regards,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}',
      ],
      footer: 'You are receiving this e-mail because {{sender}} invited you to become a user of Assay.',
    },
  },
  nlNL: {
    user_invitation: {
      subject: 'Je bent uitgenodigd voor Assay',
      blocks: [
        '{{#if firstname}}Beste {{firstname}},{{else}}Hallo,{{/if}}',
        '{{#if inviter}}{{inviter}} van {{sender}}{{else}}{{sender}}{{/if}} heeft je uitgenodigd voor Assay, ' +
          'waar assessments worden uitgevoerd: campagnes, hun deelnemers en hun rapporten.',
        'Kies via de link hieronder een wachtwoord om de uitnodiging aan te nemen. De link werkt één keer, ' +
          'tot {{expires}}. Daarna log je in met je e-mailadres {{email}} en dat wachtwoord.',
        linkBlock(
          'Kies je wachtwoord',
          'Kies hier je wachtwoord:',
          'Werkt de knop niet? Kopieer dan deze link naar je browser:',
        ),
        'Had je deze uitnodiging niet verwacht? Dan kun je deze e-mail negeren: er gebeurt niets zolang de ' +
          'link niet wordt gebruikt.',
        'Met vriendelijke groet,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}',
      ],
      footer: 'Je ontvangt deze e-mail omdat {{sender}} je heeft uitgenodigd als gebruiker van Assay.',
    },
  },
  esES: {
    user_invitation: {
      subject: 'Te han invitado a Assay',
      blocks: [
        '{{#if firstname}}Hola, {{firstname}}:{{else}}Hola:{{/if}}',
        '{{#if inviter}}{{inviter}}, de {{sender}},{{else}}{{sender}}{{/if}} te ha invitado a Assay, donde se ' +
          'gestionan las evaluaciones: las campañas, sus participantes y sus informes.',
        'Para aceptar, elige una contraseña con el enlace de abajo. El enlace funciona una sola vez, hasta el ' +
          '{{expires}}. Después podrás iniciar sesión con tu dirección {{email}} y esa contraseña.',
        linkBlock(
          'Elegir tu contraseña',
          'Elige tu contraseña aquí:',
          'Si el botón no funciona, copia este enlace en tu navegador:',
        ),
        'Si no esperabas esta invitación, puedes ignorar este correo: no pasa nada mientras no se use el ' +
          'enlace.',
        'Un saludo,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}',
      ],
      footer: 'Recibes este correo porque {{sender}} te ha invitado a ser usuario de Assay.',
    },
  },
  frFR: {
    user_invitation: {
      subject: 'Vous êtes invité(e) sur Assay',
      blocks: [
        '{{#if firstname}}Bonjour {{firstname}},{{else}}Bonjour,{{/if}}',
        '{{#if inviter}}{{inviter}} ({{sender}}){{else}}{{sender}}{{/if}} vous invite sur Assay, où se ' +
          'déroulent les évaluations\u00a0: les campagnes, leurs participants et leurs rapports.',
        'Pour accepter, choisissez un mot de passe avec le lien ci-dessous. Le lien ne fonctionne qu’une fois, ' +
          'jusqu’au {{expires}}. Vous vous connecterez ensuite avec votre adresse {{email}} et ce mot de passe.',
        linkBlock(
          'Choisir votre mot de passe',
          'Choisissez votre mot de passe ici\u00a0:',
          'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:',
        ),
        'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail\u00a0: rien ne se passe tant ' +
          'que le lien n’est pas utilisé.',
        'Bien cordialement,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}',
      ],
      footer: 'Vous recevez cet e-mail car {{sender}} vous a invité(e) à devenir utilisateur d’Assay.',
    },
  },
};
