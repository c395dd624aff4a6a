"""Greetings, documented by ``sphinx.ext.autodoc`` on the sample site's API page."""

from __future__ import annotations


def greet(name: str) -> str:
    """Say hello to ``name``."""
    return f"Hello, {name}!"


class Greeter:
    """Greets people with a fixed salutation."""

    def __init__(self, salutation: str = "Hello") -> None:
        self.salutation = salutation

    def greet(self, name: str) -> str:
        """Greet ``name`` with the salutation."""
        return f"{self.salutation}, {name}!"
