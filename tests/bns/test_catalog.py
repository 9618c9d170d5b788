"""Every result of the Bun-Nissim-Stemmer catalog is registered, simulated or not (the ids
are kept here as data: the catalog is a source of ours, not part of the product)."""

from privbounds.registry import ids

CATALOG = ("thm1_1 thm2_7 thm2_8 thm2_11 cor2_12 thm2_16 thm2_18 thm2_19 prop2_20 prop2_21 thm2_22 "
           "thm2_23 thm2_24 lem2_25 thm3_1 obs3_2 cor3_3 cor3_4 ex3_5 lem3_6 lem3_7 prop3_8 cor3_9 "
           "cor3_10 prop3_11 thm3_12 thm3_13 thm4_3 rem4_4 lem4_5 cor4_6 thm4_7 rem4_8 prop4_9 cor4_10 "
           "prop4_11 thm5_1 rem5_2 lem5_3 thm5_4").split()


def test_every_catalog_id_is_registered():
    registered = {i for i in ids() if i.startswith("bns.")}
    assert {f"bns.{i}" for i in CATALOG} == registered
