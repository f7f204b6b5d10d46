"""Map every error to the original's JSON body; never a traceback or an HTML page."""

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from mindinsight.errors import MethodNotAllowedError, MindInsightError, RouteNotFoundError, UnknownError

logger = logging.getLogger(__name__)


def error_response(error: MindInsightError):
    response = jsonify(error.to_json())
    response.status_code = error.http_status
    return response


def register(app: Flask) -> None:
    @app.errorhandler(MindInsightError)
    def _mindinsight_error(error):
        return error_response(error)

    @app.errorhandler(NotFound)
    def _not_found(_error):
        return error_response(RouteNotFoundError())

    @app.errorhandler(MethodNotAllowed)
    def _method_not_allowed(error):
        response = error_response(MethodNotAllowedError())
        if error.valid_methods:  # RFC 9110: a 405 lists the methods the resource supports
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response

    @app.errorhandler(HTTPException)
    def _http_error(error):
        # Other client errors werkzeug raises (e.g. a bad JSON body): answer them as a bad value.
        from mindinsight.errors import ParamValueError

        if error.code and 400 <= error.code < 500:
            wrapped = ParamValueError(error.description or error.name)
            response = error_response(wrapped)
            response.status_code = error.code
            return response
        return error_response(UnknownError(error.name))

    @app.errorhandler(Exception)
    def _unexpected(error):
        logger.exception("unexpected error: %s", error)
        return error_response(UnknownError())
