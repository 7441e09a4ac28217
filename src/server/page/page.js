// The Atlas web page: asks the server, shows the trace live while a run works, then the answer
// with citations that expand to their quoted passage. Vanilla JavaScript, no framework, no
// network beyond this server; every text from the server is set with textContent (never HTML).

import { HttpError, send, sseEvents, TOKEN_KEY } from './api.js';
import { createTurn, showAnswer, showError, showEvent, showRun } from './render.js';

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
  const turn = createTurn(elements.template, question);
  elements.turns.append(turn.node);
  elements.empty.hidden = true;
  return turn;
}

function finishTurn(turn, run) {
  announce(showRun(turn, run));
}

function failTurn(turn, message) {
  showError(turn, message);
  announce(message);
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
 * event, the answer shows when it arrives, and the last `run` event finishes the turn.
 */
async function showRunStream(turn, response) {
  for await (const { event, data } of sseEvents(response)) {
    const payload = JSON.parse(data);
    if (event === 'answer') showAnswer(turn, payload.answer);
    else if (event === 'run') finishTurn(turn, payload);
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
