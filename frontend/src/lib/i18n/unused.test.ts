// Every key of the dictionaries is named by the page's sources: a key
// nothing shows is dead text to translate and keep. Keys built at run time
// from a prefix and a value (`stage.${job.stage}`, or named('explorer.kind.',
// kind) in locale.svelte.ts) are allowed by their prefix below, each with
// where it is built; the test also fails on a prefix no source builds any
// more.
import { describe, expect, it } from 'vitest';
import { dictionaries } from './index.ts';

/** Prefixes of keys built at run time, with where and from what. */
const DYNAMIC: Record<string, string> = {
  'stage.': 'JobRow.svelte: an ingest stage (catalogue.json stages.ingest; index.test.ts checks each)',
  'chat.stage.': 'TurnView.svelte: an answer stage (catalogue.json stages.answer; index.test.ts)',
  'chat.toggle.': 'AskBox.svelte: a pipeline toggle of the question box',
  'chat.number.': 'AskBox.svelte: a pipeline number of the question box',
  'nav.': 'NavTabs.svelte: a view of the navigation',
  'notes.color.': 'SelectionMenu.svelte, NotesList.svelte: a highlight colour (catalogue.json notes.palette)',
  'study.tab.': 'StudyPanel.svelte: a study tab',
  'study.export.': 'GuideView.svelte, CardsView.svelte: an export format',
  'study.progress.': 'StudyPanel.svelte: a study job phase',
  'review.grade.': 'ReviewView.svelte: a grade, 1 (again) to 4 (easy)',
  'review.progress.': 'ProgressView.svelte: a column of the progress table (review.Counts)',
  'sources.band.': 'CosineBadge.svelte: a cosine band',
  'sources.foundBy.': 'SourcesPanel.svelte: a retriever (corpus.Hit found_by)',
  'sources.pageType.': 'SourcesPanel.svelte: a page type (corpus.PageType)',
  'hit.foundBy.': 'LookupBox.svelte: a retriever (corpus.Hit found_by)',
  'explorer.kind.': 'ChunkList.svelte: a passage kind (catalogue.json kinds; index.test.ts checks each)',
  'explorer.type.': 'PageList.svelte: a page type (corpus.PageType)',
  'explorer.info.': 'DocumentInfo.svelte: a PDF metadata field',
  'pipeline.kind.': 'PipelineStrip.svelte: a source kind',
  'pipeline.finder.': 'PipelineStrip.svelte: a retriever',
  'pipeline.step.': 'PipelineStrip.svelte: an optional step',
  'settings.mode.': 'RetrievalSection.svelte, LookupBox.svelte: a retrieval mode (catalogue.json modes; index.test.ts checks each)',
  'settings.fusion.': 'RetrievalSection.svelte, LookupBox.svelte: a fusion (catalogue.json fusions)',
  'settings.toggle.': 'RetrievalSection.svelte: a pipeline toggle',
  'settings.pipeline.': 'PipelineSection.svelte: a pipeline number',
  'dashboard.col.': 'MetricsTable.svelte: a metrics column',
  'dashboard.series.': 'MetricsCharts.svelte: a latency series',
  'dashboard.model.': 'MetricsCharts.svelte: an answer without a model',
  'dashboard.export.': 'DashboardPanel.svelte: an export format',
  'viewer.selection.': 'SelectionMenu.svelte: an action on a selection',
};

// Every source of the page but the tests and the dictionaries themselves
// (this folder), which do not count as using a key.
const sources = import.meta.glob(['../../**/*.ts', '../../**/*.svelte', '!../../**/*.test.ts', '!./**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const text = Object.values(sources).join('\n');

const named = (key: string) => [`'${key}'`, `"${key}"`, '`' + key + '`'].some((q) => text.includes(q));

describe('i18n keys', () => {
  it('finds the sources', () => {
    expect(Object.keys(sources)).toContain('../../App.svelte');
    expect(Object.keys(sources).filter((f) => f.includes('/i18n/'))).toEqual([]);
  });

  it('are each named by a source, or built from a prefix listed in DYNAMIC', () => {
    const prefixes = Object.keys(DYNAMIC);
    const unused = Object.keys(dictionaries.en).filter((k) => !named(k) && !prefixes.some((p) => k.startsWith(p)));
    expect(unused, 'remove these keys (en and fr), or add the prefix they are built from to DYNAMIC').toEqual([]);
  });

  it('lists in DYNAMIC only prefixes a source builds keys from', () => {
    const builds = (p: string) => text.includes('`' + p + '${') || text.includes(`named('${p}'`);
    const stale = Object.keys(DYNAMIC).filter((p) => !builds(p));
    expect(stale, 'no source builds keys from these prefixes: remove them from DYNAMIC').toEqual([]);
  });
});
