// The crops of the figures an answer's sources were made from, fetched once
// per passage when the sources panel shows them. A crop that cannot be read
// is simply not shown (the source still opens its page).

import * as api from '../api/index.ts';
import { handleError } from '../errors.ts';

export class Figures {
  /** chunk id -> the crop's data URL; "" while loading or when there is none. */
  urls = $state<Record<string, string>>({});
  #asked = new Set<string>();

  /** The crop of a figure passage, "" until it has arrived (or when there is none). */
  url(chunkID: string): string {
    return this.urls[chunkID] ?? '';
  }

  /** Fetches the crop of a figure passage, once. */
  async load(chunkID: string): Promise<void> {
    if (this.#asked.has(chunkID)) return;
    this.#asked.add(chunkID);
    try {
      const region = await api.sourceRegion(chunkID);
      if (region?.image) this.urls[chunkID] = region.image;
    } catch (err) {
      handleError(err, '');
    }
  }
}

/** The window's one cache: answers keep their sources for the session. */
export const figures = new Figures();
