"""A tiny package documented by autodoc in the Sphinx sample site."""
