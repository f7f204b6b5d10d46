import axios from 'axios'
import { parseJsonLenient } from '../lib/json.js'
import { serializeParams } from '../lib/params.js'

// Relative base URL: resolved against the document URL, so the app works under any
// --url-path-prefix (routing is by hash, the document path stays the app root).
export const API_BASE = 'v1/mindinsight'

const http = axios.create({
  baseURL: API_BASE,
  timeout: 30000,
  paramsSerializer: { serialize: serializeParams },
  transformResponse: [
    (data) => {
      if (typeof data !== 'string' || data === '') return data
      try {
        return parseJsonLenient(data)
      } catch {
        return data
      }
    },
  ],
})

// Requests of the current page; cancelled when the route changes to another page.
let pageController = new AbortController()

export function cancelPageRequests() {
  pageController.abort()
  pageController = new AbortController()
}

http.interceptors.request.use((config) => {
  if (!config.signal) config.signal = pageController.signal
  return config
})

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

export function isCancel(error) {
  return axios.isCancel(error) || error?.name === 'CanceledError' || error?.code === 'ERR_CANCELED'
}

function toApiError(error) {
  if (isCancel(error)) return error
  const response = error?.response
  const body = response?.data
  if (body && typeof body === 'object' && (body.error_msg || body.error_code)) {
    return new ApiError(body.error_msg || '', { code: body.error_code || null, status: response.status })
  }
  // A body that is not the API's JSON (proxy error page, 414 from the HTTP server...).
  if (response) return new ApiError('', { status: response.status })
  return new ApiError(error?.message || '', { network: true })
}

export async function get(url, params, options = {}) {
  try {
    const response = await http.get(url, { params, signal: options.signal })
    return response.data
  } catch (error) {
    throw toApiError(error)
  }
}

export async function post(url, body, params, options = {}) {
  try {
    const response = await http.post(url, body, { params, signal: options.signal })
    return response.data
  } catch (error) {
    throw toApiError(error)
  }
}

export default http
