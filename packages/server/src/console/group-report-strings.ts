import type { Language } from '../variants/variant.types.js';

/** A choice on the form: its label and the rule it brings, said before it bites. */
interface Choice {
  readonly label: string;
  readonly hint: string;
}

/** The words of "Make a group report" (console/views/group-report.view.ts), in four languages. */
export interface GroupReportStrings {
  readonly make: string;
  readonly makeFromCampaign: string;
  readonly title: string;
  readonly intro: string;
  readonly typeLegend: string;
  readonly kinds: Readonly<Record<'group' | 'groupanon' | 'condensed' | 'complete' | '360', Choice>>;
  readonly sourceLegend: string;
  readonly sources: Readonly<Record<'campaign' | 'group' | 'reports', Choice>>;
  readonly campaignLabel: string;
  readonly groupLabel: string;
  readonly chooseOne: string;
  readonly variantLabel: string;
  readonly variantHint: string;
  readonly languageLabel: string;
  readonly languageDefault: string;
  readonly nameLabel: string;
  readonly nameHint: string;
  readonly continue: string;
  readonly typeRequired: string;
  readonly sourceRequired: string;
  readonly campaignRequired: string;
  readonly groupRequired: string;
  readonly variantRequired: string;
  /** "{max}" */
  readonly nameTooLong: string;
  readonly pickTitle: string;
  readonly pickIntro: string;
  readonly searchLabel: string;
  readonly search: string;
  /** "{count}" */
  readonly pickedCaption: string;
  readonly resultsCaption: string;
  readonly colChoose: string;
  readonly colSubject: string;
  readonly colDate: string;
  readonly colCampaign: string;
  /** "{name}" */
  readonly chooseReport: string;
  /** "{count}" */
  readonly onlyNewest: string;
  readonly noResults: string;
  readonly pickRequired: string;
  readonly useChosen: string;
  readonly checkTitle: string;
  readonly checkIntro: string;
  readonly rowType: string;
  readonly rowSource: string;
  readonly rowVariant: string;
  readonly rowLanguage: string;
  readonly rowName: string;
  readonly change: string;
  readonly defaultName: string;
  /** "{name}" */
  readonly sourceCampaign: string;
  /** "{name}" */
  readonly sourceGroup: string;
  /** "{count}" */
  readonly sourcePicked: string;
  readonly countTitle: string;
  /** "{count}" */
  readonly uses: string;
  /** "{name}", "{count}" */
  readonly usesSubject: string;
  readonly anonTitle: string;
  /** "{minimum}", "{count}" */
  readonly anonMet: string;
  /** "{minimum}", "{count}" */
  readonly anonNotMet: string;
  readonly anonWhy: string;
  readonly raterTitle: string;
  /** "{min}" */
  readonly raterRule: string;
  readonly colGroup: string;
  readonly colResponses: string;
  readonly colInReport: string;
  readonly shown: string;
  /** "{min}" */
  readonly leftOut: string;
  readonly noResponses: string;
  /** "{groups}" */
  readonly leftOutSummary: string;
  readonly nothingLeftOut: string;
  readonly problemTitle: string;
  readonly verbatimsTitle: string;
  /** "{max}" */
  readonly verbatimsIntro: string;
  readonly colLeaveOut: string;
  readonly colQuestion: string;
  readonly colAnswer: string;
  readonly colReason: string;
  /** "{n}" */
  readonly leaveOutLabel: string;
  /** "{n}" */
  readonly reasonLabel: string;
  readonly noVerbatims: string;
  /** "{count}", "{total}" */
  readonly onlyFirstVerbatims: string;
  readonly makeButton: string;
  readonly cannotMake: string;
  /** "{source}" */
  readonly emptySource: string;
  readonly noSubject360: string;
  /** "{count}" */
  readonly severalSubjects360: string;
  readonly draftGoneTitle: string;
  readonly draftGoneBody: string;
  readonly unknownCampaign: string;
  readonly unknownGroup: string;
  readonly made: string;
  readonly subjectLegend: string;
  readonly subjectHint: string;
  readonly subjectChoose: string;
  readonly leftOutTitle: string;
  /** "{report}", "{code}" */
  readonly leftOutAnswer: string;
  /** "{report}" */
  readonly leftOutReport: string;
}

const enUS: GroupReportStrings = {
  make: 'Make a group report',
  makeFromCampaign: 'Make a group report from this campaign',
  title: 'Make a group report',
  intro:
    'A group report puts personal reports of one questionnaire together. Nothing is made until you have checked what it would use.',
  typeLegend: 'Type of report',
  kinds: {
    group: { label: 'Group', hint: 'Shows the group’s results and who is where.' },
    groupanon: {
      label: 'Anonymous group',
      hint: 'Names no one and mixes the free-text answers. Needs at least 3 reports, or the campaign’s minimum number of participants when that is larger.',
    },
    condensed: { label: 'Condensed', hint: 'One page: a table of the group’s results.' },
    complete: { label: 'Complete', hint: 'The group report followed by each personal report.' },
    '360': {
      label: '360 feedback',
      hint: 'One subject’s own report and their raters’ reports. A rater group other than self and manager with fewer than 3 responses is left out, so that no one can be recognised.',
    },
  },
  sourceLegend: 'Which personal reports',
  sources: {
    campaign: { label: 'From a campaign', hint: 'Every personal report of the campaign.' },
    group: {
      label: 'From a group',
      hint: 'Every personal report of the questionnaire about the group’s own members (not its sub-groups).',
    },
    reports: { label: 'Hand-picked', hint: 'You choose the reports from a list on the next page.' },
  },
  campaignLabel: 'Campaign',
  groupLabel: 'Group',
  chooseOne: 'Choose one',
  variantLabel: 'Questionnaire',
  variantHint: 'For a group or hand-picked reports. A campaign’s report uses the campaign’s questionnaire.',
  languageLabel: 'Language of the report',
  languageDefault: 'The questionnaire’s default',
  nameLabel: 'Name (optional)',
  nameHint: 'Without a name, the report is named after the questionnaire and type.',
  continue: 'Continue',
  typeRequired: 'Choose the type of report',
  sourceRequired: 'Choose which personal reports to use',
  campaignRequired: 'Choose a campaign',
  groupRequired: 'Choose a group',
  variantRequired: 'Choose a questionnaire',
  nameTooLong: 'The name can have at most {max} characters',
  pickTitle: 'Choose the personal reports',
  pickIntro: 'Tick the reports to use, then continue. Search to find more; the ones you ticked stay chosen.',
  searchLabel: 'Search by the start of a first or last name',
  search: 'Search',
  pickedCaption: 'Chosen ({count})',
  resultsCaption: 'Personal reports of this questionnaire, newest first',
  colChoose: 'Use',
  colSubject: 'Person',
  colDate: 'Date',
  colCampaign: 'Campaign',
  chooseReport: 'Use the report of {name}',
  onlyNewest: 'Only the {count} newest are shown: search to narrow them down.',
  noResults: 'No personal reports match.',
  pickRequired: 'Choose at least one report',
  useChosen: 'Use the chosen reports',
  checkTitle: 'Check the group report',
  checkIntro: 'This is what the report would use. Nothing has been made yet.',
  rowType: 'Type',
  rowSource: 'Reports from',
  rowVariant: 'Questionnaire',
  rowLanguage: 'Language',
  rowName: 'Name',
  change: 'Change',
  defaultName: 'The questionnaire’s title',
  sourceCampaign: 'Campaign {name}',
  sourceGroup: 'Group {name}',
  sourcePicked: '{count} hand-picked reports',
  countTitle: 'Reports used',
  uses: 'It would use {count} personal reports.',
  usesSubject: 'It is about {name}: their own report and {count} raters’ reports.',
  anonTitle: 'Anonymity',
  anonMet: 'An anonymous report needs at least {minimum} reports. It has {count}: enough.',
  anonNotMet:
    'An anonymous report needs at least {minimum} reports. It has {count}, so it cannot be made: add reports or choose another type.',
  anonWhy: 'The minimum is 3, or the campaign’s minimum number of participants when that is larger.',
  raterTitle: 'Rater groups',
  raterRule:
    'Self and manager are shown from one response; every other rater group needs at least {min}, or it is left out of the charts, figures and comments.',
  colGroup: 'Rater group',
  colResponses: 'Responses',
  colInReport: 'In the report',
  shown: 'Shown',
  leftOut: 'Left out: fewer than {min} responses, so that no one can be recognised',
  noResponses: 'No responses',
  leftOutSummary: 'Left out of the report: {groups}.',
  nothingLeftOut: 'No rater group is left out.',
  problemTitle: 'This report cannot be made',
  verbatimsTitle: 'Free-text answers',
  verbatimsIntro:
    'Tick an answer to leave it out of the report, and say why (at most {max} characters); the reason is kept with the report.',
  colLeaveOut: 'Leave out',
  colQuestion: 'Question',
  colAnswer: 'Answer',
  colReason: 'Reason',
  leaveOutLabel: 'Leave out answer {n}',
  reasonLabel: 'Reason for leaving out answer {n}',
  noVerbatims: 'The chosen reports have no free-text answers.',
  onlyFirstVerbatims: 'Only the first {count} of {total} answers are shown.',
  makeButton: 'Make the report',
  cannotMake: 'Change the choices to make a report.',
  emptySource: 'There are no personal reports of this questionnaire in {source} yet.',
  noSubject360: 'A 360 report needs the subject’s own report (role self) among the reports.',
  severalSubjects360:
    'The reports hold {count} people’s own reports, and a 360 report is about one person: choose whose it is.',
  draftGoneTitle: 'Start the group report again',
  draftGoneBody: 'The choices for this report are gone (they are kept while you are signed in).',
  unknownCampaign: 'That campaign does not exist (any more)',
  unknownGroup: 'That group does not exist (any more)',
  made: 'The group report has been made.',
  leftOutTitle: 'Free-text answers left out',
  leftOutAnswer: 'Answer {code} of report {report}',
  leftOutReport: 'Every answer of report {report}',
  subjectLegend: 'Whose 360 report is it?',
  subjectHint:
    'The reports hold several people’s own reports. The report uses the one chosen and the reports of their raters.',
  subjectChoose: 'Use this person',
};

const nlNL: GroupReportStrings = {
  make: 'Groepsrapport maken',
  makeFromCampaign: 'Groepsrapport van deze campagne maken',
  title: 'Groepsrapport maken',
  intro:
    'Een groepsrapport voegt persoonlijke rapporten van één vragenlijst samen. Er wordt niets gemaakt voordat u hebt gecontroleerd wat het zou gebruiken.',
  typeLegend: 'Soort rapport',
  kinds: {
    group: { label: 'Groep', hint: 'Toont de resultaten van de groep en wie waar staat.' },
    groupanon: {
      label: 'Anonieme groep',
      hint: 'Noemt niemand en husselt de open antwoorden. Heeft minstens 3 rapporten nodig, of het minimumaantal deelnemers van de campagne als dat hoger is.',
    },
    condensed: { label: 'Beknopt', hint: 'Eén pagina: een tabel met de resultaten van de groep.' },
    complete: { label: 'Volledig', hint: 'Het groepsrapport, gevolgd door elk persoonlijk rapport.' },
    '360': {
      label: '360-feedback',
      hint: 'Het eigen rapport van één persoon en de rapporten van de beoordelaars. Een beoordelaarsgroep anders dan zelf en leidinggevende met minder dan 3 antwoorden wordt weggelaten, zodat niemand herkenbaar is.',
    },
  },
  sourceLegend: 'Welke persoonlijke rapporten',
  sources: {
    campaign: { label: 'Uit een campagne', hint: 'Elk persoonlijk rapport van de campagne.' },
    group: {
      label: 'Uit een groep',
      hint: 'Elk persoonlijk rapport van de vragenlijst over de eigen leden van de groep (niet de subgroepen).',
    },
    reports: { label: 'Zelf gekozen', hint: 'U kiest de rapporten op de volgende pagina uit een lijst.' },
  },
  campaignLabel: 'Campagne',
  groupLabel: 'Groep',
  chooseOne: 'Kies er een',
  variantLabel: 'Vragenlijst',
  variantHint:
    'Voor een groep of zelf gekozen rapporten. Een rapport van een campagne gebruikt de vragenlijst van de campagne.',
  languageLabel: 'Taal van het rapport',
  languageDefault: 'De standaardtaal van de vragenlijst',
  nameLabel: 'Naam (optioneel)',
  nameHint: 'Zonder naam krijgt het rapport de naam van de vragenlijst en de soort.',
  continue: 'Doorgaan',
  typeRequired: 'Kies de soort rapport',
  sourceRequired: 'Kies welke persoonlijke rapporten u wilt gebruiken',
  campaignRequired: 'Kies een campagne',
  groupRequired: 'Kies een groep',
  variantRequired: 'Kies een vragenlijst',
  nameTooLong: 'De naam mag hoogstens {max} tekens hebben',
  pickTitle: 'Kies de persoonlijke rapporten',
  pickIntro:
    'Vink de rapporten aan die u wilt gebruiken en ga door. Zoek om er meer te vinden; wat u aanvinkte blijft gekozen.',
  searchLabel: 'Zoek op het begin van een voor- of achternaam',
  search: 'Zoeken',
  pickedCaption: 'Gekozen ({count})',
  resultsCaption: 'Persoonlijke rapporten van deze vragenlijst, nieuwste eerst',
  colChoose: 'Gebruiken',
  colSubject: 'Persoon',
  colDate: 'Datum',
  colCampaign: 'Campagne',
  chooseReport: 'Het rapport van {name} gebruiken',
  onlyNewest: 'Alleen de {count} nieuwste worden getoond: zoek om ze te beperken.',
  noResults: 'Geen persoonlijke rapporten gevonden.',
  pickRequired: 'Kies minstens één rapport',
  useChosen: 'De gekozen rapporten gebruiken',
  checkTitle: 'Groepsrapport controleren',
  checkIntro: 'Dit zou het rapport gebruiken. Er is nog niets gemaakt.',
  rowType: 'Soort',
  rowSource: 'Rapporten uit',
  rowVariant: 'Vragenlijst',
  rowLanguage: 'Taal',
  rowName: 'Naam',
  change: 'Wijzigen',
  defaultName: 'De titel van de vragenlijst',
  sourceCampaign: 'Campagne {name}',
  sourceGroup: 'Groep {name}',
  sourcePicked: '{count} zelf gekozen rapporten',
  countTitle: 'Gebruikte rapporten',
  uses: 'Het zou {count} persoonlijke rapporten gebruiken.',
  usesSubject: 'Het gaat over {name}: het eigen rapport en {count} rapporten van beoordelaars.',
  anonTitle: 'Anonimiteit',
  anonMet: 'Een anoniem rapport heeft minstens {minimum} rapporten nodig. Het heeft er {count}: genoeg.',
  anonNotMet:
    'Een anoniem rapport heeft minstens {minimum} rapporten nodig. Het heeft er {count}, dus het kan niet worden gemaakt: voeg rapporten toe of kies een andere soort.',
  anonWhy: 'Het minimum is 3, of het minimumaantal deelnemers van de campagne als dat hoger is.',
  raterTitle: 'Beoordelaarsgroepen',
  raterRule:
    'Zelf en leidinggevende worden vanaf één antwoord getoond; elke andere beoordelaarsgroep heeft er minstens {min} nodig, anders wordt ze weggelaten uit de grafieken, cijfers en opmerkingen.',
  colGroup: 'Beoordelaarsgroep',
  colResponses: 'Antwoorden',
  colInReport: 'In het rapport',
  shown: 'Getoond',
  leftOut: 'Weggelaten: minder dan {min} antwoorden, zodat niemand herkenbaar is',
  noResponses: 'Geen antwoorden',
  leftOutSummary: 'Weggelaten uit het rapport: {groups}.',
  nothingLeftOut: 'Er wordt geen beoordelaarsgroep weggelaten.',
  problemTitle: 'Dit rapport kan niet worden gemaakt',
  verbatimsTitle: 'Open antwoorden',
  verbatimsIntro:
    'Vink een antwoord aan om het uit het rapport weg te laten en zeg waarom (hoogstens {max} tekens); de reden wordt bij het rapport bewaard.',
  colLeaveOut: 'Weglaten',
  colQuestion: 'Vraag',
  colAnswer: 'Antwoord',
  colReason: 'Reden',
  leaveOutLabel: 'Antwoord {n} weglaten',
  reasonLabel: 'Reden om antwoord {n} weg te laten',
  noVerbatims: 'De gekozen rapporten hebben geen open antwoorden.',
  onlyFirstVerbatims: 'Alleen de eerste {count} van {total} antwoorden worden getoond.',
  makeButton: 'Rapport maken',
  cannotMake: 'Wijzig de keuzes om een rapport te maken.',
  emptySource: 'Er zijn nog geen persoonlijke rapporten van deze vragenlijst in {source}.',
  noSubject360:
    'Een 360-rapport heeft het eigen rapport van de persoon (rol zelf) tussen de rapporten nodig.',
  severalSubjects360:
    'De rapporten bevatten de eigen rapporten van {count} personen, en een 360-rapport gaat over één persoon: kies over wie.',
  draftGoneTitle: 'Begin opnieuw aan het groepsrapport',
  draftGoneBody: 'De keuzes voor dit rapport zijn weg (ze worden bewaard zolang u bent aangemeld).',
  unknownCampaign: 'Die campagne bestaat niet (meer)',
  unknownGroup: 'Die groep bestaat niet (meer)',
  made: 'Het groepsrapport is gemaakt.',
  leftOutTitle: 'Weggelaten open antwoorden',
  leftOutAnswer: 'Antwoord {code} van rapport {report}',
  leftOutReport: 'Elk antwoord van rapport {report}',
  subjectLegend: 'Over wie gaat het 360-rapport?',
  subjectHint:
    'De rapporten bevatten de eigen rapporten van meerdere personen. Het rapport gebruikt de gekozen persoon en de rapporten van diens beoordelaars.',
  subjectChoose: 'Deze persoon gebruiken',
};

const esES: GroupReportStrings = {
  make: 'Crear un informe de grupo',
  makeFromCampaign: 'Crear un informe de grupo de esta campaña',
  title: 'Crear un informe de grupo',
  intro:
    'Un informe de grupo reúne informes personales de un mismo cuestionario. No se crea nada hasta que haya comprobado lo que usaría.',
  typeLegend: 'Tipo de informe',
  kinds: {
    group: { label: 'De grupo', hint: 'Muestra los resultados del grupo y quién está dónde.' },
    groupanon: {
      label: 'De grupo anónimo',
      hint: 'No nombra a nadie y mezcla las respuestas abiertas. Necesita al menos 3 informes, o el mínimo de participantes de la campaña si es mayor.',
    },
    condensed: { label: 'Resumido', hint: 'Una página: una tabla con los resultados del grupo.' },
    complete: { label: 'Completo', hint: 'El informe de grupo seguido de cada informe personal.' },
    '360': {
      label: 'Evaluación 360',
      hint: 'El informe propio de una persona y los de sus evaluadores. Un grupo de evaluadores distinto de la propia persona y del responsable con menos de 3 respuestas se omite, para que nadie pueda ser reconocido.',
    },
  },
  sourceLegend: 'Qué informes personales',
  sources: {
    campaign: { label: 'De una campaña', hint: 'Todos los informes personales de la campaña.' },
    group: {
      label: 'De un grupo',
      hint: 'Todos los informes personales del cuestionario sobre los miembros directos del grupo (no sus subgrupos).',
    },
    reports: { label: 'Elegidos a mano', hint: 'Elige los informes de una lista en la página siguiente.' },
  },
  campaignLabel: 'Campaña',
  groupLabel: 'Grupo',
  chooseOne: 'Elija uno',
  variantLabel: 'Cuestionario',
  variantHint:
    'Para un grupo o informes elegidos a mano. El informe de una campaña usa el cuestionario de la campaña.',
  languageLabel: 'Idioma del informe',
  languageDefault: 'El idioma predeterminado del cuestionario',
  nameLabel: 'Nombre (opcional)',
  nameHint: 'Sin nombre, el informe lleva el nombre del cuestionario y del tipo.',
  continue: 'Continuar',
  typeRequired: 'Elija el tipo de informe',
  sourceRequired: 'Elija qué informes personales usar',
  campaignRequired: 'Elija una campaña',
  groupRequired: 'Elija un grupo',
  variantRequired: 'Elija un cuestionario',
  nameTooLong: 'El nombre puede tener como máximo {max} caracteres',
  pickTitle: 'Elija los informes personales',
  pickIntro:
    'Marque los informes que quiere usar y continúe. Busque para encontrar más; los marcados siguen elegidos.',
  searchLabel: 'Buscar por el comienzo de un nombre o apellido',
  search: 'Buscar',
  pickedCaption: 'Elegidos ({count})',
  resultsCaption: 'Informes personales de este cuestionario, los más recientes primero',
  colChoose: 'Usar',
  colSubject: 'Persona',
  colDate: 'Fecha',
  colCampaign: 'Campaña',
  chooseReport: 'Usar el informe de {name}',
  onlyNewest: 'Solo se muestran los {count} más recientes: busque para acotar.',
  noResults: 'Ningún informe personal coincide.',
  pickRequired: 'Elija al menos un informe',
  useChosen: 'Usar los informes elegidos',
  checkTitle: 'Compruebe el informe de grupo',
  checkIntro: 'Esto es lo que usaría el informe. Todavía no se ha creado nada.',
  rowType: 'Tipo',
  rowSource: 'Informes de',
  rowVariant: 'Cuestionario',
  rowLanguage: 'Idioma',
  rowName: 'Nombre',
  change: 'Cambiar',
  defaultName: 'El título del cuestionario',
  sourceCampaign: 'Campaña {name}',
  sourceGroup: 'Grupo {name}',
  sourcePicked: '{count} informes elegidos a mano',
  countTitle: 'Informes usados',
  uses: 'Usaría {count} informes personales.',
  usesSubject: 'Trata sobre {name}: su propio informe y {count} informes de evaluadores.',
  anonTitle: 'Anonimato',
  anonMet: 'Un informe anónimo necesita al menos {minimum} informes. Tiene {count}: suficientes.',
  anonNotMet:
    'Un informe anónimo necesita al menos {minimum} informes. Tiene {count}, así que no se puede crear: añada informes o elija otro tipo.',
  anonWhy: 'El mínimo es 3, o el mínimo de participantes de la campaña si es mayor.',
  raterTitle: 'Grupos de evaluadores',
  raterRule:
    'La propia persona y el responsable se muestran desde una respuesta; cualquier otro grupo necesita al menos {min}, o se omite de los gráficos, las cifras y los comentarios.',
  colGroup: 'Grupo de evaluadores',
  colResponses: 'Respuestas',
  colInReport: 'En el informe',
  shown: 'Se muestra',
  leftOut: 'Se omite: menos de {min} respuestas, para que nadie pueda ser reconocido',
  noResponses: 'Sin respuestas',
  leftOutSummary: 'Se omiten del informe: {groups}.',
  nothingLeftOut: 'No se omite ningún grupo de evaluadores.',
  problemTitle: 'Este informe no se puede crear',
  verbatimsTitle: 'Respuestas abiertas',
  verbatimsIntro:
    'Marque una respuesta para omitirla del informe e indique por qué (como máximo {max} caracteres); el motivo se guarda con el informe.',
  colLeaveOut: 'Omitir',
  colQuestion: 'Pregunta',
  colAnswer: 'Respuesta',
  colReason: 'Motivo',
  leaveOutLabel: 'Omitir la respuesta {n}',
  reasonLabel: 'Motivo para omitir la respuesta {n}',
  noVerbatims: 'Los informes elegidos no tienen respuestas abiertas.',
  onlyFirstVerbatims: 'Solo se muestran las primeras {count} de {total} respuestas.',
  makeButton: 'Crear el informe',
  cannotMake: 'Cambie las opciones para crear un informe.',
  emptySource: 'Todavía no hay informes personales de este cuestionario en {source}.',
  noSubject360: 'Un informe 360 necesita entre los informes el de la propia persona (rol propio).',
  severalSubjects360:
    'Los informes contienen los informes propios de {count} personas, y un informe 360 trata sobre una sola persona: elija de quién es.',
  draftGoneTitle: 'Empiece de nuevo el informe de grupo',
  draftGoneBody: 'Las opciones de este informe ya no están (se guardan mientras tiene la sesión iniciada).',
  unknownCampaign: 'Esa campaña no existe (ya)',
  unknownGroup: 'Ese grupo no existe (ya)',
  made: 'Se ha creado el informe de grupo.',
  leftOutTitle: 'Respuestas abiertas omitidas',
  leftOutAnswer: 'Respuesta {code} del informe {report}',
  leftOutReport: 'Todas las respuestas del informe {report}',
  subjectLegend: '¿De quién es el informe 360?',
  subjectHint:
    'Los informes contienen los informes propios de varias personas. El informe usa la persona elegida y los informes de sus evaluadores.',
  subjectChoose: 'Usar esta persona',
};

const frFR: GroupReportStrings = {
  make: 'Créer un rapport de groupe',
  makeFromCampaign: 'Créer un rapport de groupe de cette campagne',
  title: 'Créer un rapport de groupe',
  intro:
    'Un rapport de groupe réunit des rapports personnels d’un même questionnaire. Rien n’est créé avant que vous ayez vérifié ce qu’il utiliserait.',
  typeLegend: 'Type de rapport',
  kinds: {
    group: { label: 'De groupe', hint: 'Montre les résultats du groupe et qui se situe où.' },
    groupanon: {
      label: 'De groupe anonyme',
      hint: 'Ne nomme personne et mélange les réponses libres. Demande au moins 3 rapports, ou le minimum de participants de la campagne s’il est plus élevé.',
    },
    condensed: { label: 'Condensé', hint: 'Une page : un tableau des résultats du groupe.' },
    complete: { label: 'Complet', hint: 'Le rapport de groupe suivi de chaque rapport personnel.' },
    '360': {
      label: 'Feedback 360',
      hint: 'Le rapport d’une personne sur elle-même et ceux de ses évaluateurs. Un groupe d’évaluateurs autre que la personne et son responsable avec moins de 3 réponses est écarté, afin que personne ne puisse être reconnu.',
    },
  },
  sourceLegend: 'Quels rapports personnels',
  sources: {
    campaign: { label: 'D’une campagne', hint: 'Tous les rapports personnels de la campagne.' },
    group: {
      label: 'D’un groupe',
      hint: 'Tous les rapports personnels du questionnaire sur les membres directs du groupe (pas ses sous-groupes).',
    },
    reports: {
      label: 'Choisis à la main',
      hint: 'Vous choisissez les rapports dans une liste à la page suivante.',
    },
  },
  campaignLabel: 'Campagne',
  groupLabel: 'Groupe',
  chooseOne: 'Choisissez',
  variantLabel: 'Questionnaire',
  variantHint:
    'Pour un groupe ou des rapports choisis à la main. Le rapport d’une campagne utilise le questionnaire de la campagne.',
  languageLabel: 'Langue du rapport',
  languageDefault: 'La langue par défaut du questionnaire',
  nameLabel: 'Nom (facultatif)',
  nameHint: 'Sans nom, le rapport porte le nom du questionnaire et du type.',
  continue: 'Continuer',
  typeRequired: 'Choisissez le type de rapport',
  sourceRequired: 'Choisissez quels rapports personnels utiliser',
  campaignRequired: 'Choisissez une campagne',
  groupRequired: 'Choisissez un groupe',
  variantRequired: 'Choisissez un questionnaire',
  nameTooLong: 'Le nom peut avoir au plus {max} caractères',
  pickTitle: 'Choisissez les rapports personnels',
  pickIntro:
    'Cochez les rapports à utiliser, puis continuez. Cherchez pour en trouver d’autres ; ceux cochés restent choisis.',
  searchLabel: 'Chercher par le début d’un prénom ou d’un nom',
  search: 'Chercher',
  pickedCaption: 'Choisis ({count})',
  resultsCaption: 'Rapports personnels de ce questionnaire, les plus récents d’abord',
  colChoose: 'Utiliser',
  colSubject: 'Personne',
  colDate: 'Date',
  colCampaign: 'Campagne',
  chooseReport: 'Utiliser le rapport de {name}',
  onlyNewest: 'Seuls les {count} plus récents sont affichés : cherchez pour affiner.',
  noResults: 'Aucun rapport personnel ne correspond.',
  pickRequired: 'Choisissez au moins un rapport',
  useChosen: 'Utiliser les rapports choisis',
  checkTitle: 'Vérifiez le rapport de groupe',
  checkIntro: 'Voici ce que le rapport utiliserait. Rien n’a encore été créé.',
  rowType: 'Type',
  rowSource: 'Rapports de',
  rowVariant: 'Questionnaire',
  rowLanguage: 'Langue',
  rowName: 'Nom',
  change: 'Modifier',
  defaultName: 'Le titre du questionnaire',
  sourceCampaign: 'Campagne {name}',
  sourceGroup: 'Groupe {name}',
  sourcePicked: '{count} rapports choisis à la main',
  countTitle: 'Rapports utilisés',
  uses: 'Il utiliserait {count} rapports personnels.',
  usesSubject: 'Il concerne {name} : son propre rapport et {count} rapports d’évaluateurs.',
  anonTitle: 'Anonymat',
  anonMet: 'Un rapport anonyme demande au moins {minimum} rapports. Il en a {count} : c’est suffisant.',
  anonNotMet:
    'Un rapport anonyme demande au moins {minimum} rapports. Il en a {count}, il ne peut donc pas être créé : ajoutez des rapports ou choisissez un autre type.',
  anonWhy: 'Le minimum est 3, ou le minimum de participants de la campagne s’il est plus élevé.',
  raterTitle: 'Groupes d’évaluateurs',
  raterRule:
    'La personne et son responsable sont affichés dès une réponse ; tout autre groupe d’évaluateurs en demande au moins {min}, sinon il est écarté des graphiques, des chiffres et des commentaires.',
  colGroup: 'Groupe d’évaluateurs',
  colResponses: 'Réponses',
  colInReport: 'Dans le rapport',
  shown: 'Affiché',
  leftOut: 'Écarté : moins de {min} réponses, afin que personne ne puisse être reconnu',
  noResponses: 'Aucune réponse',
  leftOutSummary: 'Écartés du rapport : {groups}.',
  nothingLeftOut: 'Aucun groupe d’évaluateurs n’est écarté.',
  problemTitle: 'Ce rapport ne peut pas être créé',
  verbatimsTitle: 'Réponses libres',
  verbatimsIntro:
    'Cochez une réponse pour l’écarter du rapport et dites pourquoi (au plus {max} caractères) ; la raison est conservée avec le rapport.',
  colLeaveOut: 'Écarter',
  colQuestion: 'Question',
  colAnswer: 'Réponse',
  colReason: 'Raison',
  leaveOutLabel: 'Écarter la réponse {n}',
  reasonLabel: 'Raison d’écarter la réponse {n}',
  noVerbatims: 'Les rapports choisis n’ont aucune réponse libre.',
  onlyFirstVerbatims: 'Seules les {count} premières réponses sur {total} sont affichées.',
  makeButton: 'Créer le rapport',
  cannotMake: 'Modifiez les choix pour créer un rapport.',
  emptySource: 'Il n’y a pas encore de rapport personnel de ce questionnaire dans {source}.',
  noSubject360: 'Un rapport 360 demande, parmi les rapports, celui de la personne sur elle-même (rôle soi).',
  severalSubjects360:
    'Les rapports contiennent les rapports de {count} personnes sur elles-mêmes, et un rapport 360 concerne une seule personne : choisissez laquelle.',
  draftGoneTitle: 'Recommencez le rapport de groupe',
  draftGoneBody: 'Les choix de ce rapport ont disparu (ils sont gardés tant que vous êtes connecté).',
  unknownCampaign: 'Cette campagne n’existe pas (ou plus)',
  unknownGroup: 'Ce groupe n’existe pas (ou plus)',
  made: 'Le rapport de groupe a été créé.',
  leftOutTitle: 'Réponses libres écartées',
  leftOutAnswer: 'Réponse {code} du rapport {report}',
  leftOutReport: 'Toutes les réponses du rapport {report}',
  subjectLegend: 'De qui est ce rapport 360 ?',
  subjectHint:
    'Les rapports contiennent les rapports de plusieurs personnes sur elles-mêmes. Le rapport utilise la personne choisie et les rapports de ses évaluateurs.',
  subjectChoose: 'Utiliser cette personne',
};

const BY_LANGUAGE: Readonly<Partial<Record<Language, GroupReportStrings>>> = { enUS, nlNL, esES, frFR };

export function groupReportStrings(language: Language): GroupReportStrings {
  return BY_LANGUAGE[language] ?? enUS;
}
