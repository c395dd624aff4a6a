"""The ground floor: the vocabulary every other floor speaks.

Errors, the option table, URLs, dates, globs and XML-safe values. Nothing here imports
anything of the package above this folder, and nothing here touches disk.
"""
