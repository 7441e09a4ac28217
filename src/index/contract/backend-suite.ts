import { afterEach, beforeEach, describe } from 'vitest';
import { describeAccessContract } from './backend-suite-access.ts';
import { describeDefinitionsContract } from './backend-suite-definitions.ts';
import { describeIngestContract } from './backend-suite-ingest.ts';
import { describeLabelValuesContract } from './backend-suite-labels.ts';
import { describeReadingContract } from './backend-suite-reading.ts';
import { describeScriptsContract } from './backend-suite-scripts.ts';
import { describeSearchContract } from './backend-suite-search.ts';
import type { IndexBackend } from '../types.ts';
import type { BackendSuiteContext } from './backend-suite-context.ts';

export type { BackendSuiteContext } from './backend-suite-context.ts';

/**
 * Declares the vitest suite every {@link IndexBackend} must pass: ingest reports and atomicity,
 * index versions, filters applied before top-k, heading weight, heading paths, identifier queries,
 * the defining chunk first for queries naming an identifier, snippets, query robustness,
 * getChunk/neighbors under filters, access groups (`labels.acl`) in every read, the values of a label (labelValues),
 * text without spaces (Chinese, Japanese, Thai). `makeBackend` must return a new, empty
 * backend for each test (it is closed after the test). Uses the default tokenizer settings.
 * `skip.scripts` names why a backend cannot pass the text-without-spaces part yet (it is skipped then).
 *
 * @example
 * describeIndexBackend('sqlite', async () => createSqliteIndex({ path: ':memory:' }));
 */
export function describeIndexBackend(name: string, makeBackend: () => Promise<IndexBackend>, skip: { scripts?: string } = {}): void {
  describe(`IndexBackend contract: ${name}`, () => {
    let current: IndexBackend | undefined;
    const context: BackendSuiteContext = {
      index() {
        if (current === undefined) throw new Error('the backend is only available inside a test');
        return current;
      },
    };
    beforeEach(async () => {
      current = await makeBackend();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    describeIngestContract(context);
    describeSearchContract(context);
    describeDefinitionsContract(context);
    describeReadingContract(context);
    describeAccessContract(context);
    describeLabelValuesContract(context);
    if (skip.scripts === undefined) describeScriptsContract(context);
    else describe.skip(`text without spaces: ${skip.scripts}`, () => describeScriptsContract(context));
  });
}
