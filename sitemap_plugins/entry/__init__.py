"""Entries, pure: from page records and options to what is listed, and how it is written.

The rules decide listed or not and the lastmod; media, news, robots.txt and the XML renderer
turn entries into bytes. Imports the vocabulary and the page; never touches disk.
"""
