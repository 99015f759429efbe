"""``python -m ofc_fast.cli``: the same command line as ``ofc-fast``."""
import sys

from ofc_fast.cli import main

if __name__ == "__main__":
    sys.exit(main())
