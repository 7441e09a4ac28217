import { locateClaims } from '../../agent/trust/claims.ts';
import type { Answer } from '../../agent/trust/answer.ts';
import type { CaseResult } from '../cases.ts';
import { escapeHtml } from './report-chart.ts';

/**
 * One failed case as a `<details>` element: the summary line (bucket, id, kind, arm, question),
 * expandable to its trace: gold and seen pages, every search (query, filter, new docs, note),
 * reads, stop reason, answer, citations, facts (present or missing), pass and correct, dropped
 * citations and errors. All text is escaped.
 *
 * @example
 * renderFailedCase(result); // '<details class="case" id="case-agentic-q-7">...</details>'
 */
export function renderFailedCase(result: Omit<CaseResult, 'run'> & { run: CaseResult['run'] }): string {
  const { run } = result;
  const { trace } = run;
  const seen = new Set(result.seenDocIds);
  const docList = (docIds: string[]) =>
    docIds.length === 0
      ? '<em>none</em>'
      : docIds.map((docId) => `<code class="${result.gold.includes(docId) ? 'gold' : ''}">${escapeHtml(docId)}</code>`).join(' ');
  const searches = trace.steps.map((step) => {
    const version = step.filter.version ? ` <span class="muted">[version ${escapeHtml(String(step.filter.version))}]</span>` : '';
    const note = step.note ? ` <span class="note">${escapeHtml(step.note)}</span>` : '';
    return `<li><q>${escapeHtml(step.query)}</q>${version} &rarr; new docs: ${docList(step.newDocIds)}${note}</li>`;
  });
  const reads = trace.reads.map(
    (read) => `<li>${escapeHtml(read.tool)} <code>${escapeHtml(read.chunkId)}</code>${read.found ? '' : ' <span class="note">not found</span>'}</li>`,
  );
  const citations = run.answer.citations.map((citation) => `<li><code>${escapeHtml(citation.docId)}</code> <q>${escapeHtml(citation.quote)}</q></li>`);
  const dropped = trace.droppedCitations.map(
    (citation) => `<li><code>${escapeHtml(citation.docId)}</code> <q>${escapeHtml(citation.quote)}</q> <span class="note">${escapeHtml(citation.reason)}</span></li>`,
  );
  const missing = result.gold.filter((docId) => !seen.has(docId));
  const absent = new Set(result.missingFacts.map((fact) => JSON.stringify(fact)));
  const facts = result.facts.map((fact) => {
    const spellings = fact.map((spelling) => `<q>${escapeHtml(spelling)}</q>`).join(' or ');
    return absent.has(JSON.stringify(fact)) ? `<li>${spellings} <span class="note">missing</span></li>` : `<li>${spellings} present</li>`;
  });
  const cost = result.costUsd === null ? 'unknown' : `$${result.costUsd.toFixed(6)}`;
  const rows: Array<[string, string]> = [
    ['question', escapeHtml(result.question)],
    ['gold pages', result.gold.length === 0 ? '<em>none: the right outcome is to abstain</em>' : docList(result.gold)],
    ['never seen', docList(missing)],
    ['docs seen', docList(result.seenDocIds)],
    ['searches', searches.length === 0 ? '<em>none</em>' : `<ol>${searches.join('')}</ol>`],
    ['reads', reads.length === 0 ? '<em>none</em>' : `<ul>${reads.join('')}</ul>`],
    ['stop reason', `<code>${escapeHtml(trace.stopReason)}</code>`],
    ['answer', `${result.abstained ? '<span class="note">abstained</span> ' : ''}${answerHtml(run.answer)}`],
    ['citations', citations.length === 0 ? '<em>none</em>' : `<ul>${citations.join('')}</ul>`],
    ['facts', facts.length === 0 ? '<em>none listed</em>' : `<ul>${facts.join('')}</ul>`],
    ['outcome', `pass ${result.pass ? 'yes' : 'no'} &middot; correct ${result.correct ? 'yes' : 'no'}${result.factRecall === null ? '' : ` &middot; factRecall ${result.factRecall.toFixed(2)}`}`],
    ['dropped citations', dropped.length === 0 ? '<em>none</em>' : `<ul>${dropped.join('')}</ul>`],
    ['abstain reason', trace.abstainReason ? escapeHtml(trace.abstainReason) : '<em>-</em>'],
    ['errors', trace.errors.length === 0 ? '<em>none</em>' : `<ul>${trace.errors.map((error) => `<li>${escapeHtml(error)}</li>`).join('')}</ul>`],
    ['usage', `${result.modelCalls} calls, ${result.inputTokens} in / ${result.outputTokens} out tokens, cost ${cost}, ${(result.latencyMs / 1000).toFixed(3)} s`],
  ];
  const bucket = result.bucket ? `<span class="bucket bucket-${result.bucket}">${result.bucket}</span> ` : '';
  // A case that passes yet lacks facts has no failure bucket: say what it lacks.
  const lacking = result.pass && result.missingFacts.length > 0 ? `<span class="bucket">passes, missing ${result.missingFacts.length} of ${result.facts.length} facts</span> ` : '';
  const id = `case-${result.arm}-${result.caseId}`.replace(/[^A-Za-z0-9_-]/g, '-');
  return `<details class="case" id="${escapeHtml(id)}"><summary>${bucket}${lacking}<code>${escapeHtml(result.caseId)}</code> <span class="muted">${escapeHtml(result.kind)} &middot; ${escapeHtml(result.arm)}</span> ${escapeHtml(result.question)}</summary><table class="trace">${rows
    .map(([name, value]) => `<tr><th>${name}</th><td>${value}</td></tr>`)
    .join('')}</table></details>`;
}

/**
 * The answer text escaped, each unsupported claim in `<mark class="unsupported">` with its score
 * and an `[unsupported]` tag after it.
 *
 * @example
 * answerHtml(run.answer); // 'Leases last 45 minutes; <mark class="unsupported" ...>...</mark> set lease_seconds.'
 */
export function answerHtml(answer: Pick<Answer, 'text' | 'claims'>): string {
  let html = '';
  let at = 0;
  for (const { claim, start, end } of locateClaims(answer.text, answer.claims ?? [])) {
    if (claim.supported) continue;
    html += `${escapeHtml(answer.text.slice(at, start))}<mark class="unsupported" title="no verified quote supports this claim (score ${claim.score})">${escapeHtml(answer.text.slice(start, end))}</mark> <span class="note">[unsupported]</span>`;
    at = end;
  }
  return html + escapeHtml(answer.text.slice(at));
}
