"""One page, pure: what a built HTML page says, read from its bytes.

The reader parses a page once into a record (head values, the content's fingerprint, its
images and videos); the rule book names every heuristic it applies. Imports only the
vocabulary; never touches disk.
"""
