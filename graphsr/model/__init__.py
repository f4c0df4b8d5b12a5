"""Deprecated: the core types moved to :mod:`graphsr.core` (``graphsr.model`` read as navigation models,
which are :mod:`graphsr.navigation`'s).  Importing ``graphsr.model`` or one of its modules warns once and
gives the same objects as ``graphsr.core``."""

from __future__ import annotations

import importlib
import sys
import warnings

warnings.warn(
    "graphsr.model is now graphsr.core (import from graphsr.core; graphsr.model goes in a later release)",
    DeprecationWarning,
    stacklevel=2,
)

from ..core import *  # noqa: E402,F401,F403
from ..core import __all__  # noqa: E402,F401

for _name in ("columns", "document", "fol", "kinds", "qrels", "quantisation", "routes", "run", "topics"):
    sys.modules[f"{__name__}.{_name}"] = importlib.import_module(f"graphsr.core.{_name}")
