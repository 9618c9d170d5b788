"""Learners from other libraries, measured on the registered instances (the gallery;
``pip install 'privbounds[gallery]'``). They are not any theorem's algorithm."""
