/**
 * The text shown for a failed request: the server's error_msg when it sent one, else a translated
 * description (server unreachable, HTTP status, generic failure). `t` is vue-i18n's translate.
 */
export function describeError(error, t) {
  if (error?.network) return t('common.networkError')
  if (error?.message) return error.message
  if (error?.status) return t('common.httpStatus', { status: error.status })
  return t('common.requestFailed')
}
