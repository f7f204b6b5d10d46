"""What the fields of a query (``run_query``) name for a list of runs, read through the provider.

* ``name`` (also ``train_id``, ``summary_dir``): the run's train id, e.g. ``./run1``;
* a model-lineage field: ``learning_rate`` (also ``lr``), ``epoch``, ``batch_size``,
  ``optimizer``, ``network``, ``loss_function``, ``loss``, ``device_num``, ``model_size``,
  ``train_dataset_path``, ``train_dataset_count``, ``test_dataset_path``,
  ``test_dataset_count``, ``dataset_mark``;
* ``metric.<name>`` / ``user_defined.<name>``: a lineage metric or user-defined value; any
  other name is the user-defined value of that name, else the metric of that name;
* ``<tag>.last`` / ``.min`` / ``.max``: that summary of a scalar tag, over the points the
  server keeps of jobs in its detail cache (opened recently); other runs have none. MindSpore
  names a scalar ``loss`` ``loss/scalar`` (``SummaryRecord``) or ``loss/auto/scalar``
  (``SummaryCollector``): ``loss.last`` reads the first of ``loss``, ``loss/scalar`` and
  ``loss/auto/scalar`` the run has.
"""

from collections.abc import Sequence

import numpy as np

from mindinsight.cache.provider import DataProvider
from mindinsight.services.lineage_conditions import FIELDS
from mindinsight.services.run_query import SUMMARIES, Field
from mindinsight.services.run_query_eval import evaluate

RUN_NAMES = ("name", "train_id", "summary_dir")
# The model-lineage fields (the lineage search's own fields but the two that are no lineage values).
LINEAGE_FIELDS = frozenset(FIELDS) - {"summary_dir", "dataset_mark"}
ALIASES = {"lr": "learning_rate"}
SECTIONS = ("metric", "user_defined")
# The names MindSpore gives a scalar tag <name>, tried in turn after <name> itself.
MINDSPORE_SCALAR_SUFFIXES = ("/scalar", "/auto/scalar")


class RunFields:
    """The runs ``train_ids`` with their model lineage (``models[i]``: the lineage's model dict
    or None) and dataset marks, as ``run_query_eval.evaluate`` reads them."""

    def __init__(self, provider: DataProvider, train_ids: Sequence[str], models: Sequence, marks: Sequence):
        self.provider, self.train_ids, self.models, self.marks = provider, train_ids, models, marks

    def read(self, field: Field) -> list:
        if field.summary is not None:
            return self._summaries(field.name, SUMMARIES.index(field.summary))
        name = ALIASES.get(field.name, field.name)
        if name in RUN_NAMES:
            return list(self.train_ids)
        if name == "dataset_mark":
            return list(self.marks)
        if len(field.path) > 1 and field.path[0] in SECTIONS:
            section, key = field.path[0], ".".join(field.path[1:])
            return [model[section].get(key) if model else None for model in self.models]
        if name in LINEAGE_FIELDS:
            return [model.get(name) if model else None for model in self.models]
        return [_named_value(model, name) if model else None for model in self.models]

    def _summaries(self, tag: str, index: int) -> list:
        tags = (tag, *(tag + suffix for suffix in MINDSPORE_SCALAR_SUFFIXES))
        summaries = [self.provider.scalar_summary(train_id, tags) for train_id in self.train_ids]
        return [None if summary is None else summary[index] for summary in summaries]


def _named_value(model: dict, name: str):
    user_defined = model["user_defined"]
    return user_defined[name] if name in user_defined else model["metric"].get(name)


def matching_runs(tree, fields: RunFields) -> np.ndarray:
    """The mask of the runs of ``fields`` that match a parsed query."""
    return evaluate(tree, len(fields.train_ids), fields.read)
