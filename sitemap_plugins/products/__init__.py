"""The products: the build and what users run beside it (check, merge, submit, the HTML map).

Each stands on the floors below and writes only through the door (``disk``).
"""
