// Suggested questions under a newly added document, phrased offline from
// its outline's section titles.

import type { Message } from './lookup.ts';

export const en = {
  'suggest.title': 'Questions to start with',
  'suggest.explain': 'What does the section “{title}” explain?',
  'suggest.summarise': 'Summarise the section “{title}”.',
  'suggest.ask': 'Ask: {question}',
  'suggest.dismiss': 'Hide the suggested questions',
};

export const fr: Record<keyof typeof en, Message> = {
  'suggest.title': 'Questions pour commencer',
  'suggest.explain': 'Qu’explique la section « {title} » ?',
  'suggest.summarise': 'Résume la section « {title} ».',
  'suggest.ask': 'Demander : {question}',
  'suggest.dismiss': 'Masquer les questions suggérées',
};
