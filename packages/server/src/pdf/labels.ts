import type { Language } from '../variants/variant.types.js';

/**
 * The few structural words of a report that are not variant texts: every variant shares them, so
 * they live here rather than in each variant's text files. Anything about the instrument itself
 * (titles, headings, band names, interpretations) comes from the variant.
 */
export interface ReportLabels {
  /** The BCP 47 tag of the PDF's `/Lang`, and the locale of dates and numbers. */
  readonly locale: string;
  /** The report's language, named in that language (the cover says which language it is in). */
  readonly languageName: string;
  readonly howToRead: string;
  readonly scoreBands: string;
  readonly completed: string;
  readonly instrument: string;
  readonly language: string;
  readonly preparedBy: string;
  readonly reportId: string;
  readonly noScore: string;
  /** Opens the alternative text of a bar chart, before the list of "name: score (band)". */
  readonly chartAlt: string;
  /** `{page}` and `{pages}` are replaced. */
  readonly page: string;
}

const LABELS: Readonly<Record<Language, ReportLabels>> = {
  enUS: {
    locale: 'en-US',
    languageName: 'English',
    howToRead: 'How to read this report',
    scoreBands: 'Score bands',
    completed: 'Completed',
    instrument: 'Instrument',
    language: 'Language',
    preparedBy: 'Prepared by',
    reportId: 'Report ID',
    noScore: 'No answers',
    chartAlt: 'Bar chart of scores on a scale from 0 to 100',
    page: 'Page {page} of {pages}',
  },
  nlNL: {
    locale: 'nl-NL',
    languageName: 'Nederlands',
    howToRead: 'Zo lees je dit rapport',
    scoreBands: 'Scoreniveaus',
    completed: 'Ingevuld op',
    instrument: 'Instrument',
    language: 'Taal',
    preparedBy: 'Opgesteld door',
    reportId: 'Rapportnummer',
    noScore: 'Geen antwoorden',
    chartAlt: 'Staafdiagram van de scores op een schaal van 0 tot 100',
    page: 'Pagina {page} van {pages}',
  },
  esES: {
    locale: 'es-ES',
    languageName: 'Español',
    howToRead: 'Cómo leer este informe',
    scoreBands: 'Niveles de puntuación',
    completed: 'Fecha de realización',
    instrument: 'Instrumento',
    language: 'Idioma',
    preparedBy: 'Elaborado por',
    reportId: 'Identificador del informe',
    noScore: 'Sin respuestas',
    chartAlt: 'Gráfico de barras de las puntuaciones en una escala de 0 a 100',
    page: 'Página {page} de {pages}',
  },
  frFR: {
    locale: 'fr-FR',
    languageName: 'Français',
    howToRead: 'Comment lire ce rapport',
    scoreBands: 'Niveaux de score',
    completed: 'Date de passation',
    instrument: 'Questionnaire',
    language: 'Langue',
    preparedBy: 'Préparé par',
    reportId: 'Identifiant du rapport',
    noScore: 'Aucune réponse',
    chartAlt: 'Diagramme en barres des scores sur une échelle de 0 à 100',
    page: 'Page {page} sur {pages}',
  },
};

export function labelsFor(language: Language): ReportLabels {
  return LABELS[language];
}

/** The four rater roles a 360 names; a variant's own `role.<role>` text wins where it has one. */
export type FeedbackRole = 'self' | 'manager' | 'peer' | 'directreport';

/**
 * The structural words of the group-type reports (group, anonymous group, condensed, complete and
 * 360 feedback). `{...}` placeholders are replaced by the renderer.
 */
export interface GroupLabels {
  /** Between a label and its value: ": ", in French with the narrow space before the colon. */
  readonly colon: string;
  /** The cover's label of the report's date. */
  readonly date: string;
  readonly mean: string;
  readonly median: string;
  readonly range: string;
  readonly sd: string;
  readonly distribution: string;
  /** `{bands}` is the list of "Low 3 (30%)". */
  readonly perBand: string;
  readonly membersByScore: string;
  /** After a list's title where it runs on over a page. */
  readonly continued: string;
  readonly groupMean: string;
  readonly name: string;
  /** `{heading}` is the variant's facets heading. */
  readonly facetMeans: string;
  readonly howTo: string;
  readonly howToNamed: string;
  readonly anonymous: string;
  readonly spreadTight: string;
  readonly spreadWide: string;
  readonly overviewAlt: string;
  /** `{n}`: the number of scores. */
  readonly distributionAlt: string;
  readonly dotsNote: string;
  readonly barsNote: string;
  readonly bandsKey: string;
  readonly condensedNote: string;
  // 360 feedback
  readonly feedbackIntro: string;
  /** `{min}`: the smallest rater group shown. */
  readonly feedbackConfidential: string;
  readonly participation: string;
  readonly raterGroup: string;
  readonly responses: string;
  readonly inReport: string;
  readonly included: string;
  /** `{min}`. */
  readonly leftOut: string;
  readonly noResponses: string;
  /** `{groups}` and `{min}`. */
  readonly suppressedNote: string;
  readonly exemptNote: string;
  readonly allOthers: string;
  readonly other: string;
  readonly roles: Readonly<Record<FeedbackRole, string>>;
  readonly feedbackOverview: string;
  readonly gapsHeading: string;
  /** `{aligned}` and `{large}`: the thresholds in points. */
  readonly gapsIntro: string;
  readonly dimension: string;
  readonly gap: string;
  readonly reading: string;
  readonly aligned: string;
  readonly blindSpot: string;
  readonly hiddenStrength: string;
  readonly moderate: string;
  readonly large: string;
  readonly strengths: string;
  /** `{min}`. */
  readonly strengthsIntro: string;
  readonly development: string;
  /** `{max}`. */
  readonly developmentIntro: string;
  readonly noStrengths: string;
  readonly noDevelopment: string;
  readonly noOthers: string;
  readonly itemsHeading: string;
  readonly itemsIntro: string;
  readonly answerScale: string;
  readonly reverseKeyed: string;
  readonly n: string;
  readonly commentsIntro: string;
}

const GROUP_LABELS: Readonly<Record<Language, GroupLabels>> = {
  enUS: {
    colon: ': ',
    date: 'Date',
    mean: 'Mean',
    median: 'Median',
    range: 'Range',
    sd: 'Standard deviation',
    distribution: 'Distribution',
    perBand: 'Members per band: {bands}',
    membersByScore: 'Members by score',
    continued: 'continued',
    groupMean: 'Group mean',
    name: 'Name',
    facetMeans: '{heading}: group means',
    howTo:
      'For each dimension the report gives the group’s mean score, the median (the middle score), the range from the lowest to the highest score, the standard deviation and the number of members in each band. The distribution chart places every score on the same 0–100 scale as the overview, so that a wide spread or a tight cluster shows at a glance. Scores are not compared with a norm group.',
    howToNamed: 'Each dimension ends with its members listed by band, from the highest score to the lowest.',
    anonymous:
      'This report names no one. Written comments are shown in random order and without the name of the person who wrote them.',
    spreadTight: 'The scores lie close together: on this dimension the group is much alike.',
    spreadWide:
      'The scores are widely spread: members differ clearly on this dimension. Such differences can complement each other, and they can also cause friction that is worth talking about.',
    overviewAlt: 'Bar chart of the group means on a scale from 0 to 100',
    distributionAlt: 'Distribution of {n} scores on a scale from 0 to 100',
    dotsNote: 'Each dot is one member; the dark line marks the group mean.',
    barsNote:
      'Each bar counts the members whose score falls in that 5-point interval; the dark line marks the group mean.',
    bandsKey: 'Bands',
    condensedNote: 'Scores from 0 to 100, each followed by the letter of its band.',
    feedbackIntro:
      'This report sets your own view (Self) beside the views of the people who gave you feedback, grouped by how they work with you. Every score runs from 0 to 100: the average answer to the statements of a dimension, where 0 is the lowest and 100 the highest possible answer. Differences between how you see yourself and how others see you are often the most useful starting point for reflection.',
    feedbackConfidential:
      'Confidential. A rater group other than Self and Manager is shown only when at least {min} people in it responded, so that no one’s answers can be singled out. A group with fewer responses is left out of every chart, number and comment.',
    participation: 'Participation',
    raterGroup: 'Rater group',
    responses: 'Responses',
    inReport: 'In this report',
    included: 'Included',
    leftOut: 'Left out: fewer than {min} responses',
    noResponses: 'No responses',
    suppressedNote:
      '{groups}: left out of this report because fewer than {min} responses were received. These answers are not part of any chart, number, strength, development area or comment, nor of the mean of all others.',
    exemptNote: 'Self and Manager are shown even with a single response.',
    allOthers: 'All others',
    other: 'Other',
    roles: { self: 'Self', manager: 'Manager', peer: 'Peer', directreport: 'Direct report' },
    feedbackOverview:
      'For each dimension: your own score, the mean of each rater group and the mean of all others together.',
    gapsHeading: 'Perception gaps',
    gapsIntro:
      'The gap is your own score minus the mean of all others, in points on the 0–100 scale. A gap smaller than {aligned} points (half a step on a five-point answer scale) counts as aligned; from {large} points (a full step) the gap is large. A blind spot is a dimension you rate higher than others do; a hidden strength is one that others rate higher than you do.',
    dimension: 'Dimension',
    gap: 'Gap',
    reading: 'Reading',
    aligned: 'Aligned',
    blindSpot: 'Blind spot',
    hiddenStrength: 'Hidden strength',
    moderate: 'moderate',
    large: 'large',
    strengths: 'Strengths',
    strengthsIntro:
      'Dimensions that all others together rate at {min} or higher (an average answer of 4 or more on a five-point scale).',
    development: 'Development areas',
    developmentIntro:
      'Dimensions that all others together rate below {max} (an average answer below 3 on a five-point scale).',
    noStrengths: 'No dimension reaches this level.',
    noDevelopment: 'No dimension falls below this level.',
    noOthers: 'No rater group other than Self can be shown, so there is nothing to compare with.',
    itemsHeading: 'Item detail',
    itemsIntro:
      'Per statement and rater group: the number of answers (n), the mean answer and how many people chose each point of the answer scale. Answers are shown as given: for a statement marked “reverse-keyed” a lower answer is the more favourable one.',
    answerScale: 'Answer scale',
    reverseKeyed: 'reverse-keyed',
    n: 'n',
    commentsIntro: 'Written comments per rater group, in random order and without names.',
  },
  nlNL: {
    colon: ': ',
    date: 'Datum',
    mean: 'Gemiddelde',
    median: 'Mediaan',
    range: 'Bereik',
    sd: 'Standaardafwijking',
    distribution: 'Verdeling',
    perBand: 'Deelnemers per niveau: {bands}',
    membersByScore: 'Deelnemers naar score',
    continued: 'vervolg',
    groupMean: 'Groepsgemiddelde',
    name: 'Naam',
    facetMeans: '{heading}: groepsgemiddelden',
    howTo:
      'Per dimensie geeft het rapport de gemiddelde score van de groep, de mediaan (de middelste score), de spreiding van de laagste tot de hoogste score, de standaardafwijking en het aantal deelnemers per niveau. De verdeling zet elke score op dezelfde schaal van 0 tot 100 als het overzicht, zodat je in één oogopslag ziet of de scores ver uiteenlopen of dicht bij elkaar liggen. De scores worden niet vergeleken met een normgroep.',
    howToNamed: 'Elke dimensie sluit af met de deelnemers per niveau, van de hoogste naar de laagste score.',
    anonymous:
      'Dit rapport noemt geen namen. Geschreven opmerkingen staan in willekeurige volgorde en zonder de naam van de schrijver.',
    spreadTight: 'De scores liggen dicht bij elkaar: op deze dimensie lijkt de groep sterk op elkaar.',
    spreadWide:
      'De scores lopen ver uiteen: de deelnemers verschillen duidelijk op deze dimensie. Zulke verschillen kunnen elkaar aanvullen, maar ook wrijving geven waar het goed is om over te praten.',
    overviewAlt: 'Staafdiagram van de groepsgemiddelden op een schaal van 0 tot 100',
    distributionAlt: 'Verdeling van {n} scores op een schaal van 0 tot 100',
    dotsNote: 'Elke stip is één deelnemer; de donkere lijn geeft het groepsgemiddelde aan.',
    barsNote:
      'Elke staaf telt de deelnemers met een score in dat interval van 5 punten; de donkere lijn geeft het groepsgemiddelde aan.',
    bandsKey: 'Niveaus',
    condensedNote: 'Scores van 0 tot 100, elk gevolgd door de letter van het niveau.',
    feedbackIntro:
      'Dit rapport zet je eigen beeld (Zelf) naast het beeld van de mensen die je feedback gaven, ingedeeld naar hoe zij met je samenwerken. Elke score loopt van 0 tot 100: het gemiddelde antwoord op de uitspraken van een dimensie, waarbij 0 het laagste en 100 het hoogste mogelijke antwoord is. Verschillen tussen hoe je jezelf ziet en hoe anderen je zien, zijn vaak het nuttigste vertrekpunt voor reflectie.',
    feedbackConfidential:
      'Vertrouwelijk. Een beoordelaarsgroep anders dan Zelf en Leidinggevende wordt alleen getoond als minstens {min} mensen uit die groep hebben gereageerd, zodat niemands antwoorden te herleiden zijn. Een groep met minder reacties blijft buiten elke grafiek, elk getal en elke opmerking.',
    participation: 'Deelname',
    raterGroup: 'Beoordelaarsgroep',
    responses: 'Reacties',
    inReport: 'In dit rapport',
    included: 'Opgenomen',
    leftOut: 'Weggelaten: minder dan {min} reacties',
    noResponses: 'Geen reacties',
    suppressedNote:
      '{groups}: weggelaten uit dit rapport omdat er minder dan {min} reacties zijn ontvangen. Deze antwoorden tellen niet mee in grafieken, getallen, sterke punten, ontwikkelpunten of opmerkingen, en ook niet in het gemiddelde van alle anderen.',
    exemptNote: 'Zelf en Leidinggevende worden ook bij één reactie getoond.',
    allOthers: 'Alle anderen',
    other: 'Overig',
    roles: { self: 'Zelf', manager: 'Leidinggevende', peer: 'Collega', directreport: 'Medewerker' },
    feedbackOverview:
      'Per dimensie: je eigen score, het gemiddelde van elke beoordelaarsgroep en het gemiddelde van alle anderen samen.',
    gapsHeading: 'Verschillen in beeld',
    gapsIntro:
      'Het verschil is je eigen score min het gemiddelde van alle anderen, in punten op de schaal van 0 tot 100. Een verschil kleiner dan {aligned} punten (een halve stap op een vijfpuntsschaal) geldt als overeenstemming; vanaf {large} punten (een hele stap) is het verschil groot. Een blinde vlek is een dimensie waarop je jezelf hoger inschat dan anderen doen; een verborgen kracht is een dimensie waarop anderen je hoger inschatten dan jijzelf.',
    dimension: 'Dimensie',
    gap: 'Verschil',
    reading: 'Duiding',
    aligned: 'Overeenstemming',
    blindSpot: 'Blinde vlek',
    hiddenStrength: 'Verborgen kracht',
    moderate: 'matig',
    large: 'groot',
    strengths: 'Sterke punten',
    strengthsIntro:
      'Dimensies die alle anderen samen met {min} of hoger beoordelen (een gemiddeld antwoord van 4 of meer op een vijfpuntsschaal).',
    development: 'Ontwikkelpunten',
    developmentIntro:
      'Dimensies die alle anderen samen lager dan {max} beoordelen (een gemiddeld antwoord onder 3 op een vijfpuntsschaal).',
    noStrengths: 'Geen enkele dimensie bereikt dit niveau.',
    noDevelopment: 'Geen enkele dimensie komt onder dit niveau.',
    noOthers:
      'Er kan geen andere beoordelaarsgroep dan Zelf worden getoond, dus er is niets om mee te vergelijken.',
    itemsHeading: 'Resultaten per uitspraak',
    itemsIntro:
      'Per uitspraak en beoordelaarsgroep: het aantal antwoorden (n), het gemiddelde antwoord en hoe vaak elk punt van de antwoordschaal is gekozen. De antwoorden staan zoals ze zijn gegeven: bij een uitspraak met de aanduiding „omgekeerd gescoord” is een lager antwoord het gunstigere.',
    answerScale: 'Antwoordschaal',
    reverseKeyed: 'omgekeerd gescoord',
    n: 'n',
    commentsIntro: 'Geschreven opmerkingen per beoordelaarsgroep, in willekeurige volgorde en zonder namen.',
  },
  esES: {
    colon: ': ',
    date: 'Fecha',
    mean: 'Media',
    median: 'Mediana',
    range: 'Rango',
    sd: 'Desviación típica',
    distribution: 'Distribución',
    perBand: 'Participantes por nivel: {bands}',
    membersByScore: 'Participantes por puntuación',
    continued: 'continuación',
    groupMean: 'Media del grupo',
    name: 'Nombre',
    facetMeans: '{heading}: medias del grupo',
    howTo:
      'Para cada dimensión, el informe muestra la puntuación media del grupo, la mediana (la puntuación central), el rango entre la puntuación más baja y la más alta, la desviación típica y el número de participantes en cada nivel. El gráfico de distribución sitúa cada puntuación en la misma escala de 0 a 100 que el resumen, de modo que se ve a simple vista si las puntuaciones están muy dispersas o muy agrupadas. Las puntuaciones no se comparan con un grupo normativo.',
    howToNamed:
      'Cada dimensión termina con los participantes por nivel, de la puntuación más alta a la más baja.',
    anonymous:
      'Este informe no nombra a nadie. Los comentarios escritos aparecen en orden aleatorio y sin el nombre de quien los escribió.',
    spreadTight: 'Las puntuaciones están muy próximas: en esta dimensión el grupo es muy homogéneo.',
    spreadWide:
      'Las puntuaciones están muy dispersas: los participantes difieren claramente en esta dimensión. Esas diferencias pueden complementarse y también generar roces de los que conviene hablar.',
    overviewAlt: 'Gráfico de barras de las medias del grupo en una escala de 0 a 100',
    distributionAlt: 'Distribución de {n} puntuaciones en una escala de 0 a 100',
    dotsNote: 'Cada punto es un participante; la línea oscura marca la media del grupo.',
    barsNote:
      'Cada barra cuenta los participantes cuya puntuación cae en ese intervalo de 5 puntos; la línea oscura marca la media del grupo.',
    bandsKey: 'Niveles',
    condensedNote: 'Puntuaciones de 0 a 100, cada una seguida de la letra de su nivel.',
    feedbackIntro:
      'Este informe pone su propia visión (Autoevaluación) junto a la de las personas que le dieron su opinión, agrupadas según su relación de trabajo con usted. Cada puntuación va de 0 a 100: la respuesta media a las afirmaciones de una dimensión, donde 0 es la respuesta más baja posible y 100 la más alta. Las diferencias entre cómo se ve usted y cómo le ven los demás suelen ser el punto de partida más útil para la reflexión.',
    feedbackConfidential:
      'Confidencial. Un grupo de evaluadores distinto de la autoevaluación y del responsable solo se muestra cuando han respondido al menos {min} personas de ese grupo, para que no se puedan identificar las respuestas de nadie. Un grupo con menos respuestas queda fuera de todos los gráficos, cifras y comentarios.',
    participation: 'Participación',
    raterGroup: 'Grupo de evaluadores',
    responses: 'Respuestas',
    inReport: 'En este informe',
    included: 'Incluido',
    leftOut: 'Excluido: menos de {min} respuestas',
    noResponses: 'Sin respuestas',
    suppressedNote:
      '{groups}: excluido de este informe porque se recibieron menos de {min} respuestas. Esas respuestas no forman parte de ningún gráfico, cifra, fortaleza, área de desarrollo ni comentario, ni tampoco de la media de todos los demás.',
    exemptNote: 'La autoevaluación y el responsable se muestran incluso con una sola respuesta.',
    allOthers: 'Todos los demás',
    other: 'Otros',
    roles: {
      self: 'Autoevaluación',
      manager: 'Responsable',
      peer: 'Compañero/a',
      directreport: 'Colaborador/a directo/a',
    },
    feedbackOverview:
      'Para cada dimensión: su propia puntuación, la media de cada grupo de evaluadores y la media de todos los demás en conjunto.',
    gapsHeading: 'Diferencias de percepción',
    gapsIntro:
      'La diferencia es su propia puntuación menos la media de todos los demás, en puntos de la escala de 0 a 100. Una diferencia menor de {aligned} puntos (medio paso en una escala de respuesta de cinco puntos) se considera alineada; a partir de {large} puntos (un paso completo) la diferencia es grande. Un punto ciego es una dimensión en la que usted se valora más alto que los demás; una fortaleza oculta, una en la que los demás le valoran más alto que usted.',
    dimension: 'Dimensión',
    gap: 'Diferencia',
    reading: 'Lectura',
    aligned: 'Alineado',
    blindSpot: 'Punto ciego',
    hiddenStrength: 'Fortaleza oculta',
    moderate: 'moderada',
    large: 'grande',
    strengths: 'Fortalezas',
    strengthsIntro:
      'Dimensiones que todos los demás en conjunto valoran con {min} o más (una respuesta media de 4 o más en una escala de cinco puntos).',
    development: 'Áreas de desarrollo',
    developmentIntro:
      'Dimensiones que todos los demás en conjunto valoran por debajo de {max} (una respuesta media inferior a 3 en una escala de cinco puntos).',
    noStrengths: 'Ninguna dimensión alcanza este nivel.',
    noDevelopment: 'Ninguna dimensión queda por debajo de este nivel.',
    noOthers:
      'No se puede mostrar ningún grupo de evaluadores aparte de la autoevaluación, por lo que no hay nada con qué comparar.',
    itemsHeading: 'Detalle por afirmación',
    itemsIntro:
      'Por afirmación y grupo de evaluadores: el número de respuestas (n), la respuesta media y cuántas personas eligieron cada punto de la escala de respuesta. Las respuestas se muestran tal como se dieron: en una afirmación marcada como «puntuación inversa», una respuesta más baja es la más favorable.',
    answerScale: 'Escala de respuesta',
    reverseKeyed: 'puntuación inversa',
    n: 'n',
    commentsIntro: 'Comentarios escritos por grupo de evaluadores, en orden aleatorio y sin nombres.',
  },
  frFR: {
    colon: '\u202f: ',
    date: 'Date',
    mean: 'Moyenne',
    median: 'Médiane',
    range: 'Étendue',
    sd: 'Écart type',
    distribution: 'Répartition',
    perBand: 'Participants par niveau : {bands}',
    membersByScore: 'Participants par score',
    continued: 'suite',
    groupMean: 'Moyenne du groupe',
    name: 'Nom',
    facetMeans: '{heading} : moyennes du groupe',
    howTo:
      'Pour chaque dimension, le rapport indique le score moyen du groupe, la médiane (le score du milieu), l’étendue du score le plus bas au plus élevé, l’écart type et le nombre de participants dans chaque niveau. Le graphique de répartition place chaque score sur la même échelle de 0 à 100 que la vue d’ensemble : on voit d’un coup d’œil si les scores sont dispersés ou resserrés. Les scores ne sont pas comparés à un groupe de référence.',
    howToNamed:
      'Chaque dimension se termine par la liste des participants par niveau, du score le plus élevé au plus bas.',
    anonymous:
      'Ce rapport ne nomme personne. Les commentaires écrits apparaissent dans un ordre aléatoire et sans le nom de leur auteur.',
    spreadTight: 'Les scores sont resserrés : sur cette dimension, le groupe est très homogène.',
    spreadWide:
      'Les scores sont très dispersés : les participants diffèrent nettement sur cette dimension. Ces différences peuvent se compléter, mais aussi créer des frictions dont il vaut la peine de parler.',
    overviewAlt: 'Diagramme en barres des moyennes du groupe sur une échelle de 0 à 100',
    distributionAlt: 'Répartition de {n} scores sur une échelle de 0 à 100',
    dotsNote: 'Chaque point est un participant ; la ligne foncée indique la moyenne du groupe.',
    barsNote:
      'Chaque barre compte les participants dont le score se situe dans cet intervalle de 5 points ; la ligne foncée indique la moyenne du groupe.',
    bandsKey: 'Niveaux',
    condensedNote: 'Scores de 0 à 100, chacun suivi de la lettre de son niveau.',
    feedbackIntro:
      'Ce rapport place votre propre regard (Auto-évaluation) à côté de celui des personnes qui vous ont fait un retour, regroupées selon leur relation de travail avec vous. Chaque score va de 0 à 100 : la réponse moyenne aux affirmations d’une dimension, 0 étant la réponse la plus basse possible et 100 la plus élevée. Les écarts entre la façon dont vous vous voyez et celle dont les autres vous voient sont souvent le point de départ le plus utile pour la réflexion.',
    feedbackConfidential:
      'Confidentiel. Un groupe d’évaluateurs autre que l’auto-évaluation et le responsable n’est présenté que si au moins {min} personnes de ce groupe ont répondu, afin que les réponses de chacun restent impossibles à isoler. Un groupe ayant moins de réponses est exclu de tous les graphiques, chiffres et commentaires.',
    participation: 'Participation',
    raterGroup: 'Groupe d’évaluateurs',
    responses: 'Réponses',
    inReport: 'Dans ce rapport',
    included: 'Inclus',
    leftOut: 'Exclu : moins de {min} réponses',
    noResponses: 'Aucune réponse',
    suppressedNote:
      '{groups} : exclu de ce rapport car moins de {min} réponses ont été reçues. Ces réponses ne figurent dans aucun graphique, chiffre, point fort, axe de développement ou commentaire, ni dans la moyenne de tous les autres.',
    exemptNote: 'L’auto-évaluation et le responsable sont présentés même avec une seule réponse.',
    allOthers: 'Tous les autres',
    other: 'Autre',
    roles: {
      self: 'Auto-évaluation',
      manager: 'Responsable',
      peer: 'Pair',
      directreport: 'Collaborateur direct',
    },
    feedbackOverview:
      'Pour chaque dimension : votre propre score, la moyenne de chaque groupe d’évaluateurs et la moyenne de tous les autres ensemble.',
    gapsHeading: 'Écarts de perception',
    gapsIntro:
      'L’écart est votre propre score moins la moyenne de tous les autres, en points sur l’échelle de 0 à 100. Un écart inférieur à {aligned} points (un demi-pas sur une échelle de réponse en cinq points) est considéré comme aligné ; à partir de {large} points (un pas entier), l’écart est important. Un angle mort est une dimension sur laquelle vous vous évaluez plus haut que les autres ; une force cachée, une dimension sur laquelle les autres vous évaluent plus haut que vous-même.',
    dimension: 'Dimension',
    gap: 'Écart',
    reading: 'Lecture',
    aligned: 'Aligné',
    blindSpot: 'Angle mort',
    hiddenStrength: 'Force cachée',
    moderate: 'modéré',
    large: 'important',
    strengths: 'Points forts',
    strengthsIntro:
      'Dimensions que tous les autres ensemble évaluent à {min} ou plus (une réponse moyenne de 4 ou plus sur une échelle en cinq points).',
    development: 'Axes de développement',
    developmentIntro:
      'Dimensions que tous les autres ensemble évaluent en dessous de {max} (une réponse moyenne inférieure à 3 sur une échelle en cinq points).',
    noStrengths: 'Aucune dimension n’atteint ce niveau.',
    noDevelopment: 'Aucune dimension ne descend sous ce niveau.',
    noOthers:
      'Aucun groupe d’évaluateurs autre que l’auto-évaluation ne peut être présenté : il n’y a donc rien à comparer.',
    itemsHeading: 'Détail par affirmation',
    itemsIntro:
      'Par affirmation et par groupe d’évaluateurs : le nombre de réponses (n), la réponse moyenne et le nombre de personnes ayant choisi chaque point de l’échelle de réponse. Les réponses sont présentées telles quelles : pour une affirmation marquée « score inversé », une réponse plus basse est la plus favorable.',
    answerScale: 'Échelle de réponse',
    reverseKeyed: 'score inversé',
    n: 'n',
    commentsIntro: 'Commentaires écrits par groupe d’évaluateurs, dans un ordre aléatoire et sans noms.',
  },
};

export function groupLabelsFor(language: Language): GroupLabels {
  return GROUP_LABELS[language];
}
