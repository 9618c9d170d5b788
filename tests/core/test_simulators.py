"""The common checks (privbounds.testing, in the manner of scikit-learn's
``parametrize_with_checks``) over every built-in paper: its ids, entries and quick
baseline, and each theorem's simulator and claims. A plugin's own tests call the same
functions (examples/privbounds-laplace/tests), so there is one source of truth for
the contract the engine, the claims and ``check`` rely on."""

from privbounds import testing
from privbounds.registry import papers


@testing.parametrize_with_checks(list(papers()))
def test_common_checks(check):
    check()
