"""``merge``: one index over the builds below a root, and the versions it offers."""
