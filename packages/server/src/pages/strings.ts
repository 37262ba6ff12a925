import type { Language } from '../variants/variant.types.js';

/**
 * Every word of the participant pages that is not the variant's: buttons, headings, error messages,
 * the clear pages. `{name}`-style placeholders are filled by the page code (escaped with the rest).
 */
export interface PageStrings {
  /** BCP 47 tag for `<html lang>`. */
  readonly htmlLang: string;
  readonly locale: string;
  readonly skipToContent: string;
  readonly back: string;
  /** Prefixed to the `<title>` of a page that shows errors. */
  readonly errorPrefix: string;
  /** The heading of the error summary. */
  readonly thereIsAProblem: string;
  /** Hidden text before an inline error message. */
  readonly errorHidden: string;
  /** "Page {page} of {pages}" above the heading. */
  readonly pageOf: string;
  readonly start: string;
  readonly startIntro: string;
  /** "About {minutes} minutes". */
  readonly duration: string;
  readonly resumeIntro: string;
  readonly continueAnswering: string;
  readonly saveAndContinue: string;
  readonly saveAndComeBack: string;
  /** Required answer missing on a scale question: "Select an answer for: {question}". */
  readonly selectAnswer: string;
  /** Free text too long: names the question and the limit (`{question}`, `{max}`). */
  readonly textTooLong: string;
  /** Free text: "Optional" hint. */
  readonly optional: string;
  /** Free text hint: "You can enter up to {max} characters". */
  readonly textLimit: string;
  readonly savedTitle: string;
  readonly savedBody: string;
  /** "You can come back until {end}." */
  readonly savedUntil: string;
  readonly savedNoEnd: string;
  readonly checkTitle: string;
  readonly checkIntro: string;
  readonly change: string;
  /** Visually hidden after "Change": "the answer to: {question}". */
  readonly changeHidden: string;
  readonly notAnswered: string;
  readonly confirmTitle: string;
  readonly confirmBody: string;
  readonly confirmAndSend: string;
  readonly doneTitle: string;
  readonly donePanel: string;
  readonly whatNext: string;
  readonly doneBody: string;
  readonly doneReportByMail: string;
  readonly doneReportLink: string;
  readonly doneNoReport: string;
  readonly unknownTitle: string;
  readonly unknownBody: string;
  readonly resetTitle: string;
  readonly resetBody: string;
  readonly removedTitle: string;
  readonly removedBody: string;
  readonly notOpenTitle: string;
  /** "This questionnaire opens on {start}." */
  readonly notOpenBody: string;
  readonly endedTitle: string;
  readonly endedBody: string;
  readonly reportNotReadyTitle: string;
  readonly reportNotReadyBody: string;
  /** The report link's page: the report is ready, a button opens it. */
  readonly reportTitle: string;
  readonly reportBody: string;
  readonly expiredTitle: string;
  readonly expiredBody: string;
  readonly tryAgain: string;
  readonly errorTitle: string;
  readonly errorBody: string;
}

const enUS: PageStrings = {
  htmlLang: 'en',
  locale: 'en-US',
  skipToContent: 'Skip to main content',
  back: 'Back',
  errorPrefix: 'Error: ',
  thereIsAProblem: 'There is a problem',
  errorHidden: 'Error:',
  pageOf: 'Page {page} of {pages}',
  start: 'Start now',
  startIntro:
    'Answer each statement as you are now, not as you would like to be. There are no right or wrong answers.',
  duration: 'It takes about {minutes} minutes.',
  resumeIntro: 'You have answered part of this questionnaire. Your answers are saved.',
  continueAnswering: 'Continue where you left off',
  saveAndContinue: 'Save and continue',
  saveAndComeBack: 'Save and come back later',
  selectAnswer: 'Select an answer for: {question}',
  textTooLong: 'Shorten your answer to “{question}” to {max} characters or fewer',
  optional: 'Optional',
  textLimit: 'You can enter up to {max} characters.',
  savedTitle: 'Your answers have been saved',
  savedBody:
    'Open the same link from your e-mail to carry on where you stopped. Nobody else can see your answers.',
  savedUntil: 'You can come back until {end}.',
  savedNoEnd: 'You can come back at any time while the questionnaire is open.',
  checkTitle: 'Check your answers before sending them',
  checkIntro: 'You can change any answer before you send the questionnaire.',
  change: 'Change',
  changeHidden: 'your answer to: {question}',
  notAnswered: 'Not answered',
  confirmTitle: 'Now send your answers',
  confirmBody: 'Once you send them, you cannot change your answers.',
  confirmAndSend: 'Confirm and send',
  doneTitle: 'Questionnaire complete',
  donePanel: 'Thank you: your answers have been sent.',
  whatNext: 'What happens next',
  doneBody:
    'Your answers are turned into a report. The organizer of this questionnaire can see your results.',
  doneReportByMail: 'We will also send you an e-mail with a link to your report.',
  doneReportLink: 'Open your report (PDF)',
  doneNoReport: 'The organizer decides who receives the report.',
  unknownTitle: 'This link does not work',
  unknownBody:
    'Check that you copied the whole link from your e-mail. If it still does not work, ask the person who invited you for a new link.',
  resetTitle: 'This link has been replaced',
  resetBody:
    'The organizer has restarted your questionnaire, so this link no longer works. Use the link in the most recent e-mail you received, or ask the organizer to send it again.',
  removedTitle: 'This link no longer works',
  removedBody:
    'You are no longer taking part in this questionnaire. If you think this is a mistake, contact the person who invited you.',
  notOpenTitle: 'This questionnaire is not open yet',
  notOpenBody: 'It opens on {start}. Come back then using the same link.',
  endedTitle: 'This questionnaire has closed',
  endedBody:
    'It is no longer possible to send answers. If you have questions, contact the person who invited you.',
  reportTitle: 'Your report',
  reportBody: 'Your report is ready. It opens as a PDF, which you can save or print.',
  reportNotReadyTitle: 'Your report is not ready yet',
  reportNotReadyBody:
    'The report is made when you send your answers. Open your questionnaire link to finish it first.',
  expiredTitle: 'Your page has expired',
  expiredBody: 'For your security the form could not be sent. Your earlier answers are saved.',
  tryAgain: 'Go back to the questionnaire',
  errorTitle: 'Sorry, there is a problem with the service',
  errorBody: 'Try again later. Your saved answers are safe.',
};

const nlNL: PageStrings = {
  htmlLang: 'nl',
  locale: 'nl-NL',
  skipToContent: 'Ga direct naar de inhoud',
  back: 'Terug',
  errorPrefix: 'Fout: ',
  thereIsAProblem: 'Er is een probleem',
  errorHidden: 'Fout:',
  pageOf: 'Pagina {page} van {pages}',
  start: 'Start nu',
  startIntro:
    'Geef bij elke uitspraak aan hoe je nu bent, niet hoe je zou willen zijn. Er zijn geen goede of foute antwoorden.',
  duration: 'Het invullen duurt ongeveer {minutes} minuten.',
  resumeIntro: 'Je hebt al een deel van deze vragenlijst ingevuld. Je antwoorden zijn opgeslagen.',
  continueAnswering: 'Ga verder waar je gebleven was',
  saveAndContinue: 'Opslaan en verder',
  saveAndComeBack: 'Opslaan en later verdergaan',
  selectAnswer: 'Kies een antwoord bij: {question}',
  textTooLong: 'Maak je antwoord op „{question}” korter: maximaal {max} tekens',
  optional: 'Niet verplicht',
  textLimit: 'Je kunt maximaal {max} tekens invullen.',
  savedTitle: 'Je antwoorden zijn opgeslagen',
  savedBody:
    'Open dezelfde link uit je e-mail om verder te gaan waar je gebleven was. Niemand anders kan je antwoorden zien.',
  savedUntil: 'Je kunt terugkomen tot {end}.',
  savedNoEnd: 'Je kunt op elk moment terugkomen zolang de vragenlijst open is.',
  checkTitle: 'Controleer je antwoorden voordat je ze verstuurt',
  checkIntro: 'Je kunt elk antwoord nog wijzigen voordat je de vragenlijst verstuurt.',
  change: 'Wijzig',
  changeHidden: 'je antwoord op: {question}',
  notAnswered: 'Niet beantwoord',
  confirmTitle: 'Verstuur nu je antwoorden',
  confirmBody: 'Als je je antwoorden hebt verstuurd, kun je ze niet meer wijzigen.',
  confirmAndSend: 'Bevestigen en versturen',
  doneTitle: 'Vragenlijst ingevuld',
  donePanel: 'Bedankt, je antwoorden zijn verstuurd.',
  whatNext: 'Wat gebeurt er nu?',
  doneBody:
    'Van je antwoorden maken we een rapport. De organisator van deze vragenlijst kan je resultaten zien.',
  doneReportByMail: 'Je krijgt ook een e-mail met een link naar je rapport.',
  doneReportLink: 'Open je rapport (pdf)',
  doneNoReport: 'De organisator bepaalt wie het rapport krijgt.',
  unknownTitle: 'Deze link werkt niet',
  unknownBody:
    'Controleer of je de hele link uit je e-mail hebt gekopieerd. Werkt de link nog steeds niet? Vraag dan de persoon die je heeft uitgenodigd om een nieuwe link.',
  resetTitle: 'Deze link is vervangen',
  resetBody:
    'De organisator heeft je vragenlijst opnieuw gestart. Daarom werkt deze link niet meer. Gebruik de link uit de laatste e-mail die je hebt gekregen, of vraag de organisator om de link opnieuw te sturen.',
  removedTitle: 'Deze link werkt niet meer',
  removedBody:
    'Je doet niet meer mee aan deze vragenlijst. Denk je dat dit niet klopt? Neem dan contact op met de persoon die je heeft uitgenodigd.',
  notOpenTitle: 'Deze vragenlijst is nog niet open',
  notOpenBody: 'De vragenlijst gaat open op {start}. Kom dan terug via dezelfde link.',
  endedTitle: 'Deze vragenlijst is gesloten',
  endedBody:
    'Je kunt geen antwoorden meer versturen. Heb je vragen? Neem dan contact op met de persoon die je heeft uitgenodigd.',
  reportTitle: 'Je rapport',
  reportBody: 'Je rapport is klaar. Het opent als pdf, die je kunt bewaren of afdrukken.',
  reportNotReadyTitle: 'Je rapport is nog niet klaar',
  reportNotReadyBody:
    'Het rapport wordt gemaakt zodra je je antwoorden verstuurt. Open eerst de link naar je vragenlijst en vul de vragenlijst af.',
  expiredTitle: 'Deze pagina is verlopen',
  expiredBody: 'Voor je veiligheid is het formulier niet verstuurd. Je eerdere antwoorden zijn opgeslagen.',
  tryAgain: 'Terug naar de vragenlijst',
  errorTitle: 'Sorry, er is een probleem met de dienst',
  errorBody: 'Probeer het later opnieuw. Je opgeslagen antwoorden zijn veilig.',
};

const esES: PageStrings = {
  htmlLang: 'es',
  locale: 'es-ES',
  skipToContent: 'Saltar al contenido principal',
  back: 'Volver',
  errorPrefix: 'Error: ',
  thereIsAProblem: 'Hay un problema',
  errorHidden: 'Error:',
  pageOf: 'Página {page} de {pages}',
  start: 'Empezar ahora',
  startIntro:
    'Responde a cada afirmación según cómo eres ahora, no como te gustaría ser. No hay respuestas correctas ni incorrectas.',
  duration: 'Responderlo lleva unos {minutes} minutos.',
  resumeIntro: 'Ya has respondido a una parte de este cuestionario. Tus respuestas están guardadas.',
  continueAnswering: 'Continuar donde lo dejaste',
  saveAndContinue: 'Guardar y continuar',
  saveAndComeBack: 'Guardar y volver más tarde',
  selectAnswer: 'Elige una respuesta para: {question}',
  textTooLong: 'Acorta tu respuesta a «{question}»: {max} caracteres como máximo',
  optional: 'Opcional',
  textLimit: 'Puedes escribir hasta {max} caracteres.',
  savedTitle: 'Tus respuestas se han guardado',
  savedBody:
    'Abre el mismo enlace de tu correo para continuar donde lo dejaste. Nadie más puede ver tus respuestas.',
  savedUntil: 'Puedes volver hasta el {end}.',
  savedNoEnd: 'Puedes volver cuando quieras mientras el cuestionario esté abierto.',
  checkTitle: 'Revisa tus respuestas antes de enviarlas',
  checkIntro: 'Puedes cambiar cualquier respuesta antes de enviar el cuestionario.',
  change: 'Cambiar',
  changeHidden: 'tu respuesta a: {question}',
  notAnswered: 'Sin responder',
  confirmTitle: 'Ahora envía tus respuestas',
  confirmBody: 'Cuando las envíes, ya no podrás cambiar tus respuestas.',
  confirmAndSend: 'Confirmar y enviar',
  doneTitle: 'Cuestionario completado',
  donePanel: 'Gracias, tus respuestas se han enviado.',
  whatNext: 'Qué pasa ahora',
  doneBody:
    'Con tus respuestas se elabora un informe. La persona que organiza este cuestionario puede ver tus resultados.',
  doneReportByMail: 'También te enviaremos un correo con un enlace a tu informe.',
  doneReportLink: 'Abrir tu informe (PDF)',
  doneNoReport: 'La persona que organiza el cuestionario decide quién recibe el informe.',
  unknownTitle: 'Este enlace no funciona',
  unknownBody:
    'Comprueba que has copiado el enlace completo de tu correo. Si sigue sin funcionar, pide un enlace nuevo a la persona que te invitó.',
  resetTitle: 'Este enlace se ha sustituido',
  resetBody:
    'Tu cuestionario se ha reiniciado, así que este enlace ya no funciona. Usa el enlace del correo más reciente que hayas recibido o pide a la persona que organiza el cuestionario que te lo vuelva a enviar.',
  removedTitle: 'Este enlace ya no funciona',
  removedBody:
    'Ya no participas en este cuestionario. Si crees que se trata de un error, ponte en contacto con la persona que te invitó.',
  notOpenTitle: 'Este cuestionario todavía no está abierto',
  notOpenBody: 'Se abre el {start}. Vuelve entonces con el mismo enlace.',
  endedTitle: 'Este cuestionario se ha cerrado',
  endedBody:
    'Ya no se pueden enviar respuestas. Si tienes alguna pregunta, ponte en contacto con la persona que te invitó.',
  reportTitle: 'Tu informe',
  reportBody: 'Tu informe está listo. Se abre como PDF, que puedes guardar o imprimir.',
  reportNotReadyTitle: 'Tu informe todavía no está listo',
  reportNotReadyBody:
    'El informe se crea cuando envías tus respuestas. Primero abre el enlace de tu cuestionario y termínalo.',
  expiredTitle: 'Esta página ha caducado',
  expiredBody:
    'Por tu seguridad, no se ha podido enviar el formulario. Tus respuestas anteriores están guardadas.',
  tryAgain: 'Volver al cuestionario',
  errorTitle: 'Lo sentimos, hay un problema con el servicio',
  errorBody: 'Inténtalo de nuevo más tarde. Tus respuestas guardadas están a salvo.',
};

// French typography puts a no-break space before ':' (\u00a0) and a narrow one before '?' (\u202f).
const frFR: PageStrings = {
  htmlLang: 'fr',
  locale: 'fr-FR',
  skipToContent: 'Aller au contenu principal',
  back: 'Retour',
  errorPrefix: 'Erreur\u00a0: ',
  thereIsAProblem: 'Il y a un problème',
  errorHidden: 'Erreur\u00a0:',
  pageOf: 'Page {page} sur {pages}',
  start: 'Commencer',
  startIntro:
    'Répondez à chaque affirmation selon ce que vous êtes aujourd’hui, et non selon ce que vous aimeriez être. Il n’y a ni bonnes ni mauvaises réponses.',
  duration: 'Comptez environ {minutes} minutes.',
  resumeIntro: 'Vous avez déjà répondu à une partie de ce questionnaire. Vos réponses sont enregistrées.',
  continueAnswering: 'Reprendre là où vous en étiez',
  saveAndContinue: 'Enregistrer et continuer',
  saveAndComeBack: 'Enregistrer et revenir plus tard',
  selectAnswer: 'Choisissez une réponse pour\u00a0: {question}',
  textTooLong: 'Raccourcissez votre réponse à «\u00a0{question}\u00a0»\u00a0: {max} caractères au maximum',
  optional: 'Facultatif',
  textLimit: 'Vous pouvez saisir jusqu’à {max} caractères.',
  savedTitle: 'Vos réponses ont été enregistrées',
  savedBody:
    'Ouvrez le même lien depuis votre e-mail pour reprendre là où vous en étiez. Personne d’autre ne peut voir vos réponses.',
  savedUntil: 'Vous pouvez revenir jusqu’au {end}.',
  savedNoEnd: 'Vous pouvez revenir à tout moment tant que le questionnaire est ouvert.',
  checkTitle: 'Vérifiez vos réponses avant de les envoyer',
  checkIntro: 'Vous pouvez modifier n’importe quelle réponse avant d’envoyer le questionnaire.',
  change: 'Modifier',
  changeHidden: 'votre réponse à\u00a0: {question}',
  notAnswered: 'Sans réponse',
  confirmTitle: 'Envoyez maintenant vos réponses',
  confirmBody: 'Une fois vos réponses envoyées, vous ne pourrez plus les modifier.',
  confirmAndSend: 'Confirmer et envoyer',
  doneTitle: 'Questionnaire terminé',
  donePanel: 'Merci, vos réponses ont été envoyées.',
  whatNext: 'Et maintenant\u202f?',
  doneBody:
    'Vos réponses servent à établir un rapport. L’organisateur de ce questionnaire peut voir vos résultats.',
  doneReportByMail: 'Nous vous enverrons aussi un e-mail avec un lien vers votre rapport.',
  doneReportLink: 'Ouvrir votre rapport (PDF)',
  doneNoReport: 'C’est l’organisateur qui décide qui reçoit le rapport.',
  unknownTitle: 'Ce lien ne fonctionne pas',
  unknownBody:
    'Vérifiez que vous avez copié le lien complet depuis votre e-mail. S’il ne fonctionne toujours pas, demandez un nouveau lien à la personne qui vous a envoyé l’invitation.',
  resetTitle: 'Ce lien a été remplacé',
  resetBody:
    'L’organisateur a réinitialisé votre questionnaire, ce lien ne fonctionne donc plus. Utilisez le lien du dernier e-mail que vous avez reçu, ou demandez à l’organisateur de vous le renvoyer.',
  removedTitle: 'Ce lien ne fonctionne plus',
  removedBody:
    'Vous ne participez plus à ce questionnaire. Si vous pensez qu’il s’agit d’une erreur, contactez la personne qui vous a envoyé l’invitation.',
  notOpenTitle: 'Ce questionnaire n’est pas encore ouvert',
  notOpenBody: 'Il s’ouvrira le {start}. Revenez à ce moment-là avec le même lien.',
  endedTitle: 'Ce questionnaire est clôturé',
  endedBody:
    'Il n’est plus possible d’envoyer des réponses. Pour toute question, contactez la personne qui vous a envoyé l’invitation.',
  reportTitle: 'Votre rapport',
  reportBody: 'Votre rapport est prêt. Il s’ouvre au format PDF, que vous pouvez enregistrer ou imprimer.',
  reportNotReadyTitle: 'Votre rapport n’est pas encore prêt',
  reportNotReadyBody:
    'Le rapport est établi quand vous envoyez vos réponses. Ouvrez d’abord le lien de votre questionnaire pour le terminer.',
  expiredTitle: 'Cette page a expiré',
  expiredBody:
    'Pour votre sécurité, le formulaire n’a pas pu être envoyé. Vos réponses précédentes sont enregistrées.',
  tryAgain: 'Revenir au questionnaire',
  errorTitle: 'Désolé, le service rencontre un problème',
  errorBody: 'Réessayez plus tard. Vos réponses enregistrées sont en sécurité.',
};

const STRINGS: Readonly<Record<Language, PageStrings>> = { enUS, nlNL, esES, frFR };

export function stringsFor(language: Language): PageStrings {
  return STRINGS[language];
}

/** Fills `{name}` placeholders; the result is text, escaped by the template like any other. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
