"""The key to censored points and open intervals (reports/openkey.py): a page says once
what an arrow and an open interval end mean, exactly when it shows one."""

from dataclasses import replace

from privbounds.reports import openkey
from privbounds.reports.site import environment
from privbounds.results import load

PAGE = ('{% extends "base.html" %}{% block body %}<p>{{ interval(lo, hi) }}</p>'
        '{% if rec|censored %}<p class="key">{{ key.show() }}</p>{% endif %}{% endblock %}')


def _render(rec, lo, hi):
    env = environment()
    return env.from_string(PAGE).render(root="", rec=rec, lo=lo, hi=hi, key=openkey.Key(), generated="now",
                                        version="0")


def test_an_open_interval_printed_anywhere_brings_the_key_once(smoke_out):
    rec = load(smoke_out, "siv.thm3_3")
    closed = [replace(p, n_low=p.n_low or 1, n_high=p.n_high or 2, floor_reached=False) for p in rec.points]
    plain = replace(rec, points=closed, verdicts=[])
    assert openkey.TEXT not in _render(plain, 1, 2)
    html = _render(plain, 1, None)
    assert "[1, open]" in html and html.count(openkey.TEXT) == 1


def test_a_censored_point_brings_the_key_under_the_figures(smoke_out):
    rec = load(smoke_out, "siv.thm3_3")
    pts = list(rec.points)
    pts[0] = replace(pts[0], n_hat=None, n_low=64, n_high=None)
    html = _render(replace(rec, points=pts, verdicts=[]), 1, 2)
    assert html.count(openkey.TEXT) == 1  # under the figures, not again at the end of the page
    floor = [replace(p, floor_reached=(i == 0)) for i, p in enumerate(rec.points)]
    assert openkey.censored(replace(rec, points=[replace(p, n_high=p.n_high or 2) for p in floor], verdicts=[]))


def test_the_word_open_in_prose_needs_no_key():
    assert not openkey.OPEN.search("the gap the paper leaves open; the lower bound")
    assert openkey.OPEN.search("interval [512, open] of n_hat")
