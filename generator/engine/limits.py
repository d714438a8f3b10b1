"""How much one run may ask for: kept apart so the command line can state them without loading the engine."""

#: The most games one run may ask for: days of work on one core, and still a flat memory use.
MAX_GAMES = 100_000_000
#: The most worker processes one run may start (each is a Python process of about 35 MB).
MAX_WORKERS = 256
#: The most cells a sweep may have (each is at least one game and one line of output).
MAX_CELLS = 100_000
#: The most cells a sweep plays unless --max-cells allows more (up to MAX_CELLS).
DEFAULT_MAX_CELLS = 200
