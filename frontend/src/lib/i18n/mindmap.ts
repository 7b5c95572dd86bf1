// The Study view's mind map tab: a document's or the course's map, built
// offline. French spaces before ? : and inside « » are no-break spaces
// (U+00A0).

import type { Message } from './lookup.ts';

export const en = {
  'study.tab.map': 'Mind map',
  'mindmap.intro':
    'Built from the outline and the section titles, and from the study guide’s key terms once one is made. Click a node to open its page; click a circle to fold or unfold its branch.',
  'mindmap.label': 'Mind map',
  'mindmap.course': 'Course ({count} documents)',
  'mindmap.pages': 'Pages {from}–{to}',
  'mindmap.loading': 'Drawing the mind map…',
  'mindmap.failed': 'The mind map could not be made.',
  'mindmap.noTerms': 'Make a study guide to hang its key terms under their sections.',
  'mindmap.counts': { one: '{sections} sections, {count} key term', other: '{sections} sections, {count} key terms' },
  'mindmap.truncated': 'A large map: the deepest sections or some key terms were left out.',
  'mindmap.fit': 'Fit to view',
  'mindmap.export.svg': 'SVG',
  'mindmap.asList': 'The map as a list',
};

export const fr: Record<keyof typeof en, Message> = {
  'study.tab.map': 'Carte mentale',
  'mindmap.intro':
    'Faite à partir de la table des matières et des titres de sections, et des termes clés de la fiche de révision une fois celle-ci faite. Cliquez sur un nœud pour ouvrir sa page, sur un cercle pour replier ou déplier sa branche.',
  'mindmap.label': 'Carte mentale',
  'mindmap.course': 'Cours ({count} documents)',
  'mindmap.pages': 'Pages {from} à {to}',
  'mindmap.loading': 'Dessin de la carte mentale…',
  'mindmap.failed': 'La carte mentale n’a pas pu être faite.',
  'mindmap.noTerms': 'Faites une fiche de révision pour accrocher ses termes clés sous leurs sections.',
  'mindmap.counts': { one: '{sections} sections, {count} terme clé', other: '{sections} sections, {count} termes clés' },
  'mindmap.truncated': 'Une grande carte : les sections les plus profondes ou certains termes clés ont été laissés de côté.',
  'mindmap.fit': 'Ajuster à la vue',
  'mindmap.export.svg': 'SVG',
  'mindmap.asList': 'La carte sous forme de liste',
};
