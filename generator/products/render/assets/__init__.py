"""The files a manifest names for its look: pictures (art.py), font files (font_files.py), icon
pictures (icon_files.py) and the wild glyphs made into icon files (glyph_icons.py), each read
bounded and kept by its content's digest (file_digests.py)."""
