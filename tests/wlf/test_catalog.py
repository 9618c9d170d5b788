"""Every result of the Wang-Lei-Fienberg catalog is registered, simulated or bound-only with
its reason (definitions are the checkers they describe, not entries; the ids are kept here
as data)."""

from privbounds.registry import BOUND_ONLY, get, ids

CATALOG = ("lem4 thm7 lem8 cor9 lem10 prop11 prop12 lem14 thm15 ex16 ex17 thm18 alg1 thm19 ex20 ex21 "
           "ex22 ex23 ex24 thm25 prop26 lem29 lem30 lem31 thm32 prop33 lem34 thm35 lem36 lem37 lem38").split()
NOT_SIMULATED = {"prop11", "lem14", "thm18", "ex23", "thm32", "ex17"}


def test_every_catalog_id_is_registered():
    registered = {i for i in ids() if i.startswith("wlf.")}
    assert {f"wlf.{i}" for i in CATALOG} == registered


def test_bound_only_entries_say_why_and_the_rest_are_simulated():
    for i in CATALOG:
        thm = get(f"wlf.{i}")
        if i in NOT_SIMULATED:
            assert thm.status == BOUND_ONLY and len(thm.reason) > 40, i
        else:
            assert thm.runnable and thm.claims and thm.notes, i
