"""``/ui-config``: switches the web client reads at start."""

from mindinsight.backend.api.routing import Topic
from mindinsight.backend.view_marks import REUSABLE

TOPIC = Topic("ui_config")


@TOPIC.get("/ui-config", serving=REUSABLE)
def ui_config(manager):
    """Features of this server the web client asks for (no debugger here)."""
    return {"enable_debugger": False}
