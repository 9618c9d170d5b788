"""Every result of the catalog of Bassily, Cheu, Moran, Nikolov, Ullman, Wu, "Private Query
Release Assisted by Public Data", is registered, simulated or not (the ids are kept here as
data: the catalog is a source of ours, not part of the product)."""

from privbounds.registry import get, ids

CATALOG = ("res1 def2_1 def2_2 clm2_3 fact2_4 def2_5 def2_6 alg1 lem2_7 alg2 def2_8 rem2_9 alg3 thm3_1 "
           "rem3_2 lem3_3 def4_1 thm4_2 thm4_3 thm5_1 def5_2 lem5_3 lem5_4 base_pub base_priv "
           "base_stumps").split()


def test_every_catalog_id_is_registered():
    assert len(CATALOG) == 26
    assert {f"pap.{i}" for i in CATALOG} == {i for i in ids() if i.startswith("pap.")}


def test_bound_only_entries_name_what_tests_them():
    for i in CATALOG:
        t = get(f"pap.{i}")
        assert t.runnable or (t.reason and t.tested_by), i
