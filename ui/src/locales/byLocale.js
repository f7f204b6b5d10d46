/** `{locale: {namespace: messages}}` from a glob of `./<locale>/<namespace>.json` files. */
export function byLocale(files) {
  const messages = {}
  for (const [path, content] of Object.entries(files)) {
    const [, locale, namespace] = path.match(/^\.\/([^/]+)\/([^/]+)\.json$/)
    messages[locale] = { ...messages[locale], [namespace]: content }
  }
  return messages
}
