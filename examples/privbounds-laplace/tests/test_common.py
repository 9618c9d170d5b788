"""The Laplace mean of Bernoulli rows (privbounds' example plugin paper): the common checks every privbounds theorem passes (privbounds.testing), on
this paper and each of its theorems. Plugins are on here (no PRIVBOUNDS_NO_PLUGINS)."""

import os

import pytest

from privbounds import registry, testing

if os.environ.get(registry.NO_PLUGINS, "") not in ("", "0"):
    pytest.skip(f"plugins are off ({registry.NO_PLUGINS} is set)", allow_module_level=True)


@testing.parametrize_with_checks("laplace")
def test_common_checks(check):
    check()
