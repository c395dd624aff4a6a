"""What the front-ends share: host options, git dates, Markdown includes, Pelican's old names.

The front doors (``mkdocs``, ``pelican``, ``sphinx``, ``cli``) stand above this folder.
"""
