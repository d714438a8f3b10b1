"""How much one run may ask for: kept apart so the command line can state them without loading the engine."""

#: The most games one run may ask for: days of work on one core, and still a flat memory use.
MAX_GAMES = 100_000_000
#: The most worker processes one run may start (each is a Python process of about 35 MB).
MAX_WORKERS = 256
