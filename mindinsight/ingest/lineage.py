"""Parse ``_lineage`` files into a job's ``LineageData`` (file-formats.md section 5)."""

import logging

from google.protobuf.message import DecodeError

from mindinsight.format.proto import mindinsight_lineage_pb2 as lineage_pb
from mindinsight.format.records import RecordReader
from mindinsight.ingest.containers import LineageData

logger = logging.getLogger(__name__)


def parse_lineage_files(paths, root: str | None = None) -> LineageData:
    """Read every lineage file in order; later records win, user-defined info is merged.
    ``root``: the real base dir the files must lie in (``RecordReader``). A file that cannot be
    read is named in ``unreadable`` with the reason; the caller logs it and tries it again later."""
    data = LineageData()
    for path in paths:
        reader = RecordReader(path, root=root)
        try:
            while True:
                batch = reader.read()
                for payload in batch.payloads:
                    _apply(data, payload)
                if batch.end_of_data:
                    break
        except OSError as error:
            data.unreadable[path] = error.strerror or str(error)
    return data


def _apply(data: LineageData, payload: bytes) -> None:
    try:
        event = lineage_pb.LineageEvent.FromString(payload)
    except DecodeError:
        logger.warning("undecodable lineage record skipped")
        return
    kind = event.WhichOneof("what")
    if kind == "train_lineage":
        data.train_lineage = event.train_lineage
    elif kind == "evaluation_lineage":
        data.evaluation_lineage = event.evaluation_lineage
    elif kind == "dataset_graph":
        data.dataset_graph = event.dataset_graph
    elif kind == "user_defined_info":
        _merge_user_defined(data.user_defined, event.user_defined_info)


def _merge_user_defined(target: dict, info) -> None:
    """Flatten a UserDefinedInfo (MindSpore nests one item per ``user_info``) into ``target``."""
    for mapping in (info.map_int32, info.map_str, info.map_double):
        target.update(dict(mapping))
    for nested in info.user_info:
        _merge_user_defined(target, nested)
