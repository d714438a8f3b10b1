"""One module per CLI command; each has `add_parser(subparsers)` and `run(args) -> int`."""
