"""Experiments for Kaplan, Mansour, Matias and Stemmer, "Differentially Private Learning
of Geometric Concepts" (ICML 2019): one module per experiment, named for the theorem it
measures."""
