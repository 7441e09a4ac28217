// The Atlas web page: asks the server, shows the trace live while a run works, then the answer
// first (scrolled into view), its [n] markers tied to the citation cards, and the trace folded
// under it; a source link opens the page's text at the cited lines. Vanilla JavaScript, no
// framework, no network beyond this server; every text from the server is set with textContent
// (never HTML).

import { HttpError, send, sseEvents, TOKEN_KEY } from './api.js';
import { parseLines, renderDoc } from './doc-view.js';
import { createTurn, showCitation, showError, showEvent, showRun } from './render.js';

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
  notice: $('conversation-notice'),
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
  docViewer: $('doc-viewer'),
  docClose: $('doc-close'),
  docError: $('doc-error'),
  doc: { title: $('doc-title'), source: $('doc-source'), body: $('doc-body') },
};

/** What the page knows: whether the conversations API answers, the current conversation, the running ask. */
const state = {
  /** undefined: not probed yet; false: the server has no conversations API; true: it has. */
  conversations: undefined,
  conversationId: undefined,
  /** The filter the current conversation was created with (a change starts a new one). */
  conversationFilter: '',
  controller: undefined,
  /** Turns made so far: names each turn's elements (`turn-3-citation-1`). */
  turnCount: 0,
  /** The document request in flight, aborted when another opens or the viewer closes. */
  docController: undefined,
};

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

function announce(message) {
  elements.status.textContent = message;
}

function addTurn(question) {
  state.turnCount += 1;
  const turn = createTurn(elements.template, question, `turn-${state.turnCount}`);
  elements.turns.append(turn.node);
  elements.empty.hidden = true;
  return turn;
}

/** Shows the finished run (its answer, closest passages, or failure) and scrolls it into view. */
function finishTurn(turn, run) {
  announce(showRun(turn, run));
  turn.node.querySelector('.answer-section').scrollIntoView({ block: 'start' });
}

function failTurn(turn, message) {
  showError(turn, message);
  announce(message);
  turn.node.querySelector('.error').scrollIntoView({ block: 'nearest' });
}

/** What the filters choose, in words: "version 3.x", "every version, store Aundh". */
function filterWords(filters) {
  const labels = Object.entries(filters.labels ?? {}).map(([name, values]) => `${name} ${values.join(', ')}`);
  return [filters.version ? `version ${filters.version}` : 'every version', ...labels].join(', ');
}

/** Starts a new conversation visibly: a running ask stops, the turns go, the notice says why. */
function startNewConversation(message) {
  state.controller?.abort();
  state.conversationId = undefined;
  elements.turns.replaceChildren();
  elements.empty.hidden = false;
  elements.notice.textContent = message;
  elements.notice.hidden = false;
  announce(message);
}

/** Opens the viewer on a page of the docs at `lines` (GET /v1/docs/:docId, with the token). */
async function openDoc(docId, lines) {
  state.docController?.abort();
  const controller = new AbortController();
  state.docController = controller;
  elements.doc.title.textContent = docId;
  elements.doc.source.textContent = 'Loading…';
  elements.doc.body.replaceChildren();
  elements.docError.hidden = true;
  if (!elements.docViewer.open) elements.docViewer.showModal();
  try {
    const path = `/v1/docs/${docId.split('/').map(encodeURIComponent).join('/')}`;
    const body = await (await send(path, { signal: controller.signal })).json();
    const cited = renderDoc(elements.doc, body, lines);
    cited?.scrollIntoView({ block: 'center' });
    announce(`Showing ${body.doc.sourcePath}${lines ? `, lines ${lines.start}-${lines.end}` : ''}.`);
  } catch (error) {
    if (controller.signal.aborted) return;
    elements.doc.source.textContent = '';
    elements.docError.hidden = false;
    elements.docError.textContent = error instanceof Error ? error.message : String(error);
  }
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
  const path = `/v1/conversations/${encodeURIComponent(state.conversationId)}/messages/stream`;
  await showRunStream(turn, await send(path, { body: { content: question }, signal }));
  return true;
}

/** Asks through POST /v1/ask/stream: the trace shows each event as it arrives. */
async function askStreaming(question, filters, turn, signal) {
  await showRunStream(turn, await send('/v1/ask/stream', { body: { question, ...filters }, signal }));
}

/**
 * Shows a streamed run (either stream route sends the same events): the trace grows with each
 * event, and the last `run` event shows the answer (or the failure) and finishes the turn.
 */
async function showRunStream(turn, response) {
  let finished = false;
  for await (const { event, data } of sseEvents(response)) {
    const payload = JSON.parse(data);
    // The answer shows with the run (right after it): only then is it known whether the run failed.
    if (event === 'answer') continue;
    else if (event === 'run') {
      finishTurn(turn, payload);
      finished = true;
    } else if (event === 'error') throw new HttpError(0, payload.error?.code, payload.error?.message ?? 'The run failed.');
    else showEvent(turn, payload);
  }
  if (!finished) throw new HttpError(0, 'stream-closed', 'The connection closed before the run finished; try again.');
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
    // A new conversation took the turn off the page: nothing to show.
    if (!turn.node.isConnected) return;
    if (controller.signal.aborted) failTurn(turn, 'Stopped.');
    else {
      if (error instanceof HttpError && error.status === 401) showTokenPanel(`${error.message} Enter the token, then ask again.`);
      failTurn(turn, error instanceof Error ? error.message : String(error));
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
  // Escape in the document viewer closes the viewer only (the dialog does that itself).
  if (event.key === 'Escape' && state.controller && !elements.docViewer.open) state.controller.abort();
});

elements.turns.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a.marker, a.source') : null;
  if (!link) return;
  event.preventDefault();
  if (link.classList.contains('marker')) showCitation(link);
  else void openDoc(link.dataset.docId, parseLines(link.dataset.lines));
});

elements.docClose.addEventListener('click', () => elements.docViewer.close());
elements.docViewer.addEventListener('close', () => state.docController?.abort());

// A new filter is a new conversation (a conversation keeps the version it was created with).
elements.version.addEventListener('change', () => startNewConversation(`New conversation for ${filterWords(currentFilters())}.`));
elements.labelFields.addEventListener('change', () => startNewConversation(`New conversation for ${filterWords(currentFilters())}.`));

elements.stopButton.addEventListener('click', () => state.controller?.abort());

elements.newConversation.addEventListener('click', () => {
  startNewConversation('New conversation.');
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
