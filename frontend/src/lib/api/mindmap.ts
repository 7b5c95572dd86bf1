// The mind map of a study scope (a document, several or the whole
// library), built offline by Go from the outlines, section titles and the
// kept guides' key terms, and its exports (native save dialogs).
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import type { study } from '../../../wailsjs/go/models';
import { call } from './call.ts';
import type { MindMap, StudyScope } from './types.ts';

/** The mind map of scope's documents. */
export async function mindMap(scope: StudyScope): Promise<MindMap> {
  return (await call(() => App.MindMap({ ...scope } as study.Scope))) as MindMap;
}

/** Saves the mind map of scope as SVG or HTML, its few words in lang; the path, '' when cancelled. */
export async function exportMindMap(scope: StudyScope, format: 'svg' | 'html', lang: string): Promise<string> {
  return (await call(() => App.ExportMindMap({ ...scope } as study.Scope, format, lang))) ?? '';
}
