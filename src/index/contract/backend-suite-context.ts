import type { IndexBackend } from '../types.ts';

/** What each part of the shared suite gets: the fresh, empty backend of the running test. */
export interface BackendSuiteContext {
  index(): IndexBackend;
}
