# Sample Pelican site used to exercise the sitemap_plugins Pelican adapter.
# See ../README.md for what each piece of content is there to test.

AUTHOR = "Alice Martin"
SITENAME = "Example Blog"
SITEURL = "https://blog.example.org"

PATH = "content"
TIMEZONE = "Europe/Paris"
DEFAULT_LANG = "en"

# Absolute URLs everywhere (what a production publishconf.py would use).
RELATIVE_URLS = False

# THEME left at the default (notmyidea), which emits
# <link rel="alternate" hreflang=...> for translations but no canonical link.

# Feeds: left at Pelican's defaults (feeds/all.atom.xml, per-category and
# per-author Atom feeds, per-author RSS, feeds/all-{lang}.atom.xml).

# Small pagination so the blog index, a category, a tag and an author paginate.
DEFAULT_PAGINATION = 2
# The pattern documented in Pelican's settings docs: page 1 keeps its own
# URL, later pages go to directory-style .../page/N/ URLs.
PAGINATION_PATTERNS = (
    (1, "{url}", "{save_as}"),
    (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"),
)

# The landing page (content/pages/home.md) is saved as index.html at the root,
# so the blog index moves to /blog/.
INDEX_SAVE_AS = "blog/index.html"
INDEX_URL = "blog/"
MENUITEMS = (("Blog", "/blog/"),)

# Static files: images, downloads, and a robots.txt copied to the output root.
STATIC_PATHS = ["images", "extra/robots.txt", "downloads"]
# downloads/ holds a static HTML file (slides.html): keep Pelican's HTML reader from
# taking it for an article, so it is copied as it is.
ARTICLE_EXCLUDES = ["downloads"]
EXTRA_PATH_METADATA = {
    "extra/robots.txt": {"path": "robots.txt"},
}

PLUGINS = ["sitemap_plugins.pelican"]

# Settings for our plugin: all defaults. Static HTML (downloads/slides.html) is not
# listed unless "static_html": True.
SITEMAP_PLUGINS = {}
