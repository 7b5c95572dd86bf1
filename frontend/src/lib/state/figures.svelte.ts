// The crops of the figures an answer's sources were made from, and the LaTeX
// the vision model transcribed for their formulas, fetched once per passage
// when the sources panel shows them. A crop or LaTeX that cannot be read is
// simply not shown (the source still opens its page).

import * as api from '../api/index.ts';
import { handleError } from '../errors.ts';

export class Figures {
  /** chunk id -> the crop's data URL; "" while loading or when there is none. */
  urls = $state<Record<string, string>>({});
  /** chunk id -> the formula's transcribed LaTeX (its region's description); "" when there is none. */
  latexes = $state<Record<string, string>>({});
  #asked = new Set<string>();

  /** The crop of a figure passage, "" until it has arrived (or when there is none). */
  url(chunkID: string): string {
    return this.urls[chunkID] ?? '';
  }

  /** The LaTeX transcribed for a formula passage's region, "" until it has arrived (or when there is none). */
  latex(chunkID: string): string {
    return this.latexes[chunkID] ?? '';
  }

  /** Fetches the crop of a figure passage, or the transcription of a formula passage, once. */
  async load(chunkID: string): Promise<void> {
    if (this.#asked.has(chunkID)) return;
    this.#asked.add(chunkID);
    try {
      const region = await api.sourceRegion(chunkID);
      if (region?.image) this.urls[chunkID] = region.image;
      if (region?.kind === 'formula' && region.description?.trim()) this.latexes[chunkID] = region.description.trim();
    } catch (err) {
      handleError(err, '');
    }
  }
}
