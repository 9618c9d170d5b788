"""Figures for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning of
Geometric Concepts" (ICML 2019): the special figures of its theorems and the paper's
headline figure (paper.py)."""
