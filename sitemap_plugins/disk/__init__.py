"""The door: the only modules that create, replace or delete files.

``site`` reads the built folder and writes atomically, ``owned`` knows which files this tool
wrote and installs new ones, ``history`` keeps the lastmod manifest between builds.
"""
