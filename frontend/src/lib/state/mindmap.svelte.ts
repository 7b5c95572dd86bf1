// The mind map tab's state: the map of the study scope (Go builds it
// offline), asked for again when the scope, the library or the guide
// changes, and its exports (SVG, HTML).

import * as api from '../api/index.ts';
import type { MindMap, StudyScope } from '../api/types.ts';
import { handleError } from '../errors.ts';
import { Export } from './export.svelte.ts';
import { locale, t } from './locale.svelte.ts';

export type MapFormat = 'svg' | 'html';

export class MindMaps {
  map = $state<MindMap | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  readonly #exports = new Export<MapFormat>();
  #seq = 0;

  get exporting(): MapFormat | null {
    return this.#exports.running;
  }
  get exported(): string | null {
    return this.#exports.path;
  }

  /** Asks Go for the map of scope's documents (a section or a selection is not narrowed to); the last call wins. */
  async load(scope: StudyScope): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    this.error = null;
    try {
      const map = await api.mindMap(wide(scope));
      if (seq === this.#seq) this.map = map;
    } catch (err) {
      if (seq !== this.#seq) return;
      this.map = null;
      this.error = handleError(err, t('mindmap.failed'));
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  async export(scope: StudyScope, format: MapFormat): Promise<void> {
    await this.#exports.run(
      format,
      () => api.exportMindMap(wide(scope), format, locale.lang),
      (err) => (this.error = handleError(err, t('mindmap.failed'))),
    );
  }

  dismissError(): void {
    this.error = null;
  }
}

/** The scope's documents alone. */
function wide(scope: StudyScope): StudyScope {
  return { doc_id: scope.doc_id, ...(scope.docs ? { docs: [...scope.docs] } : {}), ...(scope.all ? { all: true } : {}) };
}
