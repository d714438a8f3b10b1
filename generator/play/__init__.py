"""Playing County Uppy in the terminal against the engine's bots."""
