// Every string the UI shows, in every language it speaks. Components never
// hold text of their own: they call t(key, params) from state/locale.svelte.ts.
// Messages use {name} placeholders; a message with one/other forms is chosen
// by Intl.PluralRules on params.count.

export const LANGS = ['en', 'fr'] as const;
export type Lang = (typeof LANGS)[number];

export type Plural = { one: string; other: string };
export type Message = string | Plural;
export type Params = Record<string, string | number>;

const en = {
  'app.title': 'Vika',

  'library.title': 'Library',
  'library.add': 'Add PDFs…',
  'library.inputLabel': 'Choose PDF files to add',
  'library.emptyTitle': 'Drop lecture notes, papers or slides here…',
  'library.emptyBody': 'PDF files are read on this computer. Then ask a question about them.',
  'library.dropMore': 'or drop them anywhere in this window',
  'library.dropActive': 'Release to add',
  'library.inProgress': 'Adding',
  'library.documents': 'Documents',

  'doc.pages': { one: '{count} page', other: '{count} pages' },
  'doc.chunks': { one: '{count} passage', other: '{count} passages' },
  'doc.remove': 'Remove {name}',
  'doc.langUnknown': 'language unknown',
  'doc.langMixed': 'several languages',
  'doc.ocrPages': { one: '{count} page read by OCR', other: '{count} pages read by OCR' },
  'doc.failedPages': {
    one: 'Page {pages} could not be read',
    other: '{count} pages could not be read: {pages}',
  },

  'job.cancel': 'Cancel adding {name}',
  'job.dismiss': 'Dismiss the message about {name}',
  'job.progress': '{done} of {total}',
  'stage.reading': 'Reading the file…',
  'stage.queued': 'Waiting…',
  'stage.validating': 'Checking the file…',
  'stage.extracting': 'Extracting text…',
  'stage.ocr': 'Recognising scanned text (OCR)…',
  'stage.language': 'Detecting the language…',
  'stage.chunking': 'Splitting into passages…',
  'stage.embedding': 'Computing embeddings…',
  'stage.indexing': 'Indexing…',
  'stage.done': 'Ready',
  'stage.failed': 'Could not be added',
  'stage.cancelled': 'Cancelled',

  'search.label': 'Your question',
  'search.placeholder': 'Ask about your documents, e.g. “What is the SAT problem?”',
  'search.submit': 'Search',
  'search.pending': 'Still being added, not searched yet: {files}',
  'search.keys': 'Enter to search · Shift+Enter for a new line',
  'search.searching': 'Searching…',
  'search.noDocumentsTitle': 'Add a PDF first',
  'search.noDocumentsBody': 'Drop a PDF into the library on the left, then ask your question here.',
  'search.indexingTitle': 'Preparing your PDFs…',
  'search.indexingBody': 'Your PDFs are being prepared. You can search as soon as the first one is ready.',
  'search.idle': 'Ask a question: the most relevant passages appear here, with their page.',
  'search.noHitsTitle': 'No passage matches “{question}”',
  'search.noHitsBody': 'Try other words, or a shorter question.',
  'search.results': {
    one: '{count} passage for “{question}”',
    other: '{count} passages for “{question}”',
  },

  'hit.foundBy.dense': 'meaning',
  'hit.foundBy.bm25': 'keywords',
  'hit.foundBy.both': 'keywords + meaning',
  'hit.score': 'score {score}',
  'hit.scoreTitle': 'Relevance score (higher is closer to your question)',

  'error.generic': 'Something went wrong. Please try again.',
  'error.dismiss': 'Dismiss',
} as const satisfies Record<string, Message>;

export type MessageKey = keyof typeof en;
type Dictionary = Record<MessageKey, Message>;

const fr: Dictionary = {
  'app.title': 'Vika',

  'library.title': 'Bibliothèque',
  'library.add': 'Ajouter des PDF…',
  'library.inputLabel': 'Choisir des fichiers PDF à ajouter',
  'library.emptyTitle': 'Déposez ici vos cours, articles ou diapositives…',
  'library.emptyBody': 'Les PDF sont lus sur cet ordinateur. Posez ensuite une question à leur sujet.',
  'library.dropMore': 'ou déposez-les dans la fenêtre',
  'library.dropActive': 'Relâchez pour ajouter',
  'library.inProgress': 'Ajout en cours',
  'library.documents': 'Documents',

  'doc.pages': { one: '{count} page', other: '{count} pages' },
  'doc.chunks': { one: '{count} passage', other: '{count} passages' },
  'doc.remove': 'Retirer {name}',
  'doc.langUnknown': 'langue inconnue',
  'doc.langMixed': 'plusieurs langues',
  'doc.ocrPages': { one: '{count} page lue par OCR', other: '{count} pages lues par OCR' },
  'doc.failedPages': {
    one: 'La page {pages} n’a pas pu être lue',
    other: '{count} pages n’ont pas pu être lues : {pages}',
  },

  'job.cancel': 'Annuler l’ajout de {name}',
  'job.dismiss': 'Fermer le message concernant {name}',
  'job.progress': '{done} sur {total}',
  'stage.reading': 'Lecture du fichier…',
  'stage.queued': 'En attente…',
  'stage.validating': 'Vérification du fichier…',
  'stage.extracting': 'Extraction du texte…',
  'stage.ocr': 'Reconnaissance du texte numérisé (OCR)…',
  'stage.language': 'Détection de la langue…',
  'stage.chunking': 'Découpage en passages…',
  'stage.embedding': 'Calcul des plongements…',
  'stage.indexing': 'Indexation…',
  'stage.done': 'Prêt',
  'stage.failed': 'Ajout impossible',
  'stage.cancelled': 'Annulé',

  'search.label': 'Votre question',
  'search.placeholder': 'Interrogez vos documents, p. ex. « Qu’est-ce que le problème SAT ? »',
  'search.submit': 'Rechercher',
  'search.pending': 'Encore en cours d’ajout, pas encore consultés : {files}',
  'search.keys': 'Entrée pour rechercher · Maj+Entrée pour aller à la ligne',
  'search.searching': 'Recherche…',
  'search.noDocumentsTitle': 'Ajoutez d’abord un PDF',
  'search.noDocumentsBody': 'Déposez un PDF dans la bibliothèque à gauche, puis posez votre question ici.',
  'search.indexingTitle': 'Préparation de vos PDF…',
  'search.indexingBody':
    'Vos PDF sont en préparation. Vous pourrez chercher dès que le premier sera prêt.',
  'search.idle': 'Posez une question : les passages les plus pertinents s’affichent ici, avec leur page.',
  'search.noHitsTitle': 'Aucun passage ne correspond à « {question} »',
  'search.noHitsBody': 'Essayez d’autres mots, ou une question plus courte.',
  'search.results': {
    one: '{count} passage pour « {question} »',
    other: '{count} passages pour « {question} »',
  },

  'hit.foundBy.dense': 'sens',
  'hit.foundBy.bm25': 'mots-clés',
  'hit.foundBy.both': 'mots-clés + sens',
  'hit.score': 'score {score}',
  'hit.scoreTitle': 'Score de pertinence (plus il est élevé, plus le passage est proche de la question)',

  'error.generic': 'Une erreur est survenue. Veuillez réessayer.',
  'error.dismiss': 'Fermer',
};

export const dictionaries: Record<Lang, Dictionary> = { en, fr };

/** The first supported language among the user's preferences (navigator.languages). */
export function pickLang(preferred: readonly string[]): Lang {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const match = LANGS.find((lang) => lang === base);
    if (match) return match;
  }
  return 'en';
}

export function translate(lang: Lang, key: MessageKey, params: Params = {}): string {
  const message = dictionaries[lang][key] ?? dictionaries.en[key];
  const template =
    typeof message === 'string'
      ? message
      : new Intl.PluralRules(lang).select(Number(params.count ?? 0)) === 'one'
        ? message.one
        : message.other;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
