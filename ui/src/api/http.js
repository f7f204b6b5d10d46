import { parseJsonLenient } from '@/lib/json.js'
import { serializeParams } from '@/lib/params.js'

// The browser's fetch: the few things the app needs from an HTTP client (query strings, JSON,
// cancellation, a timeout) are a few lines on top of it, and a client library would be a fifth
// of the JavaScript every page loads first.

// Relative base URL: resolved against the document URL, so the app works under any
// --url-path-prefix (routing is by hash, the document path stays the app root).
export const API_BASE = 'v1/mindinsight'
export const TIMEOUT_MS = 30000

/**
 * What a caller may add to a request: its own `signal` replaces the page's, so the request
 * outlives a route change.
 * @typedef {{signal?: AbortSignal}} RequestOptions
 */

// Requests of the current page; cancelled when the route changes to another page.
let pageController = new AbortController()

export function cancelPageRequests() {
  pageController.abort()
  pageController = new AbortController()
  early.clear()
}

// Answers asked for before their page's code is in. A route's `askEarly(ask)` runs `ask`, and each
// request `ask` makes is kept: the page's first identical request (method, address, body) takes
// that answer instead of asking again, so the answer and the page's code load together rather
// than one after the other. Leaving the page, or EARLY_FRESH_MS, drops the answers not taken.
const early = new Map() // request key -> {answer, at}
const EARLY_FRESH_MS = 10000
let askingEarly = false

/**
 * Runs `ask`, whose requests (made at once, not after an await) are kept for the page's first
 * identical ones; a failure is handed to the page that takes it.
 */
export function askEarly(ask) {
  askingEarly = true
  try {
    ask()
  } finally {
    askingEarly = false
  }
}

/**
 * A read: one kept by askEarly when it is the same, else a new request.
 * @param {string} method
 * @param {string} url below API_BASE
 * @param {{params?: object, body?: unknown, signal?: AbortSignal}} [request]
 * @returns {Promise<any>}
 */
function read(method, url, { params, body, signal } = {}) {
  if (!askingEarly && !early.size) return request(method, url, { params, body, signal })
  const key = `${method} ${apiUrl(url, params)} ${body === undefined ? '' : JSON.stringify(body)}`
  if (askingEarly) {
    const answer = request(method, url, { params, body, signal })
    answer.catch(() => {}) // one nobody takes is no unhandled rejection
    early.set(key, { answer, at: Date.now() })
    return answer
  }
  const kept = !signal && early.get(key)
  if (!kept) return request(method, url, { params, body, signal })
  early.delete(key)
  return Date.now() - kept.at < EARLY_FRESH_MS ? kept.answer : request(method, url, { params, body, signal })
}

/** An API failure: `message` is the server's error_msg when there is one. */
export class ApiError extends Error {
  constructor(message, { code = null, status = null, network = false } = {}) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.network = network
  }
}

/** A request cancelled on purpose (page left, caller's signal): not an error to show. */
export function isCancel(error) {
  return error?.name === 'AbortError' || error?.name === 'CanceledError' || error?.code === 'ERR_CANCELED'
}

/** The request URL: API_BASE/url?query. */
export function apiUrl(url, params) {
  const query = serializeParams(params)
  return `${API_BASE}/${url}${query ? `?${query}` : ''}`
}

function parseBody(text) {
  if (text === '') return text
  try {
    return parseJsonLenient(text)
  } catch {
    return text
  }
}

/** The ApiError for a failed answer: the API's `{error_code, error_msg}` when the body is one. */
export function answerError(status, body) {
  if (body && typeof body === 'object' && (body.error_msg || body.error_code)) {
    return new ApiError(body.error_msg || '', { code: body.error_code || null, status })
  }
  // A body that is not the API's JSON (proxy error page, 414 from the HTTP server...).
  return new ApiError('', { status })
}

/**
 * The answer's parsed JSON (text when it is not JSON); an ApiError for any failure.
 * @param {string} method
 * @param {string} url below API_BASE
 * @param {{params?: object, body?: unknown, signal?: AbortSignal}} [request]
 * @returns {Promise<any>}
 */
async function request(method, url, { params, body, signal } = {}) {
  // The caller's signal replaces the page's: such a request outlives a route change on purpose.
  const signals = [signal || pageController.signal, AbortSignal.timeout(TIMEOUT_MS)]
  const init = { method, signal: AbortSignal.any(signals), headers: { Accept: 'application/json' } }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    init.headers['Content-Type'] = 'application/json'
  }
  let response
  let text
  try {
    response = await fetch(apiUrl(url, params), init)
    text = await response.text()
  } catch (error) {
    if (isCancel(error)) throw error
    // Server unreachable, connection dropped, or no answer within TIMEOUT_MS (TimeoutError).
    throw new ApiError(error?.message || '', { network: true })
  }
  const data = parseBody(text)
  if (!response.ok) throw answerError(response.status, data)
  return data
}

export function get(url, params, options = {}) {
  return read('GET', url, { params, signal: options.signal })
}

export function post(url, body, params, options = {}) {
  return read('POST', url, { params, body, signal: options.signal })
}

export function put(url, body, params, options = {}) {
  return request('PUT', url, { params, body, signal: options.signal })
}
