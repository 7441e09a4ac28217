import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { compareCases } from './cases.ts';
import { autoRouting, runCompare } from './compare.ts';
import type { CaseResult } from './cases.ts';
import { loadDataset } from './dataset/dataset.ts';
import type { CompareReport } from './reports/report-json.ts';
import { recordingIO, runEval, TINY, TINY_SCRIPTS } from '../cli/test-cli.ts';
import { createPolicyModel, viewOf } from './test-model.ts';

const columns = [
  'kind', 'arm', 'n', 'recall', 'readRecall', 'pass', 'correct', 'factRecall', 'withFacts', 'abstain',
  'searches', 'chunks', 'modelCalls', 'tokens', 'costPerQuery', 'p50s',
];
const row = (...values: unknown[]) => Object.fromEntries(columns.map((column, position) => [column, values[position]]));
/** The compare rows without their claim columns, and those columns apart. */
function splitClaimColumns(summaryRows: Array<Record<string, unknown>>) {
  const rows = summaryRows.map(({ supportedClaims: _supported, claims: _claims, ...rest }) => rest);
  const claimRows = summaryRows.map(({ kind, arm, supportedClaims, claims }) => ({ kind, arm, supportedClaims, claims }));
  return { rows, claimRows };
}

describe('atlas eval compare (scripted model, tiny dataset)', () => {
  const temporary: string[] = [];
  afterEach(async () => {
    for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('prints the table per kind and arm, the buckets, the sweep and the spread as one JSON object', async () => {
    const io = recordingIO();
    const argv = ['eval', 'compare', '--data', TINY, '--json', '--budgets', '1,6', '--repeat', '2', '--concurrency', '3'];
    const summary = JSON.parse(await runEval(argv, io, createPolicyModel(TINY_SCRIPTS)));
    expect(summary.arms).toEqual(['classic@5', 'classic@1', 'agentic', 'auto']);
    expect(summary.fairK).toBe(1); // agentic chunks 1,1,1,1,1,1,4,0 (qa-4 finds nothing): mean 1.25, rounded
    const { claimRows, rows } = splitClaimColumns(summary.rows);
    // The scripted answers name a page ("From error-codes."): supported only where the quote holds that page's words.
    expect(claimRows.filter((item) => item.kind === 'all')).toEqual([
      { kind: 'all', arm: 'classic@5', supportedClaims: 0, claims: 4 },
      { kind: 'all', arm: 'classic@1', supportedClaims: 0, claims: 4 },
      { kind: 'all', arm: 'agentic', supportedClaims: 0.5, claims: 4 },
      { kind: 'all', arm: 'auto', supportedClaims: 0.25, claims: 4 },
    ]);
    expect(rows).toEqual([
      row('exact_term', 'classic@5', 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 154, 0.000208, 0),
      row('exact_term', 'classic@1', 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 154, 0.000208, 0),
      // The search showed the short error-codes page whole: read, not only seen.
      row('exact_term', 'agentic', 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 2, 281, 0.000362, 0),
      // auto: classic@1 scores below the weak threshold on a tiny corpus, so the agent answers; both passes count.
      row('exact_term', 'auto', 1, 1, 1, 1, 1, 1, 1, 0, 2, 2, 3, 435, 0.00057, 0),
      row('multi_hop', 'classic@5', 1, 1, 1, 0, 0, 0, 1, 1, 1, 5, 1, 120, 0.00014, 0),
      row('multi_hop', 'classic@1', 1, 0.333, 0.333, 0, 0, 0, 1, 1, 1, 1, 1, 120, 0.00014, 0),
      row('multi_hop', 'agentic', 1, 0.333, 0.333, 0, 0, 0, 1, 1, 1, 1, 2, 247, 0.000294, 0),
      row('multi_hop', 'auto', 1, 0.333, 0.333, 0, 0, 0, 1, 1, 2, 2, 3, 367, 0.000434, 0),
      row('version', 'classic@5', 1, 1, 1, 0, 0, 0, 1, 1, 1, 2, 1, 120, 0.00014, 0),
      row('version', 'classic@1', 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 120, 0.00014, 0),
      row('version', 'agentic', 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 2, 248, 0.000296, 0),
      row('version', 'auto', 1, 1, 1, 0, 0, 0, 1, 1, 2, 2, 3, 368, 0.000436, 0),
      // none-1 and qa:qa-4 (a qa_gold line citing no page): correct means abstained.
      row('unanswerable', 'classic@5', 2, null, null, 1, 1, null, 0, 1, 1, 1, 1, 120, 0.00014, 0),
      row('unanswerable', 'classic@1', 2, null, null, 1, 1, null, 0, 1, 1, 0.5, 1, 120, 0.00014, 0),
      row('unanswerable', 'agentic', 2, null, null, 0.5, 0.5, null, 0, 0.5, 1, 0.5, 2, 263.5, 0.000327, 0),
      row('unanswerable', 'auto', 2, null, null, 0.5, 0.5, null, 0, 0.5, 2, 1, 3, 383.5, 0.000467, 0),
      row('qa', 'classic@5', 3, 1, 1, 1, 1, 1, 2, 0, 1, 2.333, 1, 152, 0.000204, 0),
      row('qa', 'classic@1', 3, 1, 1, 1, 1, 1, 2, 0, 1, 1, 1, 152, 0.000204, 0),
      // qa-1 cites the gold page (pass) without its facts (not correct); qa-3 lists no facts, so correct = pass.
      row('qa', 'agentic', 3, 0.667, 0.667, 0.667, 0.333, 0, 2, 0.333, 1, 2, 2.333, 308.333, 0.000383, 0),
      // auto keeps classic's answer to qa-1 (facts and all) and escalates the other two.
      row('qa', 'auto', 3, 0.667, 0.667, 0.667, 0.667, 0.5, 2, 0.333, 1.667, 1.667, 2.333, 329.333, 0.000425, 0),
      row('all', 'classic@5', 8, 1, 1, 0.75, 0.75, 0.6, 5, 0.5, 1, 2.125, 1, 136.25, 0.000173, 0),
      row('all', 'classic@1', 8, 0.889, 0.889, 0.75, 0.75, 0.6, 5, 0.5, 1, 0.875, 1, 136.25, 0.000173, 0),
      row('all', 'agentic', 8, 0.722, 0.722, 0.5, 0.375, 0.2, 5, 0.5, 1, 1.25, 2.125, 278.5, 0.000344, 0),
      row('all', 'auto', 8, 0.722, 0.722, 0.5, 0.5, 0.4, 5, 0.5, 1.875, 1.625, 2.75, 365.625, 0.000456, 0),
    ]);
    expect(summary.routing).toEqual({
      classic: 1,
      agentic: 7,
      failed: 0,
      reasons: [
        { reason: 'classic abstained (the model abstained)', cases: 4 },
        { reason: 'classic best score N is below the weak threshold N', cases: 3 },
      ],
    });
    expect(summary.buckets).toEqual({ retrieval: 1, ranking: 1, generation: 1, planning: 1, error: 0 });
    expect(summary.failures).toEqual([
      { caseId: 'hop-1', kind: 'multi_hop', bucket: 'planning' },
      { caseId: 'version-1', kind: 'version', bucket: 'ranking' },
      { caseId: 'none-1', kind: 'unanswerable', bucket: 'generation' },
      { caseId: 'qa:qa-2', kind: 'qa', bucket: 'retrieval' },
    ]);
    expect(summary.incomplete).toEqual([{ caseId: 'qa:qa-1', kind: 'qa', missingFacts: 2, facts: 2 }]);
    // At budget 1 the search budget stops qa-1 before its read: fewer tokens, same scores.
    expect(summary.budgets).toEqual([
      { maxSearches: 1, n: 8, recall: 0.722, pass: 0.5, correct: 0.375, factRecall: 0.2, searches: 1, chunks: 1.25, tokens: 262.625, costPerQuery: 0.000325 },
      { maxSearches: 6, n: 8, recall: 0.722, pass: 0.5, correct: 0.375, factRecall: 0.2, searches: 1, chunks: 1.25, tokens: 278.5, costPerQuery: 0.000344 },
    ]);
    const steady = (value: number) => ({ min: value, max: value, mean: value, stdev: 0 });
    expect(summary.repeats.map((spread: { kind: string }) => spread.kind)).toEqual(['exact_term', 'multi_hop', 'version', 'unanswerable', 'qa', 'all']);
    expect(summary.repeats.at(-1)).toEqual({ kind: 'all', repeats: 2, recall: steady(0.722), pass: steady(0.5), correct: steady(0.375) });
    expect(summary).not.toHaveProperty('cases');
    // 8 cases x (agentic + classic@5 + classic@1 + auto + one repeat + the budget-1 pass) = 48 runs; a line every 10%.
    expect(io.err.join('')).toBe(
      [5, 10, 15, 20, 24, 29, 34, 39, 44, 48].map((done) => `eval compare: ${done}/48 (${Math.floor((done / 48) * 100)}%), ETA 0s\n`).join(''),
    );
  });

  it('prints a readable table and writes report.json and report.html with --out', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atlas-compare-'));
    temporary.push(dir);
    const io = recordingIO({ cwd: dir });
    const out = await runEval(['eval', 'compare', '--data', TINY, '--out', 'reports'], io, createPolicyModel(TINY_SCRIPTS));
    expect(out.split('\n').slice(0, 4)).toEqual([
      "Classic vs agentic on tiny (model scripted; fair classic k = 1, the agent's mean chunks seen)",
      'kind          arm        n  recall  read recall   pass  correct  factRecall  supported claims  abstain  searches  chunks   tokens  $/q       p50 s',
      '------------  ---------  -  ------  -----------  -----  -------  ----------  ----------------  -------  --------  ------  -------  --------  -----',
      'exact_term    classic@5  1       1            1      1        1           1                 0        0         1       1      154  $0.00021      0',
    ]);
    expect(out.split('\n').slice(25, 31)).toEqual([
      'all           agentic    8   0.722        0.722    0.5    0.375         0.2               0.5      0.5         1    1.25    278.5  $0.00034      0',
      'all           auto       8   0.722        0.722    0.5      0.5         0.4              0.25      0.5     1.875   1.625  365.625  $0.00046      0',
      '  recall: share of gold pages among the chunks seen or read; read recall: among the chunks read in full (classic passages are full text)',
      '  pass: cites a gold page (abstains where there is none)',
      '  correct: not abstained and every fact present in the answer text or its quotes (a case without facts counts as correct when it passes); abstained where there is no gold page. 5 of the 8 cases list facts',
      '  factRecall: mean share of facts present, over the answerable cases that list facts ("-": none does)',
    ]);
    expect(out.split('\n')[31]).toBe(
      '  supported claims: share of the answers\' claims (sentences and clauses) that a verified quote supports (content words, identifiers and numbers, agent/trust/claims.ts); abstentions make none ("-": no claim). Claims per arm: classic@5 4, classic@1 4, agentic 4, auto 4',
    );
    expect(out).toContain('\nFailed agentic cases by bucket: retrieval 1, ranking 1, generation 1, planning 1, error 0\n');
    expect(out).toContain('  retrieval: qa:qa-2\n  ranking: version-1\n  generation: none-1\n  planning: hop-1\n');
    expect(out).toContain('\nAgentic cases that pass but miss facts (missing/listed): 1\n  qa:qa-1 (2/2)\n');
    expect(out).toContain(
      '\nAuto arm (classic at k = 1 first): 1 answered by classic, 7 escalated to the agent\n  4: classic abstained (the model abstained)\n  3: classic best score N is below the weak threshold N\n',
    );
    expect(out).toContain(`\nWrote ${path.join(dir, 'reports', 'report.json')} and ${path.join(dir, 'reports', 'report.html')}\n`);

    const report = JSON.parse(await readFile(path.join(dir, 'reports', 'report.json'), 'utf8')) as CompareReport;
    expect(report.schemaVersion).toBe(1);
    // Every line is its own case: qa-3 repeats exact-1's query and still runs; qa-4 cites no page.
    expect(report.cases.map((result) => `${result.arm} ${result.caseId} ${result.kind} pass=${result.pass} correct=${result.correct} facts=${result.factRecall}`)).toEqual([
      'agentic exact-1 exact_term pass=true correct=true facts=1',
      'agentic hop-1 multi_hop pass=false correct=false facts=0',
      'agentic version-1 version pass=false correct=false facts=0',
      'agentic none-1 unanswerable pass=false correct=false facts=null',
      'agentic qa:qa-1 qa pass=true correct=false facts=0',
      'agentic qa:qa-2 qa pass=false correct=false facts=0',
      'agentic qa:qa-3 qa pass=true correct=true facts=null',
      'agentic qa:qa-4 unanswerable pass=true correct=true facts=null',
      'classic@5 exact-1 exact_term pass=true correct=true facts=1',
      'classic@5 hop-1 multi_hop pass=false correct=false facts=0',
      'classic@5 version-1 version pass=false correct=false facts=0',
      'classic@5 none-1 unanswerable pass=true correct=true facts=null',
      'classic@5 qa:qa-1 qa pass=true correct=true facts=1',
      'classic@5 qa:qa-2 qa pass=true correct=true facts=1',
      'classic@5 qa:qa-3 qa pass=true correct=true facts=null',
      'classic@5 qa:qa-4 unanswerable pass=true correct=true facts=null',
      'classic@1 exact-1 exact_term pass=true correct=true facts=1',
      'classic@1 hop-1 multi_hop pass=false correct=false facts=0',
      'classic@1 version-1 version pass=false correct=false facts=0',
      'classic@1 none-1 unanswerable pass=true correct=true facts=null',
      'classic@1 qa:qa-1 qa pass=true correct=true facts=1',
      'classic@1 qa:qa-2 qa pass=true correct=true facts=1',
      'classic@1 qa:qa-3 qa pass=true correct=true facts=null',
      'classic@1 qa:qa-4 unanswerable pass=true correct=true facts=null',
      'auto exact-1 exact_term pass=true correct=true facts=1',
      'auto hop-1 multi_hop pass=false correct=false facts=0',
      'auto version-1 version pass=false correct=false facts=0',
      'auto none-1 unanswerable pass=false correct=false facts=null',
      'auto qa:qa-1 qa pass=true correct=true facts=1',
      'auto qa:qa-2 qa pass=false correct=false facts=0',
      'auto qa:qa-3 qa pass=true correct=true facts=null',
      'auto qa:qa-4 unanswerable pass=true correct=true facts=null',
    ]);
    const kept = report.cases.find((result) => result.caseId === 'qa:qa-1' && result.arm === 'auto');
    expect([kept?.run.route, kept?.run.routeReason, kept?.run.escalatedFrom]).toEqual(['classic', 'classic passed every check (best score 15.68, 1 citation verified)', undefined]);
    const incomplete = report.cases.find((result) => result.caseId === 'qa:qa-1' && result.arm === 'agentic');
    expect([incomplete?.run.answer.citations.map((citation) => citation.quote), incomplete?.missingFacts, incomplete?.readDocIds]).toEqual([
      ['The limits table caps sizes.'],
      [['256'], ['kilobytes', 'KB']],
      ['limits', 'error-codes', 'flows'],
    ]);
    const retrievalFailure = report.cases.find((result) => result.caseId === 'qa:qa-2' && result.arm === 'agentic');
    expect(retrievalFailure?.run.trace.steps.map((step) => [step.query, step.filter, step.docIds])).toEqual([['leases', { version: '2.x' }, ['leases-2x']]]);
    expect(retrievalFailure?.run.trace.stopReason).toBe('model-done');

    const html = await readFile(path.join(dir, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<h1>Atlas eval: classic vs agentic on tiny</h1>');
    expect(html.match(/<details class="case"/g)).toHaveLength(13); // 5 agentic (4 not passing, qa-1 not correct) + 2 classic@5 + 2 classic@1 + 4 auto
    expect(html).toContain('<span class="bucket">passes, missing 2 of 2 facts</span> <code>qa:qa-1</code>');
    expect(html).toContain('<tr><th>facts</th><td><ul><li><q>256</q> <span class="note">missing</span></li><li><q>kilobytes</q> or <q>KB</q> <span class="note">missing</span></li></ul></td></tr>');
    expect(html).toContain('<tr><th>outcome</th><td>pass yes &middot; correct no &middot; factRecall 0.00</td></tr>');
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('retries a failed case once after a backoff, and buckets a case that keeps failing as an error', async () => {
    const dataset = await loadDataset(TINY);
    const index = createSqliteIndex({ path: ':memory:' });
    await index.ingest(dataset.docs);
    // exact-1 fails on its first call once (the retry passes); version-1 fails every time.
    const model = failingOn(createPolicyModel(TINY_SCRIPTS), new Map([['ORB-1202', 1], ['How do I set the lease duration?', 99]]));
    const slept: number[] = [];
    const retried: string[] = [];
    const result = await runCompare({
      cases: compareCases(dataset).filter((item) => item.id === 'exact-1' || item.id === 'version-1'),
      docs: dataset.docs,
      index,
      model,
      now: () => 0,
      concurrency: 1,
      retryBackoffMs: 1500,
      sleep: async (ms) => {
        slept.push(ms);
      },
      onRetry: (caseId, reason) => retried.push(`${caseId}: ${reason}`),
    });
    await index.close();
    // Only agentic runs fail here (a classic run's first model call already carries its retrieval).
    // The auto arm escalates version-1 (classic abstains), and its agent fails the same way: retried once more.
    expect(retried).toEqual(['exact-1: the run failed', 'version-1: the run failed', 'version-1: the run failed']);
    expect(slept).toEqual([1500, 1500, 1500]);
    const agentic = result.cases.filter((item) => item.arm === 'agentic');
    expect(agentic.map((item) => [item.caseId, item.pass, item.bucket, item.run.trace.stopReason])).toEqual([
      ['exact-1', true, undefined, 'model-done'],
      ['version-1', false, 'error', 'error'],
    ]);
    expect(agentic[1]?.run.trace.errors.join('; ')).toContain('rate limited (429)');
    expect(result.buckets).toEqual({ retrieval: 0, ranking: 0, generation: 0, planning: 0, error: 1 });
  });
});

describe('autoRouting', () => {
  it('counts routes and groups escalation reasons with their numbers and quoted parts elided', () => {
    const results = [
      { route: 'classic', routeReason: 'classic passed every check (best score 12.00, 1 citation verified)' },
      { route: 'agentic', routeReason: 'escalated: the classic answer covers 50% of the terms of the part "where was he born"' },
      { route: 'agentic', routeReason: 'escalated: the classic answer covers 67% of the terms of the part "which error is it"' },
      { route: 'agentic', routeReason: 'escalated: classic best score 3.10 is below the weak threshold 9.2' },
      {},
    ].map((run) => ({ run }) as unknown as CaseResult);
    expect(autoRouting(results)).toEqual({
      classic: 1,
      agentic: 3,
      failed: 1,
      reasons: [
        { reason: 'the classic answer covers N% of the terms of the part "…"', cases: 2 },
        { reason: 'classic best score N is below the weak threshold N', cases: 1 },
      ],
    });
  });
});

/** Wraps a model so that the first call of a run on some questions throws, `times` times per question. */
function failingOn(inner: LanguageModelV3, times: Map<string, number>): LanguageModelV3 {
  const maybeFail = (request: LanguageModelV3CallOptions) => {
    const { question, turn } = viewOf(request);
    const left = times.get(question) ?? 0;
    if (turn === 0 && left > 0) {
      times.set(question, left - 1);
      throw new Error('rate limited (429)');
    }
  };
  return {
    ...inner,
    doGenerate: async (request) => {
      maybeFail(request);
      return inner.doGenerate(request);
    },
    doStream: async (request) => {
      maybeFail(request);
      return inner.doStream(request);
    },
  };
}
