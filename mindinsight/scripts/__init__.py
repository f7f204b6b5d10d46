"""The server-control commands behind ``mindinsight start`` and ``mindinsight stop``."""
