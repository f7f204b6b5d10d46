"""MindInsight: training visualization for MindSpore (and any Python training loop)."""

__version__ = "3.0.0.dev0"


def load_ipython_extension(ipython) -> None:
    """``%load_ext mindinsight`` in Jupyter: the ``%mindinsight`` magic (``mindinsight/notebook.py``).

    Imported only here, so importing mindinsight needs no IPython.
    """
    from mindinsight.notebook import load_ipython_extension as load

    load(ipython)
