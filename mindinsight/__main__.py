"""``python -m mindinsight`` is the ``mindinsight`` command."""

import sys

from mindinsight.cli import main

sys.exit(main())
