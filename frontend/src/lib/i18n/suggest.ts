// Suggested questions under a newly added document, phrased offline from
// its outline's section titles, in the document's language (English or
// French, else the window's): the question is material, like a study
// guide, and a question in the document's words finds its passages. French spaces inside « » and before ? and
// : are no-break spaces (U+00A0), so that a line never starts with » ?.

import type { Message } from './lookup.ts';

export const en = {
  'suggest.title': 'Questions to start with',
  'suggest.about': 'What is “{title}” about?',
  'suggest.ask': 'Ask: {question}',
  'suggest.dismiss': 'Hide the suggested questions',
};

export const fr: Record<keyof typeof en, Message> = {
  'suggest.title': 'Questions pour commencer',
  'suggest.about': 'De quoi parle la section « {title} » ?',
  'suggest.ask': 'Demander : {question}',
  'suggest.dismiss': 'Masquer les questions suggérées',
};
