"""The route shape of per-tag kinds (images, histograms, tensors, and kinds to come).

A per-tag route asks about one tag of one job: ``train_id`` and ``tag`` in the query (a route
may ask for more), the job's and the kind's not-exist errors, an example on a tag of the test
fixtures, an answer reused until the tag changes (``REUSABLE``). A topic module declares its
kind's routes on a ``PerTagTopic`` and states only what differs::

    TOPIC = PerTagTopic("histograms", histograms.KIND, example_tag="fc1_out/histogram")

    @TOPIC.tag_get("/datavisual/histograms", answer=...)
    def histogram_steps(provider, train_id, tag):
        \"\"\"Every kept step of one tag.\"\"\"
        return histograms.histograms(provider, train_id, tag)

A kind whose answer is just its kept steps as rows (``services.per_tag.tag_steps``) needs no
service module and no view of its own; its topic is a plugin and one line per route::

    TOPIC = PerTagTopic("texts", PluginName.TEXT, example_tag="notes/text")
    TOPIC.tag_steps("/datavisual/texts", name="texts", columns={"value": STRING})
"""

from marshmallow import Schema

from mindinsight.backend.api.args import TagArgs
from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import INTEGER, NUMBER, STRING, array, obj
from mindinsight.backend.view_marks import REUSABLE
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import TrainJobNotExistError
from mindinsight.services import per_tag
from mindinsight.services.per_tag import PerTagKind

EXAMPLE_JOB = "./b_summary_ops"  # the fixture job every per-tag example reads


def step_rows(columns: dict) -> dict:
    """The answer shape of ``services.per_tag.step_rows``: ``[{wall_time, step, <columns>}]``."""
    return array(obj({"wall_time": NUMBER, "step": INTEGER, **columns}))


class PerTagTopic(Topic):
    """The routes of one per-tag kind: ``kind`` is its ``PerTagKind``, or just its plugin for a
    kind added since the original (not-exist error: ``TagDataNotExistError``)."""

    def __init__(self, name: str, kind: PerTagKind | PluginName, example_tag: str):
        super().__init__(name)
        self.kind = kind if isinstance(kind, PerTagKind) else PerTagKind(kind)
        self.example_tag = example_tag

    def tag_get(
        self, rule: str, *, args: Schema | None = None, errors: tuple = (), example: dict | None = None, **options
    ):
        """Declare a GET route of one tag: ``args`` (default ``TagArgs``), the job's and the
        kind's not-exist errors then ``errors``, the example tag with ``example`` over it;
        ``options`` as for ``Topic.route`` (``serving`` defaults to ``REUSABLE``)."""
        options.setdefault("serving", REUSABLE)
        return self.get(
            rule,
            args=args if args is not None else TagArgs(),
            errors=(TrainJobNotExistError, self.kind.not_exist, *errors),
            example={"train_id": EXAMPLE_JOB, "tag": self.example_tag, **(example or {})},
            **options,
        )

    def tag_steps(self, rule: str, *, name: str, columns: dict, **options):
        """Declare the GET route answering ``services.per_tag.tag_steps``: ``{train_id, tag,
        <name>: [{wall_time, step, <column>: value}]}``, ``columns`` giving the shape of each of
        the kind's payload columns the rows hold (``backend/api/shapes.py``); ``options`` as for
        ``tag_get``. Returns the view (named ``<topic>_<name>``, endpoint and OpenAPI id)."""
        names = tuple(columns)

        def view(provider, train_id, tag):
            return per_tag.tag_steps(provider, self.kind, train_id, tag, name, names)

        view.__name__ = f"{self.name}_{name}"
        view.__doc__ = (
            f"Every kept step ``{{wall_time, step, {', '.join(names)}}}`` of one {self.kind.plugin.value} tag."
        )
        answer = obj({"train_id": STRING, "tag": STRING, name: step_rows(columns)})
        return self.tag_get(rule, answer=answer, **options)(view)
