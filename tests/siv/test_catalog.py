"""Every result of the Sivakumar catalog is registered, simulated or not (definitions are
the checkers they describe, not entries; the ids are kept here as data)."""

import privbounds
from privbounds.registry import ids

CATALOG = "thm2_1 thm2_2 lem3_2 thm3_3 thm3_4 thm3_5 thm3_6".split()
SIMULATED = "thm2_1 thm2_2 lem3_2 thm3_3 thm3_4 thm3_5".split()


def test_every_catalog_id_is_registered():
    registered = {i for i in ids() if i.startswith("siv.")}
    assert {f"siv.{i}" for i in CATALOG} == registered


def test_the_simulable_results_are_simulated():
    for i in SIMULATED:
        assert privbounds.get(f"siv.{i}").runnable, i
    assert not privbounds.get("siv.thm3_6").runnable
