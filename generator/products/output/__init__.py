"""The output transaction: the folder lock, staging, the commit journal, the mirror of the
previous build, build.json and changes.json."""
