import type { Language } from '../variants/variant.types.js';

/** The words of a campaign's retention (its row on the campaign page and its form), in four languages. */
export interface RetentionStrings {
  readonly label: string;
  /** The campaign's own retention: "{days} days (this campaign)". */
  readonly own: string;
  /** The instance's, which the campaign follows: "{days} days (the instance's)". */
  readonly instance: string;
  readonly kept: string;
  /** The form's hint when the instance has a retention of `{days}` days. */
  readonly hintShorter: string;
  /** The form's hint when the instance keeps everything. */
  readonly hintKept: string;
}

const enUS: RetentionStrings = {
  label: 'Retention of answers and reports',
  own: '{days} days (this campaign)',
  instance: '{days} days (the instance)',
  kept: 'Kept until deleted',
  hintShorter:
    'After how many days the answers and personal reports of this campaign are erased, counted from completion. Fewer than the instance’s {days}; leave empty to follow the instance.',
  hintKept:
    'After how many days the answers and personal reports of this campaign are erased, counted from completion. Leave empty to keep them until deleted.',
};

const nlNL: RetentionStrings = {
  label: 'Bewaartermijn van antwoorden en rapporten',
  own: '{days} dagen (deze campagne)',
  instance: '{days} dagen (de installatie)',
  kept: 'Bewaard tot ze worden verwijderd',
  hintShorter:
    'Na hoeveel dagen de antwoorden en persoonlijke rapporten van deze campagne worden gewist, gerekend vanaf het afronden. Minder dan de {days} van de installatie; laat leeg om de installatie te volgen.',
  hintKept:
    'Na hoeveel dagen de antwoorden en persoonlijke rapporten van deze campagne worden gewist, gerekend vanaf het afronden. Laat leeg om ze te bewaren tot ze worden verwijderd.',
};

const esES: RetentionStrings = {
  label: 'Conservación de respuestas e informes',
  own: '{days} días (esta campaña)',
  instance: '{days} días (la instalación)',
  kept: 'Se conservan hasta que se eliminen',
  hintShorter:
    'Tras cuántos días se borran las respuestas y los informes personales de esta campaña, contados desde que se completan. Menos que los {days} de la instalación; déjelo vacío para seguir a la instalación.',
  hintKept:
    'Tras cuántos días se borran las respuestas y los informes personales de esta campaña, contados desde que se completan. Déjelo vacío para conservarlos hasta que se eliminen.',
};

const frFR: RetentionStrings = {
  label: 'Conservation des réponses et des rapports',
  own: '{days} jours (cette campagne)',
  instance: '{days} jours (l’instance)',
  kept: 'Conservés jusqu’à leur suppression',
  hintShorter:
    'Après combien de jours les réponses et les rapports personnels de cette campagne sont effacés, comptés depuis la fin du questionnaire. Moins que les {days} de l’instance ; laissez vide pour suivre l’instance.',
  hintKept:
    'Après combien de jours les réponses et les rapports personnels de cette campagne sont effacés, comptés depuis la fin du questionnaire. Laissez vide pour les conserver jusqu’à leur suppression.',
};

const BY_LANGUAGE: Readonly<Record<Language, RetentionStrings>> = { enUS, nlNL, esES, frFR };

export function retentionStrings(language: Language): RetentionStrings {
  return BY_LANGUAGE[language] ?? enUS;
}
