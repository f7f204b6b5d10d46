"""``/ui-config``: switches the web client reads at start."""

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.api.shapes import BOOLEAN, obj
from mindinsight.backend.view_marks import REUSABLE

TOPIC = Topic("ui_config")


@TOPIC.get("/ui-config", serving=REUSABLE, answer=obj({"enable_debugger": BOOLEAN}))
def ui_config(provider):
    """Features of this server the web client asks for (no debugger here)."""
    return {"enable_debugger": False}
