// The window as a whole: title, navigation, generic errors.

import type { Message } from './lookup.ts';

export const en = {
  'app.title': 'Vika',
  'nav.label': 'Views',
  'nav.chat': 'Chat',
  'nav.explorer': 'Explorer',
  'nav.study': 'Study',
  'nav.notes': 'Notes',
  'nav.dashboard': 'Dashboard',
  'nav.settings': 'Settings',
  'nav.unavailable': 'This view is not part of this build yet.',
  'error.generic': 'Something went wrong. Please try again.',
  'error.dismiss': 'Dismiss',
} as const satisfies Record<string, Message>;

export const fr: Record<keyof typeof en, Message> = {
  'app.title': 'Vika',
  'nav.label': 'Vues',
  'nav.chat': 'Questions',
  'nav.explorer': 'Explorateur',
  'nav.study': 'Réviser',
  'nav.notes': 'Notes',
  'nav.dashboard': 'Tableau de bord',
  'nav.settings': 'Réglages',
  'nav.unavailable': 'Cette vue ne fait pas encore partie de cette version.',
  'error.generic': 'Une erreur est survenue. Veuillez réessayer.',
  'error.dismiss': 'Fermer',
};
