// The Atlas web page: asks the server, shows the trace live while a run works, then the answer
// with citations that expand to their quoted passage. Vanilla JavaScript, no framework, no
// network beyond this server; every text from the server is set with textContent (never HTML).

const TOKEN_KEY = 'atlas-token';

const $ = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`atlas page: #${id} is missing from index.html`);
  return element;
};

const elements = {
  indexStatus: $('index-status'),
  tokenPanel: $('token-panel'),
  tokenMessage: $('token-message'),
  tokenForm: $('token-form'),
  token: $('token'),
  tokenForget: $('token-forget'),
  conversationMode: $('conversation-mode'),
  newConversation: $('new-conversation'),
  empty: $('empty-conversation'),
  turns: $('turns'),
  form: $('ask-form'),
  question: $('question'),
  version: $('version'),
  labelFields: $('label-fields'),
  askButton: $('ask-button'),
  stopButton: $('stop-button'),
  status: $('status'),
  template: $('turn-template'),
};

/** What the page knows: whether the conversations API answers, the current conversation, the running ask. */
const state = {
  /** undefined: not probed yet; false: the server has no conversations API; true: it has. */
  conversations: undefined,
  conversationId: undefined,
  /** The filter the current conversation was created with (a change starts a new one). */
  conversationFilter: '',
  controller: undefined,
};

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// ---------------------------------------------------------------- HTTP

function requestHeaders(json) {
  const headers = {};
  if (json) headers['content-type'] = 'application/json';
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

async function errorOf(response) {
  try {
    const body = await response.json();
    const message = body?.error?.message ?? `The server answered ${response.status}.`;
    return new HttpError(response.status, body?.error?.code, message);
  } catch {
    return new HttpError(response.status, undefined, `The server answered ${response.status} ${response.statusText}.`);
  }
}

async function send(path, { body, signal } = {}) {
  const init = body === undefined ? { headers: requestHeaders(false), signal } : { method: 'POST', headers: requestHeaders(true), body: JSON.stringify(body), signal };
  const response = await fetch(path, init);
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** Server-sent events of a fetch response, as { event, data } (data is the joined data lines). */
async function* sseEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, '\n');
    let cut;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const event = parseSseBlock(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (event) yield event;
    }
  }
}

function parseSseBlock(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { event, data: data.join('\n') };
}

// ---------------------------------------------------------------- token and facets

function showTokenPanel(message) {
  elements.tokenPanel.hidden = false;
  if (message) elements.tokenMessage.textContent = message;
  elements.token.value = localStorage.getItem(TOKEN_KEY) ?? '';
}

async function loadIndexStatus() {
  try {
    const health = await (await send('/healthz')).json();
    elements.indexStatus.textContent = `${health.docs} documents, ${health.chunks} passages indexed. Every answer cites the passages it read.`;
  } catch {
    elements.indexStatus.textContent = 'The server did not report its index (GET /healthz failed).';
  }
}

async function loadFacets() {
  let facets;
  try {
    facets = await (await send('/v1/facets')).json();
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) showTokenPanel(`${error.message} The token is kept in this browser only (localStorage).`);
    return;
  }
  elements.tokenPanel.hidden = localStorage.getItem(TOKEN_KEY) === null;
  fillSelect(elements.version, 'Every version', facets.versions ?? []);
  elements.labelFields.replaceChildren();
  for (const [name, values] of Object.entries(facets.labels ?? {})) {
    const field = document.createElement('div');
    field.className = 'field';
    const label = document.createElement('label');
    label.htmlFor = `label-${name}`;
    label.textContent = name;
    const select = document.createElement('select');
    select.id = `label-${name}`;
    select.dataset.label = name;
    fillSelect(select, `Any ${name}`, values);
    field.append(label, select);
    elements.labelFields.append(field);
  }
}

function fillSelect(select, anyText, values) {
  const current = select.value;
  const any = new Option(anyText, '');
  select.replaceChildren(any, ...values.map((value) => new Option(value, value)));
  if (values.includes(current)) select.value = current;
}

function currentFilters() {
  const filters = {};
  if (elements.version.value) filters.version = elements.version.value;
  const labels = {};
  for (const select of elements.labelFields.querySelectorAll('select[data-label]')) {
    if (select.value) labels[select.dataset.label] = [select.value];
  }
  if (Object.keys(labels).length > 0) filters.labels = labels;
  return filters;
}

// ---------------------------------------------------------------- one turn on the page

function addTurn(question) {
  const node = elements.template.content.firstElementChild.cloneNode(true);
  node.querySelector('.question').textContent = question;
  elements.turns.append(node);
  elements.empty.hidden = true;
  return {
    node,
    trace: node.querySelector('.trace'),
    pendingSearch: undefined,
    searches: 0,
    reads: 0,
  };
}

function traceItem(turn, className) {
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

function showEvent(turn, event) {
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

function showRead(turn, read) {
  turn.reads += 1;
  const item = traceItem(turn, 'read');
  item.append(read.tool === 'read_neighbors' ? 'Read the sections around ' : 'Read ', code(read.chunkId));
  if (read.offset) item.append(` from character ${read.offset}`);
  item.append(read.found ? '.' : ' (not found).');
}

/** The trace of a run that did not stream (a conversation turn): its searches and reads, in order. */
function showTrace(turn, trace) {
  for (const step of trace.steps ?? []) showSearch(turn, step);
  for (const read of trace.reads ?? []) showRead(turn, read);
  traceItem(turn, 'run-end').textContent = `Finished (stop: ${trace.stopReason}).`;
}

function showAnswer(turn, answer) {
  const section = turn.node.querySelector('.answer-section');
  section.hidden = false;
  section.classList.toggle('abstained', answer.abstained);
  section.querySelector('.answer-heading').textContent = answer.abstained ? 'Abstained: the docs do not say' : 'Answer';
  section.querySelector('.answer').textContent = answer.text;
  const list = section.querySelector('.citations');
  list.replaceChildren(...answer.citations.map((citation, position) => citationItem(citation, position + 1)));
  section.querySelector('.citations-heading').hidden = answer.citations.length === 0;
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

function showRun(turn, run) {
  if (turn.node.querySelector('.answer-section').hidden) showAnswer(turn, run.answer);
  const notes = [...(run.notes ?? [])];
  if (run.answer.abstained && run.trace.abstainReason) notes.unshift(`Why: ${run.trace.abstainReason}`);
  const dropped = run.trace.droppedCitations?.length ?? 0;
  if (dropped > 0) notes.push(`${dropped} citation${dropped === 1 ? ' was' : 's were'} dropped: not found in the passages read.`);
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
  announce(run.answer.abstained ? 'Atlas abstained: the docs do not say.' : `Answer ready with ${cited} verified citation${cited === 1 ? '' : 's'}.`);
}

function showError(turn, message) {
  const error = turn.node.querySelector('.error');
  error.hidden = false;
  error.textContent = message;
  if (turn.pendingSearch) turn.pendingSearch.classList.remove('pending');
  announce(message);
}

function announce(message) {
  elements.status.textContent = message;
}

// ---------------------------------------------------------------- asking

/**
 * Asks through the conversations API; false when the server has none, or when a label is chosen
 * (a conversation is created with a version only), and the caller streams the question instead.
 */
async function askInConversation(question, filters, turn, signal) {
  if (state.conversations === false || filters.labels !== undefined) return false;
  const body = filters.version ? { version: filters.version } : {};
  const filterKey = JSON.stringify(body);
  if (state.conversationId === undefined || state.conversationFilter !== filterKey) {
    try {
      const created = await (await send('/v1/conversations', { body, signal })).json();
      state.conversations = true;
      state.conversationId = created.id;
      state.conversationFilter = filterKey;
    } catch (error) {
      if (error instanceof HttpError && (error.status === 404 || error.status === 405)) {
        state.conversations = false;
        showMode();
        return false;
      }
      throw error;
    }
    showMode();
  }
  traceItem(turn, 'pending').textContent = 'Working (a conversation turn shows its trace when it is done)';
  const run = await (await send(`/v1/conversations/${encodeURIComponent(state.conversationId)}/messages`, { body: { content: question }, signal })).json();
  turn.trace.replaceChildren();
  showTrace(turn, run.trace);
  showAnswer(turn, run.answer);
  showRun(turn, run);
  return true;
}

/** Asks through POST /v1/ask/stream: the trace shows each event as it arrives. */
async function askStreaming(question, filters, turn, signal) {
  const response = await send('/v1/ask/stream', { body: { question, ...filters }, signal });
  for await (const { event, data } of sseEvents(response)) {
    const payload = JSON.parse(data);
    if (event === 'answer') showAnswer(turn, payload.answer);
    else if (event === 'run') showRun(turn, payload);
    else if (event === 'error') throw new HttpError(0, payload.error?.code, payload.error?.message ?? 'The run failed.');
    else showEvent(turn, payload);
  }
}

async function ask(question) {
  const turn = addTurn(question);
  const controller = new AbortController();
  state.controller = controller;
  setRunning(true);
  announce('Searching the docs…');
  try {
    const filters = currentFilters();
    const answered = await askInConversation(question, filters, turn, controller.signal);
    if (!answered) await askStreaming(question, filters, turn, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) showError(turn, 'Stopped.');
    else {
      if (error instanceof HttpError && error.status === 401) showTokenPanel(`${error.message} Enter the token, then ask again.`);
      showError(turn, error instanceof Error ? error.message : String(error));
    }
  } finally {
    state.controller = undefined;
    setRunning(false);
  }
}

function setRunning(running) {
  elements.askButton.disabled = running;
  elements.stopButton.disabled = !running;
  elements.turns.setAttribute('aria-busy', String(running));
}

function showMode() {
  elements.conversationMode.textContent =
    state.conversations === true ? 'Follow-up questions remember this conversation.' : state.conversations === false ? 'Each question is answered on its own (this server keeps no conversations).' : '';
}

// ---------------------------------------------------------------- wiring

elements.form.addEventListener('submit', (event) => {
  event.preventDefault();
  const question = elements.question.value.trim();
  if (question === '' || state.controller) return;
  elements.question.value = '';
  void ask(question);
});

elements.question.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    elements.form.requestSubmit();
  }
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && state.controller) state.controller.abort();
});

elements.stopButton.addEventListener('click', () => state.controller?.abort());

elements.newConversation.addEventListener('click', () => {
  state.conversationId = undefined;
  elements.turns.replaceChildren();
  elements.empty.hidden = false;
  announce('New conversation.');
  elements.question.focus();
});

elements.tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  localStorage.setItem(TOKEN_KEY, elements.token.value.trim());
  announce('Token saved in this browser.');
  void loadFacets();
});

elements.tokenForget.addEventListener('click', () => {
  localStorage.removeItem(TOKEN_KEY);
  elements.token.value = '';
  announce('Token forgotten.');
});

void loadIndexStatus();
void loadFacets();
elements.question.focus();
