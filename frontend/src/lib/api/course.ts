// Course files (.vika): saving the session, opening a course, the recent ones.
// Part of the API (index.ts re-exports every domain module): only lib/api
// imports the generated wailsjs bindings, and every call goes through call.ts.

import * as App from '../../../wailsjs/go/main/App';
import { call } from './call.ts';
import type { RecentCourse } from './types.ts';

/** Asks where to save the session as a course file and saves it; '' when cancelled. */
export async function saveCourse(withConversation: boolean): Promise<string> {
  return (await call(() => App.SaveCourse(withConversation))) ?? '';
}

/** Asks for a course file to open; '' when cancelled. */
export async function pickCourse(): Promise<string> {
  return (await call(() => App.PickCourse())) ?? '';
}

/** Starts opening a course file in the background; returns its job id (its progress comes as ingest:progress events, and cancel stops it). */
export async function openCourse(path: string): Promise<string> {
  return (await call(() => App.OpenCourse(path))) ?? '';
}

/** The course files saved or opened before, most recent first (none without a settings file). */
export async function recentCourses(): Promise<RecentCourse[]> {
  return ((await call(() => App.RecentCourses())) ?? []) as RecentCourse[];
}
