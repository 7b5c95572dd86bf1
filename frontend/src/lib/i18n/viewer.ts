// The PDF viewer.

import type { Message } from './lookup.ts';

export const en = {
  'viewer.title': 'PDF viewer',
  'viewer.close': 'Back to the answer (Esc)',
  'viewer.prev': 'Previous page',
  'viewer.next': 'Next page',
  'viewer.pageInput': 'Page number',
  'viewer.pageOf': 'of {count}',
  'viewer.zoomIn': 'Zoom in',
  'viewer.zoomOut': 'Zoom out',
  'viewer.fit': 'Fit to width',
  'viewer.zoomLevel': '{percent} %',
  'viewer.loading': 'Opening the PDF…',
  'viewer.loadFailed': 'This PDF could not be opened.',
  'viewer.renderTimeout': 'Page {page} took too long to draw and was stopped.',
  'viewer.loadFailedBecause': 'This PDF could not be opened: {reason}',
  'viewer.found': 'The cited passage is highlighted.',
  'viewer.foundRegion': 'The cited table, figure, formula, form field or note is outlined.',
  'viewer.missing': 'The cited passage could not be located in this page’s text (a scanned page without recognised text has none); this is the cited page.',
  'viewer.page': 'Page {page} of {file}',
} as const satisfies Record<string, Message>;

export const fr: Record<keyof typeof en, Message> = {
  'viewer.title': 'Visionneuse PDF',
  'viewer.close': 'Revenir à la réponse (Échap)',
  'viewer.prev': 'Page précédente',
  'viewer.next': 'Page suivante',
  'viewer.pageInput': 'Numéro de page',
  'viewer.pageOf': 'sur {count}',
  'viewer.zoomIn': 'Agrandir',
  'viewer.zoomOut': 'Réduire',
  'viewer.fit': 'Ajuster à la largeur',
  'viewer.zoomLevel': '{percent} %',
  'viewer.loading': 'Ouverture du PDF…',
  'viewer.loadFailed': 'Ce PDF n’a pas pu être ouvert.',
  'viewer.renderTimeout': 'La page {page} prenait trop de temps à dessiner : elle a été arrêtée.',
  'viewer.loadFailedBecause': 'Ce PDF n’a pas pu être ouvert : {reason}',
  'viewer.found': 'Le passage cité est surligné.',
  'viewer.foundRegion': 'L’élément cité (tableau, figure, formule, champ de formulaire ou note) est encadré.',
  'viewer.missing': 'Le passage cité est introuvable dans le texte de cette page (une page numérisée sans texte reconnu n’en a pas) ; c’est bien la page citée.',
  'viewer.page': 'Page {page} de {file}',
};
