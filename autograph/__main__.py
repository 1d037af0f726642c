"""`python -m autograph file.py[:function]`: the same as `autograph-show`."""
import sys

from autograph.cli import main

sys.exit(main())
