// One turn of the conversation on the page: the question, the trace as it grows, the answer and
// its citations. Every text from the server is set with textContent (never HTML).

/** A new turn made from the page's template (not yet placed on the page). */
export function createTurn(template, question) {
  const node = template.content.firstElementChild.cloneNode(true);
  node.querySelector('.question').textContent = question;
  return {
    node,
    trace: node.querySelector('.trace'),
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
  item.replaceChildren(`Searched ${searchWords(step.query, step.filter?.version, step.page)}: ${passages} passage${passages === 1 ? '' : 's'}, `);
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

/** Shows the answer (or the abstention) and its citations, each expanding to its quote. */
export function showAnswer(turn, answer) {
  const section = turn.node.querySelector('.answer-section');
  section.hidden = false;
  section.classList.toggle('abstained', answer.abstained);
  section.querySelector('.answer-heading').textContent = answer.abstained ? 'Abstained: the docs do not say' : 'Answer';
  section.querySelector('.answer').replaceChildren(...answerParts(answer));
  const list = section.querySelector('.citations');
  list.replaceChildren(...answer.citations.map((citation, position) => citationItem(citation, position + 1)));
  section.querySelector('.citations-heading').hidden = answer.citations.length === 0;
}

/**
 * The answer text as nodes: each claim no verified quote backs (`answer.claims`, exact
 * substrings in order) is a marked span saying so; the rest is plain text.
 */
function answerParts(answer) {
  const parts = [];
  let at = 0;
  for (const claim of answer.claims ?? []) {
    if (claim.supported) continue;
    const start = answer.text.indexOf(claim.text, at);
    if (start < 0) continue;
    if (start > at) parts.push(answer.text.slice(at, start));
    const mark = document.createElement('mark');
    mark.className = 'unsupported';
    mark.title = 'No quote the run read backs this claim.';
    mark.textContent = claim.text;
    parts.push(mark);
    at = start + claim.text.length;
  }
  if (at < answer.text.length) parts.push(answer.text.slice(at));
  return parts;
}

function citationItem(citation, number) {
  const item = document.createElement('li');
  item.className = 'citation';
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  const verified = document.createElement('span');
  verified.className = 'verified';
  verified.textContent = 'verified';
  summary.append(`[${number}] ${citation.headingPath.join(' › ')} `, code(`${citation.sourcePath}:${citation.startLine}-${citation.endLine}`), ' ', verified);
  const quote = document.createElement('blockquote');
  quote.textContent = citation.quote;
  const where = document.createElement('p');
  where.className = 'muted';
  where.append('Quoted from ', code(citation.chunkId), ` (${citation.sourcePath}, lines ${citation.startLine}-${citation.endLine}).`);
  details.append(summary, quote, where);
  item.append(details);
  return item;
}

/** The finished run: answer (unless shown already), notes and summary; returns the sentence to announce. */
export function showRun(turn, run) {
  if (turn.node.querySelector('.answer-section').hidden) showAnswer(turn, run.answer);
  const notes = [...(run.notes ?? [])];
  if (run.answer.abstained && run.trace.abstainReason) notes.unshift(`Why: ${run.trace.abstainReason}`);
  const dropped = run.trace.droppedCitations?.length ?? 0;
  if (dropped > 0) notes.push(`${dropped} citation${dropped === 1 ? ' was' : 's were'} dropped: not found in the passages read.`);
  const unsupported = (run.answer.claims ?? []).filter((claim) => !claim.supported).length;
  if (unsupported > 0) notes.push(`${unsupported} claim${unsupported === 1 ? ' is' : 's are'} not backed by a quote (marked).`);
  turn.node.querySelector('.run-notes').textContent = notes.join(' ');
  const parts = [
    run.route ? `route ${run.route}` : undefined,
    `${run.trace.steps.length} search${run.trace.steps.length === 1 ? '' : 'es'}`,
    `${run.trace.reads.length} read${run.trace.reads.length === 1 ? '' : 's'}`,
    `stop ${run.trace.stopReason}`,
    `${Math.round(run.latencyMs)} ms`,
  ];
  turn.node.querySelector('.run-summary').textContent = parts.filter(Boolean).join(' · ');
  const cited = run.answer.citations.length;
  return run.answer.abstained ? 'Atlas abstained: the docs do not say.' : `Answer ready with ${cited} verified citation${cited === 1 ? '' : 's'}.`;
}

/** Shows why the turn has no answer. */
export function showError(turn, message) {
  const error = turn.node.querySelector('.error');
  error.hidden = false;
  error.textContent = message;
  if (turn.pendingSearch) turn.pendingSearch.classList.remove('pending');
}
