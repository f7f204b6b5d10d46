// Query-string serializer for the REST API: every value is percent-encoded (also ! ' ( ) *, as the
// original UI did), arrays become repeated keys (train_id=a&train_id=b), null/undefined are dropped.

export function encodeQueryComponent(value) {
  return encodeURIComponent(String(value)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

export function serializeParams(params) {
  const parts = []
  for (const [key, raw] of Object.entries(params || {})) {
    const values = Array.isArray(raw) ? raw : [raw]
    for (const value of values) {
      if (value === undefined || value === null) continue
      parts.push(`${encodeQueryComponent(key)}=${encodeQueryComponent(value)}`)
    }
  }
  return parts.join('&')
}
