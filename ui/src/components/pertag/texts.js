/**
 * The text `key` of a per-tag kind: its own namespace's (`<plugin>.<key>`, the image, histogram and
 * tensor pages have one), else its section of the shared per-tag messages (`pertag.<plugin>.<key>`:
 * a kind added since needs no locale file of its own), else the frame's shared one (`pertag.<key>`),
 * else `fallback` (a full key). `t` and `te` are vue-i18n's.
 */
export function kindText(t, te, plugin, key, params = {}, fallback = null) {
  const keys = [`${plugin}.${key}`, `pertag.${plugin}.${key}`, `pertag.${key}`]
  if (fallback) keys.push(fallback)
  const found = keys.find((candidate) => te(candidate)) ?? keys[0]
  return t(found, params)
}
