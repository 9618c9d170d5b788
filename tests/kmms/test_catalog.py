"""Every result of the catalog of Kaplan, Mansour, Matias, Stemmer, "Differentially Private
Learning of Geometric Concepts", is registered, simulated or not (the ids are kept here as
data: the catalog is a source of ours, not part of the product)."""

from privbounds.registry import get, ids

CATALOG = ("thm1_2 thm1_3 thm1_4 rem1_5 alg_nonpriv_conj obs2_2 ex2_3 thm2_4 prop2_5 alg_setcover "
           "alg_setcover_or claim3_1 thm3_2 ex3_3 claim3_4 thm3_5 obs4_1 rem4_2 alg_selecthalfplane "
           "claim4_3 obs4_4 claim4_5 lem4_6 thm4_7 sec5_decomp alg_selecttriangle thm5_1").split()


def test_every_catalog_id_is_registered():
    assert len(CATALOG) == 27
    assert {f"kmms.{i}" for i in CATALOG} == {i for i in ids() if i.startswith("kmms.")}


def test_bound_only_entries_name_what_tests_them():
    for i in CATALOG:
        t = get(f"kmms.{i}")
        assert t.runnable or (t.reason and t.tested_by), i
