"""Every error a user can cause: a named exception with the original's error code.

The backend maps ``MindInsightError`` to JSON ``{"error_code", "error_msg"}`` once; lower
layers raise these and never know about HTTP beyond the status each error carries.
Codes: ``(1<<30)|(1<<28)|(42<<17)|(module<<12)|value`` printed as 8 upper-case hex digits.
"""

from enum import IntEnum


class Module(IntEnum):
    GENERAL = 0
    LINEAGE = 2
    DATAVISUAL = 5
    PROFILER = 6


def error_code(module: Module, value: int) -> str:
    """The 8-hex-digit error code string, e.g. ``50545005``."""
    return f"{(1 << 30) | (1 << 28) | (42 << 17) | (int(module) << 12) | value:08X}"


class MindInsightError(Exception):
    """Base of every user-visible error."""

    module = Module.GENERAL
    value = 0
    http_status = 400
    prefix = "System error."
    # The message when it is not "<prefix> Detail: <detail>": a format string of ``prefix`` and
    # ``detail`` (the original's message shapes differ per error).
    template: str | None = None

    def __init__(self, detail: str = ""):
        self.detail = detail
        super().__init__(self.message)

    @property
    def code(self) -> str:
        return error_code(self.module, self.value)

    @property
    def message(self) -> str:
        if self.template is not None:
            return self.template.format(prefix=self.prefix, detail=self.detail)
        return f"{self.prefix} Detail: {self.detail}" if self.detail else self.prefix

    def to_json(self) -> dict:
        return {"error_code": self.code, "error_msg": self.message}


# -- the modules' bases ---------------------------------------------------------------


class LineageError(MindInsightError):
    """Errors of lineage queries and edits."""

    module = Module.LINEAGE


class DatavisualError(MindInsightError):
    """Errors of the training-data views (scalars, images, graphs, ...)."""

    module = Module.DATAVISUAL


class ProfilerError(MindInsightError):
    """Errors of the profiler views."""

    module = Module.PROFILER

    @property
    def message(self) -> str:  # the original's profiler messages: "<prefix> <detail>"
        return super().message if self.template is not None else f"{self.prefix} {self.detail}".rstrip()


# -- general (module 0) ---------------------------------------------------------------


class UnknownError(MindInsightError):
    value, http_status, prefix = 0x000, 500, "System error."


class ParamTypeError(MindInsightError):
    value, template = 0x001, "Invalid parameter type. {detail}"

    def __init__(self, param: str, expected: str):
        super().__init__(f"'{param}' expect {expected} type.")


class ParamValueError(MindInsightError):
    value, template = 0x002, "Invalid parameter value. {detail}"


class ParamMissError(MindInsightError):
    value, template = 0x003, "Param missing. {detail}"

    def __init__(self, param: str):
        super().__init__(f"'{param}' is required.")


class PathNotExistError(MindInsightError):
    value, prefix = 0x004, "The path does not exist."


class FileSystemPermissionError(MindInsightError):
    value, prefix = 0x008, "File System Permission Error."


# -- lineage (module 2) ---------------------------------------------------------------


class LineageParamValueError(LineageError):
    """A bad ``tag``/``remark`` edit of a job's lineage (the original's message shape)."""

    value, template = 0x081, "ValueError. {detail}"


class LineageSearchConditionParamError(LineageError):
    """Any invalid lineage search condition (``detail`` is the original's inner message)."""

    value, template = 0x218, "Search_condition param error: {detail}"


class LineageAddedInfoStoreError(LineageError):
    """Tags and remarks cannot be stored: the workspace's store cannot be read or written (ours;
    above the original's lineage codes). A server-side fault, so a 5xx."""

    value, http_status, prefix = 0x301, 500, "Tags and remarks cannot be stored."


class LineageEditsDatabaseError(LineageError):
    """The database of edits (tags, remarks; ``--database-url``, else SQLite in the workspace)
    cannot be reached or refused the change (ours; next after 0x301). The edit was not
    committed: nothing was changed. Unavailable for now, so a 503."""

    value, http_status, prefix = 0x302, 503, "Tags and remarks cannot be stored: the database cannot be used."


# -- datavisual (module 5) ------------------------------------------------------------


class RouteNotFoundError(DatavisualError):
    value, http_status, template = 0x001, 404, "404 Not Found."


class MethodNotAllowedError(DatavisualError):
    value, http_status, template = 0x002, 405, "405 Method Not Allowed."


class TrainJobNotExistError(DatavisualError):
    value, prefix = 0x005, "Train job is not exist."


class SummaryLogPathInvalid(DatavisualError):
    value, prefix = 0x006, "No valid summary log file in path."


class DataLoadingError(DatavisualError):
    value, prefix = 0x007, "Data is loading."


class NodeNotInGraphError(DatavisualError):
    value, prefix = 0x009, "Can not find node in graph by the given node name."
    template = "{prefix} node name: {detail}."

    def __init__(self, node_name: str):
        super().__init__(node_name)


class PluginNotAvailableError(DatavisualError):
    value, prefix = 0x00B, "Plugin is not available."


class GraphNotExistError(DatavisualError):
    value, prefix = 0x00C, "Can not found the graph."


class ImageNotExistError(DatavisualError):
    value, prefix = 0x00D, "Image is not exist."


class ScalarNotExistError(DatavisualError):
    value, prefix = 0x00E, "Scalar value is not exist."


class HistogramNotExistError(DatavisualError):
    value, prefix = 0x00F, "Histogram value is not exist."


class QueryStringContainsNullByteError(DatavisualError):
    value, prefix = 0x011, "Query string contains null byte error."


class TensorNotExistError(DatavisualError):
    value, prefix = 0x012, "Tensor value is not exist."


class ResponseTooLargeError(DatavisualError):
    value, prefix = 0x013, "Response data exceed max value."


class StepTensorDataNotInCacheError(DatavisualError):
    value, prefix = 0x014, "Tensor data not in cache."


class TensorTooLargeError(DatavisualError):
    value, prefix = 0x016, "Tensor is too large to show on UI."


class LandscapeNotExistError(DatavisualError):
    value, prefix = 0x017, "Landscape is not exist."


class TagDataNotExistError(DatavisualError):
    """A tag without data of the asked kind, for every per-tag kind added since the original
    (each of the original's kinds keeps its own error code)."""

    value, prefix = 0x018, "The tag has no data of this kind."


class ScalarRangeError(DatavisualError):
    """A /datavisual/scalar/buckets step range that holds no step (``start`` after ``end``)."""

    value, prefix = 0x019, "The step range is not valid."


class ScalarPointsReloadingError(DatavisualError):
    """The job's full scalar points were dropped for the memory bound (conf/limits.py
    FULL_SCALAR_BYTES) and are being read again: ask again."""

    value, http_status, prefix = 0x01A, 503, "The full scalar points of this job are being read again."


class ScalarPointsTooManyError(DatavisualError):
    """The job alone holds more scalar points than FULL_SCALAR_BYTES allows."""

    value, http_status, prefix = 0x01B, 503, "The job holds more scalar points than the server keeps in full."


class ExportFormatUnavailableError(DatavisualError):
    """A /datavisual/scalars/export format whose optional package is not installed (Parquet:
    pyarrow, ``pip install 'mindinsight[parquet]'``)."""

    value, prefix = 0x01C, "The export format is not available on this server."


class StorageUnavailableError(DatavisualError):
    """The object store holding the summary base dir cannot be listed now (unreachable,
    refused credentials, throttling, missing bucket). Reported in the train-jobs answer's
    ``storage_error`` while the jobs read before stay served."""

    value, http_status, prefix = 0x01D, 503, "The storage holding the summary base dir cannot be read now."


# -- profiler (module 6) --------------------------------------------------------------


class ProfilerParamValueError(ProfilerError):
    value, prefix = 0x080, "Param value error."


class ProfilerPathError(ProfilerError):
    value, prefix = 0x081, "Path error."


class ProfilerParamTypeError(ProfilerError):
    value, prefix = 0x082, "Param type error."


class ProfilerDirNotFoundError(ProfilerError):
    value, template = 0x083, "The dir <{detail}> not found."


class ProfilerFileNotFoundError(ProfilerError):
    value, template = 0x084, "The file <{detail}> not found."


class ProfilerIOError(ProfilerError):
    value, prefix = 0x085, "Read or write file fail."


class ProfilerFileTooLargeError(ProfilerError):
    """A profiler file beyond the reader's bounds (``limits.MAX_PROFILER_*``): refused rather than
    read whole (ours; next after the original's general profiler codes)."""

    value, prefix = 0x086, "File beyond the reader's limits."


class ProfilerColumnNotExistError(ProfilerError):
    value, template = 0x180, "The column {detail} does not exist."


class ProfilerDeviceIdError(ProfilerError):
    value, template = 0x182, "The device_id in search_condition error, {detail}"


class ProfilerOpTypeError(ProfilerError):
    value, template = 0x183, "The op_type in search_condition error, {detail}"


class ProfilerGroupConditionError(ProfilerError):
    value, template = 0x184, "The group_condition in search_condition error, {detail}"


class ProfilerSortConditionError(ProfilerError):
    value, template = 0x185, "The sort_condition in search_condition error, {detail}"


class ProfilerFilterConditionError(ProfilerError):
    value, template = 0x186, "The filter_condition in search_condition error, {detail}"


# -- access (module 0, values above the original's general codes) -----------------------------


class AccessTokenError(MindInsightError):
    value, http_status = 0x101, 401
    prefix = (
        "Access token missing or wrong. Open the web address `mindinsight start` printed (it carries "
        "?token=) or send the header 'Authorization: Bearer <token>'."
    )


class CrossOriginRequestError(MindInsightError):
    value, http_status = 0x102, 403
    prefix = "Cross-origin request refused: the Origin or Referer names another site than the Host."


class UrlTooLongError(MindInsightError):
    value, http_status = 0x103, 414
    prefix = "URL too long."


class HostNotAllowedError(MindInsightError):
    """A ``Host`` the server does not answer to (DNS rebinding: a page of another site whose name
    was made to resolve to this machine); see ``backend/access.py``."""

    value, http_status = 0x104, 403
    prefix = (
        "Host not allowed: this server answers to loopback names (localhost, 127.0.0.1, [::1]) and to "
        "the hosts named with --allowed-host."
    )


class RequestBodyTooLargeError(MindInsightError):
    """A request body longer than ``limits.MAX_REQUEST_BODY_BYTES``, refused by the serving front
    before it is read whole."""

    value, http_status = 0x105, 413
    prefix = "Request body too large."


# -- the query language over runs (module 0, values above the access codes) ----------------------


class QueryError(MindInsightError):
    """A query over runs (``services/run_query.py``) that cannot be run. The message starts its
    detail with the mistake's place, ``line L, column C: ...``; ``position`` holds it (line,
    column, offset; None for the query as a whole)."""

    def __init__(self, detail: str, position=None):
        self.position = position
        super().__init__(detail)


class QuerySyntaxError(QueryError):
    value, prefix = 0x201, "Query syntax error."


class QueryValueError(QueryError):
    """Well-formed but unusable: a bad regular expression, ``<`` against true/false, too long or
    too deeply nested."""

    value, prefix = 0x202, "Query value error."
