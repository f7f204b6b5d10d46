"""``/datavisual/texts``: the kept steps of a text tag (TensorBoard's text plugin)."""

from mindinsight.backend.api.per_tag import PerTagTopic
from mindinsight.backend.api.shapes import BOOLEAN, INTEGER, STRING, array
from mindinsight.conf.plugins import PluginName

TOPIC = PerTagTopic("texts", PluginName.TEXT, example_tag="notes/text_summary")
EXAMPLE_JOB = "./tb_model"  # torch.utils.tensorboard's run of tests/fixtures/tensorboard
# text: the cells as rows (one row of one cell for a single text); shape: as written ([] or [1]
# for a single text, [n] a column, [rows, columns] a table); truncated: limits.MAX_TEXT_* cut it.
TOPIC.tag_steps(
    "/datavisual/texts",
    name="texts",
    columns={"text": array(array(STRING)), "shape": array(INTEGER), "truncated": BOOLEAN},
    example={"train_id": EXAMPLE_JOB},
)
