"""The Laplace mean of Bernoulli rows (privbounds' example plugin paper): a privbounds plugin paper (prefix "laplace").

Registered through the entry point ``laplace = "privbounds_laplace"`` of the group
``privbounds.plugins`` (pyproject.toml): privbounds imports this package, reads its
``PAPER`` and every theorem module below registers its ``@entry`` builder. Its baselines
live in its own folder, ``baselines/<fidelity>.json``.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from privbounds.registry import Paper

PAPER = Paper("laplace", "The Laplace mean of Bernoulli rows (privbounds' example plugin paper)", baselines=Path(__file__).resolve().parent / "baselines")

# each theorem module registers its @entry builder when imported ('privbounds new theorem
# laplace.NAME' adds one); bounds.py holds the bound functions only
for _info in pkgutil.iter_modules(__path__):
    if _info.name != "bounds":
        importlib.import_module(f"{__name__}.{_info.name}")
