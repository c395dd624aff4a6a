"""The build: one pipeline over the pages of a site, its worker pool and its report."""
