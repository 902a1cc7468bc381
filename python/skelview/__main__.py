"""`python -m skelview [FILE...] | [COMMAND ...]`: the skelview program the package carries (the
viewer, or its command line), with the arguments given."""

import subprocess
import sys

from . import viewer


def main() -> int:
    return subprocess.call([viewer(), *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
