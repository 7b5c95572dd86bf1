// The frontend's only door to the Go backend, one module per domain over one
// call and error helper (call.ts). Nothing outside lib/api imports the
// generated wailsjs bindings: state classes call these functions, and tests
// replace this module with vi.mock (src/test/api/fake.ts, admin.fake.ts).
//
// Go errors arrive as rejected promises carrying {message, code, params};
// call turns them into BridgeErrors so the rest of the app sees one shape.

export * from './library.ts';
export * from './answers.ts';
export * from './settings.ts';
export * from './metrics.ts';
export * from './models.ts';
export * from './report.ts';
export * from './regions.ts';
export * from './cache.ts';
export * from './course.ts';
export * from './folder.ts';
export * from './quit.ts';
export { BackendUnavailableError, BridgeError } from './call.ts';
export * from './study.ts';
export * from './review.ts';
export * from './notes.ts';
export * from './mindmap.ts';
