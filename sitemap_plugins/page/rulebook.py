"""The rule book: every heuristic the page reader applies, as named data, each with its why.

The walkers (content, chrome, reader) keep the mechanics. To teach the reader a theme, add an
entry here and a row to ``tests/test_rulebook.py``, which asks for a version bump
(:data:`~sitemap_plugins.page.reader.RULEBOOK_DIGEST`).
"""

from __future__ import annotations

import re

# --- What is a page at all ----------------------------------------------------------------

# A file naming none of these elements, with template syntax outside its tags, is a theme's
# template copied as is, not a page: Jinja/Nunjucks/Liquid "{%", "{{", "{#"; ERB/EJS/JSP "<%".
PAGE_ELEMENTS = re.compile(rb"<(?:html|head|body|!doctype)[\s/>]", re.IGNORECASE)
# Comments (HTML, Jinja) are no markup: "loaded after <body>" in one names no element.
COMMENTS = re.compile(rb"<!--.*?(?:-->|\Z)|\{#.*?(?:#\}|\Z)", re.DOTALL)
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
# Content a reader never sees as the page (Lexbor parses these as elements).
NOT_SHOWN = frozenset({"noscript", "template"})

# --- Step 2: what of the region is not content --------------------------------------------

# Navigation, sidebars, build stamps, inline assets: adding a page to the navigation changes
# no other page. A <header> goes only from a <body> region (the site's banner).
DROPPED = ("nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg")
# Inside a <main>, <article> or role=main region a <header> is the content's own, unless it
# names itself the banner (HTML-AAM).
DROPPED_IN_CONTENT = tuple(
    'header[role~="banner" i]' if name == "header" else name for name in DROPPED)
# A code block's line numbers (Pygments' and Chroma's classes); a site's setting.
LINE_NUMBERS = (".linenos", ".linenodiv", "pre .lnt", "pre .ln")
# A fragment link inside code is a line's link when it is only a number; any other is code.
LINE_NUMBER = re.compile(r"\d*")
# The permalink rule, shared by the fingerprint and the heading: a link in a heading with one
# of these classes, or to a fragment saying no word (PERMALINK_WORD), unless it is all the text.
PERMALINK_CLASSES = frozenset({"headerlink", "hash-link", "anchor-link", "heading-anchor"})
PERMALINK_WORD = re.compile(r"[^\W_]")  # a letter or a digit, of any script

# --- Steps 3 and 4: what counts in the fingerprint ----------------------------------------

# Elements whose href or src count as content links (script and svg are dropped anyway).
LINKING = ("a", "area", "img", "iframe", "embed", "source", "track", "video", "audio", "input")
# Asset links whose names carry a build hash (style.4f3a9c.css, app.js?v=123): not content.
ASSET = re.compile(r"\.(?:css|js|mjs|map|woff2?|ttf|ico)(?:[?#].*)?\Z", re.IGNORECASE)
# What typographers make of ASCII, made plain again.
TYPOGRAPHY = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2013": "--", "\u2014": "--", "\u2026": "...", "\u00a0": " ", "\u2009": " ",
    "\u202f": " ", "\u200a": " ",
}

# --- Images: the content's, not its decoration --------------------------------------------
# Badges, emoji, avatars and logos sit in the content region on most themes: each is judged.

# Where lazy loaders keep the image until shown (``src`` is then a placeholder).
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
# Domains whose every host serves badges.
BADGE_DOMAINS = ("shields.io", "badgen.net", "travis-ci.com", "travis-ci.org")
# A badge by what it is, on any host: one of these as a word (split at "-_.") of a label of
# its host, of a folder of its path or of an SVG's name. Photos ("merit-badges/x.jpg") are not.
BADGE_WORDS = frozenset({"badge", "badges"})
# GitLab's and others' status images, named exactly so; and Azure Pipelines' status path.
STATUS_FILES = frozenset({"pipeline.svg", "coverage.svg", "build-status.svg", "status.svg",
                          "badge", "badges", "badge.png"})
STATUS_PATHS = ("/_apis/build/status/",)
# The styles of shields.io's badge protocol, served by its many clones (?style=flat-square).
BADGE_STYLE = re.compile(r"[?&]style=(?:flat|flat-square|plastic|for-the-badge|social)(?:&|\Z)",
                         re.IGNORECASE)
# A badge by its label: a badge-format image (SVG, PNG, no extension) in a link whose alt
# names what badges report ("build", "codecov", "PyPI version").
BADGE_FORMATS = frozenset({"", "svg", "png"})
BADGE_ALT = re.compile(
    r"\A(?:build|ci|tests?|coverage|codecov|coveralls|pypi|pypi version|python versions?|"
    r"license|docs|documentation status|downloads|version|status|pipeline|pre-commit|"
    r"code style)(?:\Z|[\W_])", re.IGNORECASE)
# Classes of images that work a page's controls, not content (Sphinx's toggler).
CONTROL_CLASSES = frozenset({"toggler"})
# Emoji drawn as images: pymdownx's, GitHub's, WordPress's and Twitter's CDNs.
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
# Or named so: "avatar" as a word of the class, the alt or the path.
AVATAR = re.compile(r"(?:\A|[\W_])avatars?(?:\Z|[\W_])", re.IGNORECASE)
# The site's logo: "logo" in the class or alt of an image in a banner or a link home; a logo
# linked to another site's home is content.
LOGO = re.compile(r"(?:\A|[\W_])logo(?:\Z|[\W_])", re.IGNORECASE)
# A relative link to the site's home, as themes write it: "/", "./", "../..", "index.html".
HOME_HREF = re.compile(r"\A(?:/|\./|(?:\.\./)*\.\.?/?)?(?:index\.html?)?\Z", re.IGNORECASE)
# Elements that are a banner: a logo in one is the site's.
BANNERS = frozenset({"header", "nav"})
