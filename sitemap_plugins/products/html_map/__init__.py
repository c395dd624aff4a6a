"""The HTML site map for people: the plan of its pages, and their markup."""
