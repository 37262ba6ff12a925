import { type LanguageSource, linkBlock } from './layout.js';

const FALLBACK = 'Si el botón no funciona, copia este enlace en tu navegador:';
const hola = '{{#if firstname}}Hola, {{firstname}}:{{else}}Hola:{{/if}}';
const regards = 'Un saludo,\n{{#if inviter}}{{inviter}}\n{{/if}}{{sender}}';
const minutes = '{{minutes}} {{plural minutes "minuto" "minutos"}}';
const invited = 'Recibes este correo porque {{sender}} te ha invitado a participar en {{campaignname}}.';
const admin = 'Recibes este correo porque administras la campaña {{campaignname}}.';

export const esES: LanguageSource = {
  locale: 'es-ES',
  stages: {
    campaign_invitation: {
      subject: 'Invitación para participar en {{campaignname}}',
      blocks: [
        hola,
        '{{#if inviter}}{{inviter}}, de {{sender}}, te invita{{else}}{{sender}} te invita{{/if}} a ' +
          'participar en {{campaignname}}. Para ello, responderás al cuestionario {{variantname}}. No hay ' +
          'respuestas correctas ni incorrectas: responde con sinceridad, según tu propia experiencia.',
        `{{#if minutes}}Responderlo lleva aproximadamente ${minutes}. {{/if}}Puedes hacer una pausa cuando quieras ` +
          'y continuar más tarde donde lo dejaste con el mismo enlace.' +
          '{{#if end}} El cuestionario se cierra el {{end}}.{{/if}}',
        linkBlock('Empezar el cuestionario', 'Accede al cuestionario aquí:', FALLBACK),
        'Este enlace es personal, así que te pedimos que no reenvíes este correo.',
        'Gracias de antemano por tu tiempo.',
        regards,
      ],
      footer: invited,
    },
    campaign_reminder: {
      subject: 'Un pequeño recordatorio: {{campaignname}}',
      blocks: [
        hola,
        'Hace poco recibiste una invitación para participar en {{campaignname}} ({{variantname}}). ' +
          'Todavía no hemos recibido tus respuestas, así que te escribimos para recordártelo.',
        '¿Ya lo has empezado? No pasa nada: con el enlace de abajo continuarás justo donde lo dejaste.' +
          `{{#if minutes}} El cuestionario completo lleva aproximadamente ${minutes}.{{/if}}` +
          '{{#if end}} Se cierra el {{end}}.{{/if}}',
        linkBlock('Continuar el cuestionario', 'Continúa el cuestionario aquí:', FALLBACK),
        'Si ya lo has completado, ¡muchas gracias! Puedes ignorar este mensaje.',
        regards,
      ],
      footer: invited,
    },
    confirmation_admin: {
      subject: 'Cuestionario completado{{#if subjectname}} por {{subjectname}}{{/if}}: {{campaignname}}',
      blocks: [
        hola,
        '{{#if subjectname}}{{subjectname}}{{else}}Un participante{{/if}} ha completado el cuestionario ' +
          '{{variantname}} de {{campaignname}}. Las respuestas se han guardado y se incluirán en los ' +
          'resultados de la campaña.',
        'No tienes que hacer nada: este es un mensaje automático de {{sender}}.',
      ],
      footer: admin,
    },
    confirmation_member: {
      subject: 'Gracias por participar en {{campaignname}}',
      blocks: [
        hola,
        'Gracias por completar el cuestionario {{variantname}} de {{campaignname}}. Tus respuestas se han ' +
          'guardado, así que no tienes que hacer nada más.',
        'Te agradecemos de verdad el tiempo y la atención que le has dedicado.',
        regards,
      ],
      footer: 'Recibes este correo porque has participado en {{campaignname}}.',
    },
    closing_notification: {
      subject: '{{campaignname}} se ha cerrado',
      blocks: [
        hola,
        'La campaña {{campaignname}} ({{variantname}}) se ha cerrado. Los participantes ya no pueden ' +
          'enviar respuestas. Los resultados están completos, así que ya se pueden preparar y compartir ' +
          'los informes.',
        'Este es un mensaje automático de {{sender}}.',
      ],
      footer: admin,
    },
    campaign_reportdelivery: {
      subject: 'Tu informe de {{campaignname}} está listo',
      blocks: [
        hola,
        'El informe ({{variantname}}) de {{campaignname}} ya está listo. Puedes verlo y descargarlo con el ' +
          'enlace de abajo.',
        linkBlock('Ver el informe', 'Consulta el informe aquí:', FALLBACK),
        'El informe es confidencial, así que te pedimos que no reenvíes este correo. Te recomendamos ' +
          'leerlo con calma.',
        regards,
      ],
      footer: 'Recibes este correo porque se ha compartido contigo un informe de {{campaignname}}.',
    },
  },
};
