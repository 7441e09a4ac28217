// One turn of the conversation on the page: the question, the answer with its [n] markers tied to
// the citation cards, the closest passages of an abstention, and the trace folded under them.
// Every text from the server is set with textContent (never HTML): document text is untrusted.

/** A new turn made from the page's template (not yet placed on the page); `id` names its elements (`turn-3`). */
export function createTurn(template, question, id) {
  const node = template.content.firstElementChild.cloneNode(true);
  node.querySelector('.question').textContent = question;
  return {
    id,
    node,
    trace: node.querySelector('.trace'),
    traceSection: node.querySelector('.trace-section'),
    pendingSearch: undefined,
    searches: 0,
    reads: 0,
  };
}

/** Appends an item to the turn's trace list. */
export function traceItem(turn, className) {
  const item = document.createElement('li');
  if (className) item.className = className;
  turn.trace.append(item);
  return item;
}

function code(text) {
  const element = document.createElement('code');
  element.textContent = text;
  return element;
}

/**
 * A quote's markdown as a reader reads it, still set as text: link targets dropped (`[the
 * guide](g.md)` -> `the guide`), `**bold**` markers dropped, HTML entities decoded (`&apos;`,
 * `&mdash;`), a fenced code block as its lines in code spans (a sentence quoted with its
 * example); code spans, placeholders (`<queue>`) and a `*` or `_` in a value kept as written.
 */
export function quoteText(markdown) {
  return markdown
    .replace(FENCED_BLOCK, (block, fence, code) => code.split('\n').map((line) => line.replace(CODE_MARK, '').trim()).filter((line) => line !== '').map((line) => (line.includes('`') ? line : `\`${line}\``)).join(' '))
    .replace(/!?\[([^\]\n]*)\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g, '$1')
    .replace(/\*\*(?=\S)([^*\n]+?)\*\*/g, '$1')
    .replace(/&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, decodeEntity);
}

/** VitePress's (Shiki's) notation comments in a code line (`// [!code error]`): colours on the site, not code. */
const CODE_MARK = /\s*(?:\/\/|#|<!--|\/\*)\s*\[!code [^\]\n]*\](?:\s*(?:-->|\*\/))?/g;

/** A fenced code block: its fence, and its code. */
const FENCED_BLOCK = /^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/gm;

/** Named entities docs write (an unknown one stays as written). */
const ENTITIES = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', mdash: '\u2014', ndash: '\u2013', hellip: '\u2026',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', laquo: '\u00ab', raquo: '\u00bb', copy: '\u00a9',
  reg: '\u00ae', trade: '\u2122', times: '\u00d7', divide: '\u00f7', deg: '\u00b0', plusmn: '\u00b1', middot: '\u00b7',
  bull: '\u2022', rarr: '\u2192', larr: '\u2190', harr: '\u2194', uarr: '\u2191', darr: '\u2193', shy: '',
};

/** One HTML entity as its character: `&#39;`, `&#x2014;`, or a name of {@link ENTITIES}. */
function decodeEntity(entity) {
  const body = entity.slice(1, -1);
  if (body.startsWith('#')) {
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  return Object.hasOwn(ENTITIES, body) ? ENTITIES[body] : entity;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : word.endsWith('h') ? 'es' : 's'}`;
}

function searchWords(query, version, page) {
  const where = version ? ` in ${version}` : '';
  return `“${query}”${where}${page && page > 1 ? ` (page ${page})` : ''}`;
}

/** Shows one run event of the stream (run-start, search-start, search-end, read, run-end) in the trace. */
export function showEvent(turn, event) {
  if (event.type === 'run-start') {
    traceItem(turn, 'run-start').textContent = 'Started.';
  } else if (event.type === 'search-start') {
    const item = traceItem(turn, 'search pending');
    item.textContent = `Searching ${searchWords(event.query, event.version, event.page)}`;
    turn.pendingSearch = item;
  } else if (event.type === 'search-end') {
    showSearch(turn, event.step);
  } else if (event.type === 'read') {
    showRead(turn, event.read);
  } else if (event.type === 'run-end') {
    traceItem(turn, 'run-end').textContent = `Finished (stop: ${event.stopReason}).`;
  }
}

function showSearch(turn, step) {
  const item = turn.pendingSearch ?? traceItem(turn, 'search');
  turn.pendingSearch = undefined;
  turn.searches += 1;
  item.className = 'search';
  const passages = step.chunkIds.length;
  item.replaceChildren(`Searched ${searchWords(step.query, step.filter?.version, step.page)}: ${plural(passages, 'passage')}, `);
  if (step.newDocIds.length === 0) item.append('no new documents');
  else {
    item.append(`new document${step.newDocIds.length === 1 ? '' : 's'}: `);
    step.newDocIds.forEach((docId, position) => {
      if (position > 0) item.append(', ');
      item.append(code(docId));
    });
  }
  if (step.note) item.append(` (${step.note.replace(/-/g, ' ')})`);
  item.append('.');
}

/** Reads in a row share one trace item: "Read flows#2, api-flow#3 (the sections around it)". */
function showRead(turn, read) {
  turn.reads += 1;
  const last = turn.trace.lastElementChild;
  const item = last !== null && last.classList.contains('read') ? last : traceItem(turn, 'read');
  item.append(item === last ? ', ' : 'Read ', code(read.chunkId));
  if (read.tool === 'read_neighbors') item.append(' (the sections around it)');
  if (read.offset) item.append(` from character ${read.offset}`);
  if (!read.found) item.append(' (not found)');
}

/**
 * Why a run has no answer, when it failed rather than abstained: the model failed or a time limit
 * ended it (stop `error`, `timeout`, `deadline`), or it gave no usable answer. Undefined for any
 * other run: an abstention is an answer from the docs, a failure is not.
 */
export function runFailure(run) {
  const trace = run.trace ?? {};
  const reason = trace.abstainReason ?? '';
  const stop = trace.stopReason;
  const failedStop = stop === 'error' || stop === 'timeout' || stop === 'deadline';
  if (!failedStop && !reason.startsWith('no usable answer')) return undefined;
  const cause = String(trace.errors?.at(-1) ?? reason.replace(/^no usable answer:\s*/, '')).replace(/\.$/, '');
  if (stop === 'timeout' || stop === 'deadline' || /timed out|deadline/.test(cause)) {
    const limit = /(?:deadline of|timed out after) (\d+(?:\.\d+)? ?(?:ms|s|min))/.exec(cause)?.[1] ?? `${Math.round((run.latencyMs ?? 0) / 1000)} s`;
    const waiting = stop === 'timeout' ? ' waiting for the model' : '';
    return { heading: 'The run timed out', message: `The run timed out after ${limit}${waiting}; try again.` };
  }
  return { heading: 'The run failed', message: `The run failed (${cause || 'no usable answer'}); try again.` };
}

/**
 * Shows the answer (or the abstention) first in the turn: its text with each `[n]` marker a link
 * to citation card n, the cards (heading path, source link, quote), and the closest passages of an
 * abstention that found no direct answer. The trace folds under it.
 */
export function showAnswer(turn, answer) {
  const section = turn.node.querySelector('.answer-section');
  section.hidden = false;
  section.classList.remove('failed');
  section.classList.toggle('abstained', answer.abstained);
  const closest = answer.closest ?? [];
  section.querySelector('.answer-heading').textContent = !answer.abstained
    ? 'Answer'
    : closest.length > 0
      ? 'Abstained: no direct answer in the docs'
      : 'Abstained: the docs do not say';
  const text = section.querySelector('.answer');
  text.replaceChildren(...answerParts(turn, answer));
  // dir="auto" set again after the text: Chromium kept the direction it had resolved for the
  // empty element (left to right), and an Arabic or Hebrew answer must read right to left.
  text.removeAttribute('dir');
  text.dir = 'auto';
  const list = section.querySelector('.citations');
  list.replaceChildren(...answer.citations.map((citation, position) => citationCard(turn, citation, position + 1)));
  section.querySelector('.citations-heading').hidden = answer.citations.length === 0;
  section.querySelector('.closest').replaceChildren(...closest.map(closestItem));
  section.querySelector('.closest-heading').hidden = closest.length === 0;
  foldTrace(turn);
}

/** Shows a run that failed (timed out, model error) as a failure, never as "the docs do not say". */
export function showFailure(turn, failure) {
  const section = turn.node.querySelector('.answer-section');
  section.hidden = false;
  section.classList.remove('abstained');
  section.classList.add('failed');
  section.querySelector('.answer-heading').textContent = failure.heading;
  section.querySelector('.answer').textContent = failure.message;
  section.querySelector('.citations').replaceChildren();
  section.querySelector('.citations-heading').hidden = true;
  section.querySelector('.closest').replaceChildren();
  section.querySelector('.closest-heading').hidden = true;
  foldTrace(turn);
}

/** Folds the trace under the answer, its summary counting what the run did. */
function foldTrace(turn) {
  turn.traceSection.open = false;
  turn.traceSection.querySelector('summary').textContent = `Trace: ${plural(turn.searches, 'search')}, ${plural(turn.reads, 'read')}`;
}

/**
 * The answer text as nodes: each claim no verified quote backs (`answer.claims`, exact
 * substrings in order) is a marked span saying so; each `[n]` marker of a citation is a link to
 * its card; the rest is plain text.
 */
function answerParts(turn, answer) {
  const parts = [];
  let at = 0;
  const count = answer.citations.length;
  for (const claim of answer.claims ?? []) {
    if (claim.supported) continue;
    const start = answer.text.indexOf(claim.text, at);
    if (start < 0) continue;
    if (start > at) parts.push(...withMarkers(turn, answer.text.slice(at, start), count));
    const mark = document.createElement('mark');
    mark.className = 'unsupported';
    mark.title = 'No quote the run read backs this claim.';
    mark.append(...withMarkers(turn, claim.text, count));
    parts.push(mark);
    at = start + claim.text.length;
  }
  if (at < answer.text.length) parts.push(...withMarkers(turn, answer.text.slice(at), count));
  return parts;
}

/** A text as nodes, each marker `[n]` of one of the `count` citations a link to card n. */
function withMarkers(turn, text, count) {
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const number = Number(match[1]);
    if (number < 1 || number > count) continue;
    if (match.index > at) parts.push(text.slice(at, match.index));
    const link = document.createElement('a');
    link.className = 'marker';
    link.href = `#${cardId(turn, number)}`;
    link.dataset.citation = String(number);
    link.setAttribute('aria-label', `Citation ${number}`);
    link.textContent = match[0];
    parts.push(link);
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

function cardId(turn, number) {
  return `${turn.id}-citation-${number}`;
}

/** `file:start-end` as a link that opens the page's text at those lines (the page wires the click). */
export function sourceLink(place) {
  const link = document.createElement('a');
  link.className = 'source';
  link.href = `/v1/docs/${place.docId.split('/').map(encodeURIComponent).join('/')}?lines=${place.startLine}-${place.endLine}`;
  link.dataset.docId = place.docId;
  link.dataset.lines = `${place.startLine}-${place.endLine}`;
  link.textContent = `${place.sourcePath}:${place.startLine}-${place.endLine}`;
  return link;
}

function citationCard(turn, citation, number) {
  const item = document.createElement('li');
  item.className = 'citation';
  item.id = cardId(turn, number);
  item.tabIndex = -1;
  const head = document.createElement('p');
  head.className = 'citation-head';
  // A quote no longer in the docs as they are now (the page changed since it was read) is marked stale, never verified.
  const verified = document.createElement('span');
  verified.className = citation.stale ? 'stale' : 'verified';
  verified.textContent = citation.stale ? 'stale' : 'verified';
  if (citation.stale) verified.title = citation.stale.reason;
  head.append(`[${number}] ${citation.headingPath.join(' › ')} `, sourceLink(citation), ' ', verified);
  const quote = document.createElement('blockquote');
  // Arabic, Hebrew or Persian text reads right to left: each text takes its direction from its first letter.
  quote.dir = 'auto';
  quote.textContent = quoteText(citation.quote);
  item.append(head, quote);
  return item;
}

function closestItem(passage) {
  const item = document.createElement('li');
  item.className = 'closest-passage';
  const head = document.createElement('p');
  head.className = 'citation-head';
  head.append(`${passage.headingPath.join(' › ')} `, sourceLink(passage));
  const quote = document.createElement('blockquote');
  for (const sentence of passage.sentences) {
    const line = document.createElement('p');
    line.dir = 'auto';
    line.textContent = quoteText(sentence);
    quote.append(line);
  }
  item.append(head, quote);
  return item;
}

/** Scrolls to citation card n of the turn holding `marker`, highlights it (only it) and focuses it. */
export function showCitation(marker) {
  const turn = marker.closest('.turn');
  const card = turn?.querySelector(`#${CSS.escape(marker.hash.slice(1))}`);
  if (!card) return;
  for (const other of turn.querySelectorAll('.citation.highlight')) other.classList.remove('highlight');
  card.classList.add('highlight');
  card.scrollIntoView({ block: 'center' });
  card.focus({ preventScroll: true });
}

/** The finished run: answer or failure, notes and summary; returns the sentence to announce. */
export function showRun(turn, run) {
  const failure = runFailure(run);
  if (failure) showFailure(turn, failure);
  else showAnswer(turn, run.answer);
  const notes = [...(run.notes ?? [])];
  if (!failure && run.answer.abstained && run.trace.abstainReason) notes.unshift(`Why: ${run.trace.abstainReason}`);
  const dropped = run.trace.droppedCitations?.length ?? 0;
  if (dropped > 0) notes.push(`${dropped} citation${dropped === 1 ? ' was' : 's were'} dropped: not found in the passages read.`);
  const unsupported = (run.answer.claims ?? []).filter((claim) => !claim.supported).length;
  if (unsupported > 0) notes.push(`${unsupported} claim${unsupported === 1 ? ' is' : 's are'} not backed by a quote (marked).`);
  turn.node.querySelector('.run-notes').textContent = notes.join(' ');
  const parts = [
    run.route ? `route ${run.route}` : undefined,
    plural(run.trace.steps.length, 'search'),
    plural(run.trace.reads.length, 'read'),
    `stop ${run.trace.stopReason}`,
    `${Math.round(run.latencyMs)} ms`,
  ];
  turn.node.querySelector('.run-summary').textContent = parts.filter(Boolean).join(' · ');
  if (failure) return failure.message;
  const cited = run.answer.citations.length;
  if (run.answer.abstained) return (run.answer.closest ?? []).length > 0 ? 'Atlas found no direct answer; the closest passages in the docs are shown.' : 'Atlas abstained: the docs do not say.';
  return `Answer ready with ${cited} verified citation${cited === 1 ? '' : 's'}.`;
}

/** Shows why the turn has no answer. */
export function showError(turn, message) {
  const error = turn.node.querySelector('.error');
  error.hidden = false;
  error.textContent = message;
  if (turn.pendingSearch) turn.pendingSearch.classList.remove('pending');
  turn.traceSection.querySelector('summary').textContent = `Trace: ${plural(turn.searches, 'search')}, ${plural(turn.reads, 'read')}`;
}
