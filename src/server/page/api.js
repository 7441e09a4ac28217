// The page's HTTP: requests to its own server with the stored token, errors as HttpError, and
// server-sent events read from a fetch response (EventSource cannot POST or send a header).

/** The localStorage key of the bearer token. */
export const TOKEN_KEY = 'atlas-token';

/** An error answer of the server: its status, its code and its message. */
export class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

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

export async function send(path, { body, signal } = {}) {
  const init = body === undefined ? { headers: requestHeaders(false), signal } : { method: 'POST', headers: requestHeaders(true), body: JSON.stringify(body), signal };
  const response = await fetch(path, init);
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** Server-sent events of a fetch response, as { event, data } (data is the joined data lines). */
export async function* sseEvents(response) {
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
