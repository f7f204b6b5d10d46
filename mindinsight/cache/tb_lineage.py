"""Lineage rows of TensorBoard runs with hparams (``ingest/tb_hparams.py`` says what a row holds).

A session's row depends on its own event files and on those of the runs its metrics and its
experiment come from (``<session>/<group>``, the ancestors); each run's files are listed, searched
and parsed again only when they change, and a run without the plugin's marks is never parsed.
"""

from dataclasses import dataclass

from mindinsight.format import naming
from mindinsight.ingest.discovery import SummaryDirInfo, job_files
from mindinsight.ingest.lineage import LineageDicts
from mindinsight.ingest.tb_hparams import RunHParams, files_hold, hparams_lineage, read_run

_MARK = b"_hparams_/"


@dataclass
class _Run:
    files: tuple  # ((name, size, mtime_ns), ...) of its event files
    paths: list
    marked: bool  # its files hold the hparams plugin's tag bytes
    parsed: RunHParams | None = None


@dataclass(frozen=True)
class HParamsLineage:
    """A session's lineage dicts, the runs it was read from (``(train_id, brief or None)``),
    and whether every file could be read."""

    dicts: LineageDicts
    depends: tuple
    complete: bool


class HParamsRuns:
    """Parsed hparams of the TensorBoard runs, by train_id, kept while their files are unchanged."""

    def __init__(self):
        self._runs: dict[str, _Run] = {}

    def _run(self, info: SummaryDirInfo, root: str) -> _Run:
        listed = job_files(info.path, root) or {}
        names = naming.sort_tfevents_files(name for name in listed if naming.is_tfevents_file(name))
        files = tuple((name, listed[name].size, listed[name].mtime_ns) for name in names)
        run = self._runs.get(info.train_id)
        if run is None or run.files != files:
            paths = [listed[name].path for name in names]
            run = _Run(files, paths, files_hold(paths, root, _MARK))
            self._runs[info.train_id] = run
        return run

    def _parsed(self, info: SummaryDirInfo, root: str) -> RunHParams:
        run = self._run(info, root)
        if run.parsed is None:
            run.parsed = read_run(run.paths, root)
        return run.parsed

    def forget(self, keep) -> None:
        """Drop the runs whose train_id is not in ``keep``."""
        self._runs = {train_id: run for train_id, run in self._runs.items() if train_id in keep}

    def lineage(self, info: SummaryDirInfo, briefs: dict, root: str) -> HParamsLineage | None:
        """The lineage of the run ``info`` when it is an hparams session, else None.
        ``briefs``: every listed run by train_id."""
        if not self._run(info, root).marked:
            return None
        session = self._parsed(info, root)
        if session.hparams is None:
            return None
        depends = [(info.train_id, info)]
        unreadable = dict(session.unreadable)
        metric_names = session.metrics
        if metric_names is None:
            metric_names = self._ancestor_metrics(info.train_id, briefs, root, depends, unreadable)
        if metric_names is None:
            metric_names = [("", tag) for tag in session.scalars]
        metrics = {}
        for group, tag in metric_names:
            scalars = session.scalars
            if group:
                train_id = f"{info.train_id.rstrip('/')}/{group}"
                brief = briefs.get(train_id)
                depends.append((train_id, brief))
                scalars = self._parsed(brief, root).scalars if brief is not None else {}
            if tag in scalars:
                metrics[tag if not group else f"{group}/{tag}"] = scalars[tag]
        dicts = hparams_lineage(session.hparams, metrics)
        return HParamsLineage(dicts, tuple(depends), not unreadable)

    def _ancestor_metrics(self, train_id: str, briefs: dict, root: str, depends: list, unreadable: dict):
        """The metric names of the nearest ancestor run's experiment, None when none has one."""
        parts = train_id[2:].split("/")
        for length in range(len(parts) - 1, -1, -1):
            ancestor = "./" + "/".join(parts[:length])
            brief = briefs.get(ancestor)
            depends.append((ancestor, brief))
            if brief is None or not brief.tfevents_files or not self._run(brief, root).marked:
                continue
            parsed = self._parsed(brief, root)
            unreadable.update(parsed.unreadable)
            if parsed.metrics is not None:
                return parsed.metrics
        return None
