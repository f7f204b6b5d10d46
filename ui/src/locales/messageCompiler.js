// A message compiler for the message syntax our locale files use, so the app ships vue-i18n
// without its general run-time compiler (about 9 KB gzipped on every page's first load):
// `{name}` placeholders and plural cases separated by `|` ("{count} file | {count} files",
// picked by the count passed to t()). Everything else is literal text; linked messages (`@:`),
// list placeholders and literal interpolation (`{'{'}`) are not used in our messages and stay as
// written. tests/unit/messageCompiler.test.js holds every message of both locales to this.

const PLACEHOLDER = /\{(\w+)\}/
const cache = new Map()

function compileCase(text) {
  // split() with a capturing group: even indices are text, odd ones placeholder names.
  const parts = text.split(new RegExp(PLACEHOLDER, 'g'))
  if (parts.length === 1) return (ctx) => ctx.normalize([text])
  return (ctx) => ctx.normalize(parts.map((part, index) => (index % 2 ? ctx.interpolate(ctx.named(part)) : part)))
}

/** vue-i18n's `messageCompiler` option: a message string to its message function. */
export function messageCompiler(message) {
  if (typeof message !== 'string') return () => message
  let compiled = cache.get(message)
  if (compiled) return compiled
  const cases = message.split('|').map((item) => item.trim())
  if (cases.length === 1) compiled = compileCase(message)
  else {
    const compiledCases = cases.map(compileCase)
    compiled = (ctx) => ctx.plural(compiledCases.map((format) => format(ctx)))
  }
  cache.set(message, compiled)
  return compiled
}
