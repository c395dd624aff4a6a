"""``check``: a site's sitemaps against the protocol, the official schemas and the pages."""
