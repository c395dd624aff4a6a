"""The rule book: every heuristic the page reader applies, as named data, each with its why.

The walkers (:mod:`~sitemap_plugins.page.content`, :mod:`~sitemap_plugins.page.chrome`,
:mod:`~sitemap_plugins.page.reader`) keep the mechanics; what they look for is here. To
teach the reader a theme, add an entry here and a row to ``tests/test_rulebook.py``; a change
of this data changes records, so ``tests/test_rulebook.py`` asks for a version bump
(:data:`~sitemap_plugins.page.reader.RULEBOOK_DIGEST`).

"""

from __future__ import annotations

import re

# --- What is a page at all ----------------------------------------------------------------

# A file that names none of these elements and holds template syntax outside its tags is a
# theme's template copied as is (pydata-sphinx-theme's _static/webpack-macros.html, a Jinja
# macro file), not a page: Jinja/Nunjucks/Liquid "{%", "{{", "{#"; ERB/EJS/JSP "<%".
# One that names none of them, nor a doctype or a <title>, is a partial (a menu, a footer).
PAGE_ELEMENTS = re.compile(rb"<(?:html|head|body|!doctype)[\s/>]", re.IGNORECASE)
TEMPLATE_SYNTAX = re.compile(r"\{[%{#]|<%")
# A whole template tag in a page's <title> marks a layout file (Hugo's baseof, a Jekyll one).
TEMPLATE_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|<%.*?%>|<\?(?:php|=)", re.DOTALL)

# --- Head facts ---------------------------------------------------------------------------

# Meta names and properties whose content is the page's own last change or first publication.
MODIFIED_KEYS = frozenset({
    "article:modified_time", "og:updated_time", "dcterms.modified", "last-modified",
    "datemodified", "dc.date.modified"})
PUBLISHED_KEYS = frozenset({
    "article:published_time", "dcterms.created", "datepublished", "date", "dc.date",
    "dc.date.created", "dcterms.date"})
# Robots metas: the generic one and Google's own.
ROBOTS_KEYS = frozenset({"robots", "googlebot"})
FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/feed+json"})

# --- Step 1: the region -------------------------------------------------------------------

# The first element whose role names main (a role attribute is a list of tokens).
ROLE_MAIN = '[role~="main" i]'
# Elements whose content a reader never sees as the page: a browser shows a <noscript>'s only
# without scripts, and a <template>'s never (Lexbor parses them as elements).
NOT_SHOWN = frozenset({"noscript", "template"})

# --- Step 2: what of the region is not content --------------------------------------------

# Navigation, sidebars, build stamps, inline assets: adding a page to the site's navigation
# changes no other page. A <header> goes only from a <body> region (the site's banner).
DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
# Inside a <main>, <article> or role=main region a <header> is the content's own (HTML-AAM
# maps a header scoped to these to no landmark); one that names itself the banner is not.
DROPPED_IN_CONTENT = tuple(
    'header[role~="banner" i]' if name == "header" else name for name in DROPPED)
# A code block's line numbers: Pygments' (codehilite, pymdownx.highlight, Sphinx: "linenos"
# cell or span) and Chroma's (Hugo: "lnt" in a table, "ln" inline); a site's setting.
LINE_NUMBERS = (".linenos", ".linenodiv", "pre .lnt", "pre .ln")
# A link to a fragment inside code is a line's link when it is only a number (pymdownx's
# anchor_linenums holds an empty span); any other is code (mkdocstrings' autorefs).
LINE_NUMBER = re.compile(r"\d*")
# The permalink rule, the one both the fingerprint and the heading (the page's title in the
# HTML site map) use: a link in a heading is its permalink when it has one of these classes
# (Python-Markdown's toc and Sphinx "headerlink", Docusaurus "hash-link", Jupyter
# "anchor-link", VitePress "heading-anchor"), or links to a fragment and says no word
# (PERMALINK_WORD: "#", "¶", "§", "🔗", an icon); never when it is all of the heading's text.
PERMALINK_CLASSES = frozenset({"headerlink", "hash-link", "anchor-link", "heading-anchor"})
PERMALINK_WORD = re.compile(r"[^\W_]")  # a letter or a digit, of any script

# --- Steps 3 and 4: what counts in the fingerprint ----------------------------------------

# Elements whose href or src count as content links (script and svg are dropped anyway).
LINKING = ("a", "area", "img", "iframe", "embed", "source", "track", "video", "audio", "input")
# Asset links whose names carry a build hash (style.4f3a9c.css, app.js?v=123): not content.
ASSET = re.compile(r"\.(?:css|js|mjs|map|woff2?|ttf|ico)(?:[?#].*)?\Z", re.IGNORECASE)
# What typographers (SmartyPants, Pelican's TYPOGRIFY, Python-Markdown's smarty) make of
# ASCII, made plain again: curly quotes, dashes, ellipses, no-break and thin spaces.
TYPOGRAPHY = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2013": "--", "\u2014": "--", "\u2026": "...", "\u00a0": " ", "\u2009": " ",
    "\u202f": " ", "\u200a": " ",
}

# --- Images: the content's, not its decoration --------------------------------------------
# Badges, emoji, avatars and the logo sit in the content region on most themes (authors put
# badges and emoji in the Markdown), so landmarks never exclude them: each image is judged.

# Where lazy loaders (lazysizes, lozad, WordPress's, jQuery's) keep the image until shown;
# ``src`` then holds a placeholder, the same on every page.
LAZY_SOURCES = ("data-src", "data-lazy-src", "data-original")
LAZY_SRCSETS = ("data-srcset", "data-lazy-srcset")
# Hosts that serve nothing but badges.
BADGE_HOSTS = frozenset({
    "img.shields.io", "badge.fury.io", "badgen.net", "badges.gitter.im", "coveralls.io",
    "travis-ci.org", "travis-ci.com", "secure.travis-ci.org", "api.travis-ci.org",
    "api.travis-ci.com", "results.pre-commit.ci", "api.codeclimate.com", "codecov.io",
    "app.codecov.io", "static.pepy.tech", "pepy.tech", "api.netlify.com", "snyk.io",
    "ci.appveyor.com", "circleci.com", "dl.circleci.com", "app.fossa.com",
    "api.securityscorecards.dev", "www.bestpractices.dev", "bestpractices.coreinfrastructure.org",
    "sonarcloud.io",
})
# Domains whose every host serves badges: shields.io (img., raster.), badgen.net (flat.),
# Travis CI (app.travis-ci.com).
BADGE_DOMAINS = ("shields.io", "badgen.net", "travis-ci.com", "travis-ci.org")
# A badge by what it is, on any host: one of these as a word (split at "-_.") of a label of its
# host (coverage-badge.samuelcolvin.workers.dev), of a folder of its path (GitHub Actions'
# workflows/x/badge.svg, Read the Docs' projects/x/badge/) or of an SVG's name (Colab's
# colab-badge.svg). A photo of a badge is no SVG ("merit-badges/scout.jpg" is a folder of
# photos only when the folder is exactly "badges").
BADGE_WORDS = frozenset({"badge", "badges"})
# GitLab's and others' status images, named exactly so; and Azure Pipelines' status path.
STATUS_FILES = frozenset({"pipeline.svg", "coverage.svg", "build-status.svg", "status.svg",
                          "badge", "badges", "badge.png"})
STATUS_PATHS = ("/_apis/build/status/",)
# The styles of shields.io's badge protocol, served by its many clones (?style=flat-square).
BADGE_STYLE = re.compile(r"[?&]style=(?:flat|flat-square|plastic|for-the-badge|social)(?:&|\Z)",
                         re.IGNORECASE)
# A badge by its label: an image of a badge's format inside a link whose alt names what such
# badges report (fastapi-users' "build", "codecov", "PyPI version"). Badges are SVG, PNG
# (Travis, raster.shields.io) or drawn on request (no extension); a photo is not.
BADGE_FORMATS = frozenset({"", "svg", "png"})
BADGE_ALT = re.compile(
    r"\A(?:build|ci|tests?|coverage|codecov|coveralls|pypi|pypi version|python versions?|"
    r"license|docs|documentation status|downloads|version|status|pipeline|pre-commit|"
    r"code style)(?:\Z|[\W_])", re.IGNORECASE)
# Classes of images that work a page's controls, not content: Sphinx's module index
# toggler (_static/minus.png).
CONTROL_CLASSES = frozenset({"toggler"})
# Emoji drawn as images: pymdownx's and Material's CDNs (twemoji, emojione), GitHub's gemoji,
# WordPress's and Twitter's own.
EMOJI_URL = re.compile(
    r"https?://(?:twemoji\.maxcdn\.com/|cdn\.jsdelivr\.net/(?:gh/[^/]+/twemoji|emojione|"
    r"npm/twemoji|npm/emojione)|cdnjs\.cloudflare\.com/ajax/libs/(?:emojione|twemoji)/|"
    r"github\.githubassets\.com/images/icons/emoji/|assets-cdn\.github\.com/images/icons/emoji/|"
    r"abs\.twimg\.com/emoji/|s\.w\.org/images/core/emoji/)", re.IGNORECASE)
# Classes of emoji images (pymdownx's index names, jemoji's and markdown-it's "emoji").
EMOJI_CLASSES = frozenset({"twemoji", "emojione", "gemoji", "emoji", "wp-smiley"})
# An emoji's alt as a short code (":rocket:").
EMOJI_SHORTCODE = re.compile(r":[\w+-]+:\Z")
# Avatars: people's pictures from their profiles (contributor tables, post bylines).
AVATAR_URL = re.compile(r"(?:https?:)?//(?:avatars\d*\.githubusercontent\.com/|"
                        r"(?:[a-z0-9-]+\.)?gravatar\.com/avatar/)", re.IGNORECASE)
# Or named so: "avatar" as a word of the class (Docusaurus' avatar__photo), the alt (Elegant's
# "Talha Mansoor Avatar") or the path (/images/avatars/...).
AVATAR = re.compile(r"(?:\A|[\W_])avatars?(?:\Z|[\W_])", re.IGNORECASE)
# The site's logo: "logo" as a word of the class or alt of an image in a banner or in a link
# to the site's own home (HOME_HREF, or the base URL); a logo linked to another site's home is
# that project's picture (Full Stack Python's page illustrations), content.
LOGO = re.compile(r"(?:\A|[\W_])logo(?:\Z|[\W_])", re.IGNORECASE)
# A relative link to the site's home, as themes write it: "/", "./", "../..", "index.html".
HOME_HREF = re.compile(r"\A(?:/|\./|(?:\.\./)*\.\.?/?)?(?:index\.html?)?\Z", re.IGNORECASE)
# Elements that are a banner: a logo in one is the site's.
BANNERS = frozenset({"header", "nav"})
