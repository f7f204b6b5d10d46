// JSON parsing that tolerates the bare NaN / Infinity / -Infinity literals Python's json module
// writes, turning them into the strings "NaN", "Infinity", "-Infinity" (as the original UI did).

export function parseJsonLenient(text) {
  try {
    return JSON.parse(text)
  } catch (error) {
    const patched = patchNonFiniteLiterals(text)
    if (patched === text) throw error
    return JSON.parse(patched)
  }
}

/** Quote NaN/Infinity/-Infinity tokens that stand outside string literals. */
export function patchNonFiniteLiterals(text) {
  let out = ''
  let i = 0
  while (i < text.length) {
    const char = text[i]
    if (char === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      out += text.slice(i, j + 1)
      i = j + 1
      continue
    }
    let matched = null
    for (const token of ['-Infinity', 'Infinity', 'NaN']) {
      if (text.startsWith(token, i)) {
        matched = token
        break
      }
    }
    if (matched) {
      out += `"${matched}"`
      i += matched.length
    } else {
      out += char
      i += 1
    }
  }
  return out
}
